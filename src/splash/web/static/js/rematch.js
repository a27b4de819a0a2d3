// The rematch on the game pages (docs/protocol.md, "Rematch"): once the game is over, a
// Rematch button for the seats and the referee; when the server announces the new room,
// this connection's own token in it is kept as the lobby keeps tokens, the person who
// asked moves there, and the others are offered to follow.
//
// API:
//   const rematch = new RematchPanel(conn, {page})
//                     page: the page's file ("bash.html", "tower.html"), for the new room's
//                     address
//   rematch.element   a <section id="rematch"> that stays the same node: a page that
//                     redraws itself puts this node back in
//   rematch.refresh({over})
//                     draw the section; `over`: the game has ended
import { tokens } from "./client.js";
import { h } from "./dom.js";
import { gettext } from "./i18n.js";

export class RematchPanel {
  constructor(conn, { page }) {
    this.conn = conn;
    this.page = page;
    this.over = false;
    this.asked = false;
    this.sending = false;
    this.offer = null;
    this.problem = "";
    this.element = h("section", { class: "rematch", id: "rematch", "aria-live": "polite", hidden: true });
    conn.on("rematch", (message) => this.#announced(message));
    conn.on("welcome", (message) => this.#welcomed(message));
  }

  refresh({ over = false } = {}) {
    this.over = over;
    this.#draw();
  }

  #person() {
    return this.conn.role === "seat" || this.conn.role === "referee";
  }

  // The new room's address, for the role this connection has here.
  #address(room) {
    const conn = this.conn;
    const as = conn.role === "referee" ? "&referee" : conn.role === "seat" ? `&seat=${conn.seat}` : "&watch";
    return `/static/${this.page}?room=${encodeURIComponent(room)}${as}`;
  }

  #keep(message) {
    const room = message.rematch;
    if (message.token && this.conn.role === "referee") {
      tokens.setReferee(room, message.token);
    } else if (message.token && this.conn.role === "seat") {
      tokens.setSeat(room, this.conn.seat, message.token);
    }
    const host = tokens.host(this.conn.room);
    if (host) {
      tokens.setHost(room, host);
    }
  }

  #announced(message) {
    if (message.room !== this.conn.room) return;
    this.#keep(message);
    this.offer = message;
    if (this.asked) {
      this.#go();
      return;
    }
    this.#draw();
  }

  // A welcome (a reload, a late join) names the rematch made while this page was away; a
  // person's token there still has to be asked for.
  #welcomed(message) {
    if (!message.rematch || (this.offer && !this.offer.unclaimed)) return;
    this.offer = { room: message.room, rematch: message.rematch, unclaimed: this.#person() };
    this.#draw();
  }

  #go() {
    location.assign(this.#address(this.offer.rematch));
  }

  #ask() {
    if (this.offer && !this.offer.unclaimed) {
      this.asked = true;
      this.#go();
      return;
    }
    this.asked = true;
    this.sending = true;
    this.problem = "";
    this.#draw();
    this.conn.request({ type: "rematch" }, { until: ["rematch"], quiet: true })
      .catch((error) => {
        this.asked = false;
        this.problem = error.message || String(error.code || error);
      })
      .finally(() => {
        this.sending = false;
        this.#draw();
      });
  }

  #draw() {
    const shown = this.over && (this.#person() || this.offer !== null);
    this.element.hidden = !shown;
    if (!shown) {
      this.element.replaceChildren();
      return;
    }
    const parts = [];
    if (this.offer) {
      parts.push(h("p", { id: "rematch-ready" }, gettext("A rematch is ready in a new room.")));
      if (this.offer.unclaimed) {
        parts.push(h("button", {
          type: "button", class: "primary", id: "rematch-join", disabled: this.sending, onclick: () => this.#ask(),
        }, gettext("Join the rematch")));
      } else {
        parts.push(h("a", { class: "button primary", id: "rematch-join", href: this.#address(this.offer.rematch) },
          this.#person() ? gettext("Join the rematch") : gettext("Watch the rematch")));
      }
    } else {
      parts.push(h("button", {
        type: "button", class: "primary", id: "rematch-ask", disabled: this.sending, onclick: () => this.#ask(),
      }, gettext("Rematch")));
      parts.push(h("p", { class: "hint" }, gettext("A new game with the same settings and seats.")));
    }
    if (this.problem) {
      parts.push(h("p", { class: "error-line", id: "rematch-error", role: "status" }, this.problem));
    }
    this.element.replaceChildren(...parts);
  }
}
