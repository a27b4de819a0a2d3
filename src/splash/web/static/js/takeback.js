// Takebacks on the game pages (docs/protocol.md, "Takebacks"): the Undo button, the
// referee's in-page confirmation, the accept / refuse prompt of a request among people, and
// the line that tells everyone how a request ended.
//
// API (stable):
//   const takebacks = new Takebacks(conn, {who, onChange})
//                         who(seat) -> the seat's name in a sentence ("team A", "Ann");
//                         onChange() -> the page draws itself again (a request came or went)
//   takebacks.element     a <section id="takeback"> that stays the same node: a page that
//                         redraws itself puts this node back in
//   takebacks.refresh({seats, playing, waiting})
//                         draw the section for the room's seats now; `playing`: the game is
//                         under way (started, not over); `waiting`: the page waits for the
//                         server's answer to something else
//   takebacks.pending     true while a request among people waits for answers (no action
//                         is taken meanwhile)
//   takebacks.log = (say) => ...
//                         the page's log: called for each takeback, request and request
//                         ended with say(), which gives the sentence in the page's language
import { h } from "./dom.js";
import { gettext } from "./i18n.js";

// As the server's undo.py and line.py count them: a seat's own decisions, and the moves the
// server plays by itself (a referee's takeback goes back past them).
const DECISION_SOURCES = new Set(["human", "timer"]);
const AUTOMATIC_SOURCES = new Set(["chance", "auto", "bot"]);

export class Takebacks {
  constructor(conn, { who, onChange = () => {} }) {
    this.conn = conn;
    this.who = who;
    this.onChange = onChange;
    this.log = () => {};
    this.element = h("section", { class: "takeback", id: "takeback", "aria-live": "polite" });
    this.asked = null;
    this.before = null;
    this.answered = false;
    this.expiry = null;
    this.deadline = null;
    this.result = null;
    this.confirming = false;
    this.sending = false;
    this.mine = [];
    this.knownFrom = 0;
    this.last = { seats: [], playing: false, waiting: false };
    conn.on("welcome", (m) => this.#welcome(m));
    conn.on("update", (m) => this.#update(m));
    conn.on("undone", (m) => this.#undone(m));
    conn.on("undo_asked", (m) => this.#asked(m));
    conn.on("undo_result", (m) => this.#result(m));
  }

  get pending() {
    return this.asked !== null;
  }

  #welcome(message) {
    const log = message.log || [];
    this.knownFrom = message.index - log.length;
    this.mine = log.filter((e) => this.#isMine(e)).map((e) => e.index);
    // A request still waiting comes again in the "undo_asked" that follows the welcome, with
    // the seats yet to answer and the time left; one that ended meanwhile does not.
    this.before = this.asked;
    this.#forget();
    this.confirming = false;
  }

  #forget() {
    clearTimeout(this.expiry);
    this.asked = null;
    this.answered = false;
    this.deadline = null;
  }

  // An entry this connection could take back: the referee's entries, a seat's decisions.
  #isMine(entry) {
    if (this.conn.role === "referee") {
      return !AUTOMATIC_SOURCES.has(entry.source);
    }
    return this.conn.role === "seat" && entry.actor === this.conn.seat && DECISION_SOURCES.has(entry.source);
  }

  #update(message) {
    this.before = null;
    if (this.#isMine(message)) {
      this.mine.push(message.index);
    }
    this.result = null;
  }

  #undone(message) {
    this.before = null;
    this.mine = this.mine.filter((index) => index < message.index);
    this.knownFrom = Math.min(this.knownFrom, message.index);
    this.#forget();
    this.confirming = false;
    const { by, index } = message;
    const say = () => (by < 0
      ? gettext("The referee took back the last entry: the game is back at step {index}.", { index })
      : gettext("{who} took back their last move: the game is back at step {index}.", { who: this.who(by), index }));
    this.result = say;
    this.log(say);
    this.onChange();
  }

  #asked(message) {
    const before = this.before;
    this.before = null;
    this.#forget();
    this.asked = message;
    this.deadline = Date.now() + message.timeout * 1000;
    this.result = null;
    this.expiry = setTimeout(() => {
      if (this.asked === message) {
        this.#forget();
        this.onChange();
      }
    }, (message.timeout + 2) * 1000);
    const again = before && before.by === message.by && before.to === message.to && before.index === message.index;
    if (!again) {
      this.log(() => gettext("{who} asks to take back their last move.", { who: this.who(message.by) }));
    }
    this.onChange();
  }

