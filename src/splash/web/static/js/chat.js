// The chat panel of the game pages (docs/protocol.md, "Chat"): the room's messages, and a
// line to write one. Every text is put in as text (textContent), never as markup.
//
// API:
//   const chat = new ChatPanel(conn, {who})
//                     who(line) -> who wrote `line` in the page's words (a team, a name)
//   chat.element      a <section id="chat"> that stays the same node: a page that redraws
//                     itself puts this node back in
//   chat.allowSpectators(on)
//                     whether the room lets spectators write (its option spectator_chat)
import { h } from "./dom.js";
import { N_, gettext } from "./i18n.js";

const MAX_CHARS = 200;
const KEPT = 100;

// Strings built by name below, listed for extraction.
export const CHAT_STRINGS = [N_("Chat"), N_("Message"), N_("Send"), N_("Spectators read the chat; the players write in it.")];

export class ChatPanel {
  constructor(conn, { who }) {
    this.conn = conn;
    this.who = who;
    this.lines = [];
    this.spectators = false;
    this.list = h("ol", {
      class: "chat-lines", id: "chat-lines", tabIndex: 0, "aria-labelledby": "chat-title", "aria-live": "polite", "aria-relevant": "additions",
    });
    this.input = h("input", {
      id: "chat-text", type: "text", maxLength: MAX_CHARS, autocomplete: "off",
    });
    this.button = h("button", { type: "submit", id: "chat-send" });
    this.note = h("p", { class: "hint chat-note", id: "chat-note" });
    this.problem = h("p", { class: "error-line chat-error", id: "chat-error", role: "status" });
    this.label = h("label", { for: "chat-text", class: "chat-label" });
    this.title = h("h2", { id: "chat-title" });
    this.form = h("form", { class: "chat-form", onsubmit: (event) => { event.preventDefault(); this.#send(); } },
      this.label, this.input, this.button);
    this.element = h("section", { class: "chat panel card", id: "chat", "aria-labelledby": "chat-title" },
      this.title, this.list, this.form, this.note, this.problem);
    conn.on("welcome", (m) => { this.lines = (m.chat || []).slice(-KEPT); this.draw(); });
    conn.on("chat", (m) => {
      this.lines.push(m);
      if (this.lines.length > KEPT) this.lines.shift();
      this.draw();
    });
    conn.on("status", () => this.draw());
    this.draw();
  }

  allowSpectators(on) {
    this.spectators = Boolean(on);
    this.draw();
  }

  #canWrite() {
    return this.conn.role === "seat" || this.conn.role === "referee" || (this.conn.role === "spectator" && this.spectators);
  }

  async #send() {
    const text = this.input.value.trim();
    if (!text) return;
    this.problem.textContent = "";
    try {
      await this.conn.request({ type: "chat", text }, { until: ["chat"], quiet: true });
      this.input.value = "";
    } catch (error) {
      this.problem.textContent = error.message || String(error.code || error);
    }
  }

  #line(line) {
    const at = new Date(line.at * 1000);
    const time = at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    return h("li", { class: "chat-line" },
      h("time", { dateTime: at.toISOString() }, time), " ",
      h("strong", { class: "chat-who" }, this.who(line)), ": ",
      h("span", { class: "chat-text", translate: "no" }, line.text));
  }

  draw() {
    this.title.textContent = gettext("Chat");
    this.label.textContent = gettext("Message");
    this.button.textContent = gettext("Send");
    this.list.replaceChildren(...this.lines.map((line) => this.#line(line)));
    this.list.scrollTop = this.list.scrollHeight;
    const writes = this.#canWrite();
    this.form.hidden = !writes;
    this.note.hidden = writes || this.conn.role !== "spectator";
    this.note.textContent = gettext("Spectators read the chat; the players write in it.");
  }
}
