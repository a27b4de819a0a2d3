// The turn timer's countdown, from the seconds really left on the server's timer
// (`timer_left_s` of welcome, state, undone and update): a page reloaded in the middle
// of a turn shows the time really left, not a whole turn again.
import { gettext } from "./i18n.js";

export class TurnCountdown {
  // `conn`: the room's connection; `element()`: where the countdown is shown (or null);
  // `mine(message)`: whether the message's turn is this page's to decide.
  constructor(conn, element, mine) {
    this.element = element;
    this.mine = mine;
    this.deadline = null;
    for (const type of ["welcome", "state", "undone", "update"]) {
      conn.on(type, (message) => this.receive(message));
    }
    // Paused while a takeback request waits; a refused one goes on with what it had left.
    conn.on("undo_asked", () => { this.deadline = null; this.show(); });
    conn.on("undo_result", (message) => { if (!message.accepted) conn.sync(); });
    setInterval(() => this.show(), 1000);
  }

  receive(message) {
    if (!("timer_left_s" in message)) {
      return;
    }
    const left = message.timer_left_s;
    this.deadline = typeof left === "number" && this.mine(message) ? Date.now() + left * 1000 : null;
    this.show();
  }

  /** The seconds left, rounded up; null when no countdown runs for this page. */
  seconds() {
    return this.deadline === null ? null : Math.max(0, Math.ceil((this.deadline - Date.now()) / 1000));
  }

  text() {
    const left = this.seconds();
    return left === null ? "" : gettext("Time left for your choice: {seconds} s", { seconds: left });
  }

  show() {
    const element = this.element();
    if (element) {
      element.textContent = this.text();
    }
  }
}