  // The whole seconds left to answer the pending request, as the server counts them.
  #secondsLeft() {
    return Math.max(0, Math.ceil((this.deadline - Date.now()) / 1000));
  }

  #result(message) {
    this.before = null;
    this.#forget();
    const { by, reason, answered_by: answerer } = message;
    const say = () => {
      const who = this.who(by);
      if (reason === "accepted") {
        return gettext("The takeback asked by {who} was accepted.", { who });
      }
      if (reason === "refused" && answerer !== null && answerer !== undefined) {
        return gettext("{answerer} refused the takeback asked by {who}.", { answerer: this.who(answerer), who });
      }
      return gettext("The takeback asked by {who} was not answered in time: play goes on.", { who });
    };
    this.result = say;
    this.log(say);
    this.onChange();
  }

  // "undo" (a referee; a seat against bots alone), "request" (among people) or null.
  #kind(seats) {
    const conn = this.conn;
    if (conn.role === "referee" && conn.welcome && conn.welcome.mode === "referee") {
      return "undo";
    }
    if (conn.role !== "seat" || !conn.welcome || conn.welcome.mode !== "play") {
      return null;
    }
    const others = seats.filter((s) => s.seat !== conn.seat);
    return others.every((s) => s.kind === "bot") ? "undo" : "request";
  }

  #something() {
    return this.mine.some((index) => index < this.conn.index) || this.knownFrom > 0;
  }

  #send(kind) {
    this.confirming = false;
    this.sending = true;
    this.#draw();
    const sent = kind === "undo" ? this.conn.undo() : this.conn.undoRequest();
    sent.catch(() => {}).finally(() => {
      this.sending = false;
      this.onChange();
    });
  }

  #answer(accept) {
    this.conn.undoAnswer(accept);
    this.answered = true;
    this.#draw();
  }

  refresh({ seats = [], playing = false, waiting = false } = {}) {
    this.last = { seats, playing, waiting };
    this.#draw();
  }

  #draw() {
    const { seats, playing, waiting } = this.last;
    const kind = this.#kind(seats);
    const parts = [];
    if (this.asked) {
      parts.push(...this.#prompt());
    } else if (kind && playing) {
      const able = this.#something() && !waiting && !this.sending;
      if (this.confirming && able) {
        parts.push(h("div", { class: "confirm", id: "undo-confirm", role: "group", "aria-labelledby": "undo-question" },
          h("p", { id: "undo-question" }, gettext("Take back the last entry?")),
          h("button", { type: "button", class: "primary", id: "undo-yes", onclick: () => this.#send(kind) }, gettext("Yes, take it back")),
          h("button", { type: "button", id: "undo-no", onclick: () => {
            this.confirming = false;
            this.#draw();
            document.getElementById("undo")?.focus();
          } }, gettext("No, keep it"))));
      } else {
        const label = kind === "request" ? gettext("Ask to undo my last move")
          : this.conn.role === "referee" ? gettext("Undo the last entry") : gettext("Undo my last move");
        parts.push(h("button", {
          type: "button", id: "undo", class: "undo", disabled: !able,
          onclick: () => {
            if (this.conn.role === "referee") {
              this.confirming = true;
              this.#draw();
              document.getElementById("undo-yes")?.focus();
            } else {
              this.#send(kind);
            }
          },
        }, label));
      }
    }
    if (this.result) {
      parts.push(h("p", { class: "undo-result", id: "undo-result" }, this.result()));
    }
    this.element.hidden = parts.length === 0;
    this.element.replaceChildren(...parts);
  }

  #prompt() {
    const asked = this.asked;
    const conn = this.conn;
    const who = this.who(asked.by);
    if (conn.role === "seat" && asked.waiting.includes(conn.seat) && !this.answered) {
      return [h("div", { class: "confirm", id: "undo-prompt", role: "group", "aria-labelledby": "undo-asked" },
        h("p", { id: "undo-asked" }, gettext("{who} asks to take back their last move. Answer within {seconds} s.", { who, seconds: this.#secondsLeft() })),
        h("button", { type: "button", class: "primary", id: "undo-accept", onclick: () => this.#answer(true) }, gettext("Accept")),
        h("button", { type: "button", id: "undo-refuse", onclick: () => this.#answer(false) }, gettext("Refuse")))];
    }
    const text = conn.role === "seat" && asked.by === conn.seat
      ? gettext("You asked to take back your last move: waiting for the others to answer.")
      : gettext("{who} asked to take back their last move: waiting for the answers.", { who });
    return [h("p", { class: "undo-waiting", id: "undo-waiting" }, text)];
  }
}
