// Chance anyone can check, on the pages (docs/fairness.md): the seed a person adds when
// taking a seat, the room's commitment with a copy button, every seat's seed, and once the
// game is over "Check this game": the secret the replay reveals is hashed here and compared
// with the commitment this browser saw before play.
//
// API (stable):
//   randomSeed()               a fresh client seed: 24 hex digits from crypto.getRandomValues
//   seedField({id, value, onInput})  a labelled <input> holding `value` (a randomSeed()), which
//                              a person may replace by their own (1 to 64 printable ASCII
//                              characters); onInput(text) hears each change
//   commitmentDigest(secretHex)  resolves to the hex SHA-256 of "splash/commit/1\0" and the
//                              secret's bytes: WebCrypto in a secure context, otherwise the
//                              vendored js-sha256 (a page served over plain HTTP on a LAN)
//   const fair = new FairnessPanel(conn, {who})
//                              who(seat): a seat's name (node or text)
//   fair.element               a <section id="fairness"> that stays the same node
//   fair.refresh({over})       draw it; `over`: the game has ended (offers the check)
import { h } from "./dom.js";
import { gettext } from "./i18n.js";
import { copyText } from "./invite.js";

export const SEED_MAX = 64;
const SEED_PATTERN = "[ -~]{1,64}";
const COMMIT_DOMAIN = "splash/commit/1\u0000";
const SHOWN_DIGITS = 16;

export function randomSeed() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function seedField({ id, value, onInput }) {
  const input = h("input", {
    type: "text", id, value, maxLength: SEED_MAX, pattern: SEED_PATTERN,
    spellcheck: false, autocomplete: "off", translate: "no",
    oninput: (event) => onInput(event.target.value),
  });
  return h("label", { for: id, class: "seed-field" },
    h("span", { class: "label" }, gettext("Your seed for the dice")), input,
    h("span", { class: "hint" }, gettext("Made at random here; type your own if you like. The server commits to its own part of the chance before it can know yours.")));
}

function hexBytes(hex) {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i += 1) {
    bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  }
  return bytes;
}

export async function commitmentDigest(secretHex) {
  const prefix = new TextEncoder().encode(COMMIT_DOMAIN);
  const secret = hexBytes(secretHex);
  const data = new Uint8Array(prefix.length + secret.length);
  data.set(prefix);
  data.set(secret, prefix.length);
  if (window.isSecureContext && crypto.subtle) {
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", data));
    return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
  }
  const { sha256 } = await import("../vendor/js-sha256/sha256.min.js");
  return sha256(data);
}

// What this browser saw of a room's commitment before play, kept so that a server that
// showed another one later is caught.
const seen = {
  get(room) {
    return localStorage.getItem(`splash-commitment-${room}`);
  },
  keep(room, commitment) {
    if (commitment && !this.get(room)) {
      localStorage.setItem(`splash-commitment-${room}`, commitment);
    }
  },
};

export class FairnessPanel {
  constructor(conn, { who }) {
    this.conn = conn;
    this.who = who;
    this.commitment = null;
    this.committed = false;
    this.seats = [];
    this.over = false;
    this.verdict = null;
    this.checking = false;
    this.element = h("section", { class: "fairness", id: "fairness", "aria-labelledby": "fairness-title" });
    conn.on("welcome", (message) => this.#welcomed(message));
    conn.on("seats", (message) => { this.seats = message.seats || this.seats; this.#draw(); });
  }

  refresh({ over = false } = {}) {
    this.over = over;
    this.#draw();
  }

  #welcomed(message) {
    this.committed = true;
    this.commitment = message.commitment || null;
    this.seats = message.seats || [];
    if (!message.view || !message.view.terminal) {
      seen.keep(this.conn.room, this.commitment);
    }
    this.#draw();
  }

  #copyRow(id, text, name, label) {
    const input = h("input", { type: "text", readOnly: true, id, value: text, class: "fair-value", translate: "no",
      "aria-label": name, onfocus: (event) => event.target.select() });
    const said = h("span", { class: "invite-said", role: "status", "aria-live": "polite" });
    const button = h("button", { type: "button", id: `${id}-copy` }, label);
    button.addEventListener("click", async () => {
      said.textContent = (await copyText(input)) ? gettext("Copied") : gettext("Select the text and copy it.");
    });
    return h("div", { class: "invite-row" }, input, button, said);
  }

  #seedList() {
    return h("ul", { class: "fair-seeds", id: "fair-seeds" }, this.seats.map((seat) => h("li", {},
      this.who(seat.seat), ": ",
      seat.client_seed ? h("code", { translate: "no" }, seat.client_seed)
        : seat.kind === "bot" ? gettext("a bot adds no seed")
          : seat.kind === "open" ? gettext("not taken yet") : gettext("no seed"))));
  }

  async #check() {
    this.checking = true;
    this.verdict = null;
    this.#draw();
    const room = this.conn.room;
    try {
      const response = await fetch(`/api/rooms/${encodeURIComponent(room)}/replay`);
      const replay = await response.json();
      if (!response.ok) {
        throw new Error((replay.detail && replay.detail.message) || response.statusText);
      }
      const revealed = replay.meta && replay.meta.fairness;
      if (!revealed || !revealed.secret) {
        this.verdict = { ok: false, text: gettext("This game reveals no secret: its room committed to nothing.") };
      } else {
        const digest = await commitmentDigest(revealed.secret);
        const before = seen.get(room) || this.commitment;
        const ok = digest === revealed.commitment && digest === before;
        this.verdict = {
          ok,
          text: ok
            ? gettext("The secret revealed at the end gives the commitment shown before play.")
            : gettext("The secret revealed at the end does not give the commitment shown before play: {digest} instead of {shown}.",
              { digest: digest.slice(0, SHOWN_DIGITS), shown: (before || "").slice(0, SHOWN_DIGITS) }),
        };
      }
    } catch (error) {
      this.verdict = { ok: false, text: gettext("The replay could not be read: {why}", { why: error.message || String(error) }) };
    }
    this.checking = false;
    this.#draw();
  }

  #draw() {
    const parts = [h("h2", { id: "fairness-title" }, gettext("Fair chance"))];
    if (!this.committed) {
      this.element.replaceChildren(...parts);
      return;
    }
    if (this.commitment) {
      parts.push(h("p", {}, gettext("Before play, this room committed to its secret part of the chance:")),
        h("p", { class: "fair-short", id: "fair-commitment", title: this.commitment, translate: "no" },
          `${this.commitment.slice(0, SHOWN_DIGITS)}…`),
        this.#copyRow("fair-commitment-full", this.commitment, gettext("The room's commitment"), gettext("Copy the commitment")),
        h("p", {}, gettext("Each person's seed is added to it:")), this.#seedList());
    } else {
      parts.push(h("p", { id: "fair-none" }, gettext("This room committed to nothing: its server chooses its chance alone.")));
    }
    if (this.over && this.commitment) {
      const replay = `${location.origin}/api/rooms/${encodeURIComponent(this.conn.room)}/replay`;
      parts.push(
        h("button", { type: "button", id: "fair-check", disabled: this.checking, onclick: () => this.#check() },
          gettext("Check this game")),
        this.verdict ? h("p", { id: "fair-verdict", class: this.verdict.ok ? "fair-ok" : "error-line", role: "status" }, this.verdict.text) : null,
        h("p", {}, gettext("This page checks the commitment; this command derives every draw, ruling and bot decision again:")),
        this.#copyRow("fair-command", `splash verify ${replay}`, gettext("The command that checks the game"), gettext("Copy the command")));
    }
    this.element.replaceChildren(...parts.filter(Boolean));
  }
}
