// The referee's panel of a Splash! game played with real pieces: people report what the
// tower did after each placement (stood, fell, fell by itself, knocked over), as the
// `outcome` message's `report` of splash/ws/1 says (docs/protocol.md).
import { gettext } from "./i18n.js";
import { pieceChip, seatName } from "./tower-panels.js";
import { targetOf } from "./tower-place.js";

/** The standing stacks (each base first) and the pieces on the table, from the pieces
 * people marked as still standing: a standing piece stays on its standing support. */
export function fallReport(pieces, supports, standingSet) {
  const stackOf = new Map();
  const stacks = [];
  const onTable = [];
  for (const piece of pieces) {
    if (!standingSet.has(piece)) { onTable.push(piece); continue; }
    const below = supports.get(piece);
    const stack = below && stackOf.get(below);
    if (stack && stack[stack.length - 1] === below) {
      stack.push(piece);
      stackOf.set(piece, stack);
    } else {
      const fresh = [piece];
      stacks.push(fresh);
      stackOf.set(piece, fresh);
    }
  }
  return { standing: stacks, on_table: onTable };
}

function button(text, onClick, name) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  if (name) b.dataset.report = name;
  b.addEventListener("click", onClick);
  return b;
}

export class RefereePanel {
  /** `send(report)` sends a report; `outcome(action)` a chance outcome from the list. */
  constructor(panel, catalogue, { send, outcome }) {
    this.panel = panel;
    this.catalogue = catalogue;
    this.send = send;
    this.outcome = outcome;
    this.panel.classList.add("referee");
  }

  /** Show what the referee may enter for `view` and the pending `chance`. */
  render(view, chance, seats) {
    this.panel.hidden = false;
    this.panel.replaceChildren();
    const title = document.createElement("h2");
    title.textContent = gettext("Referee");
    this.panel.append(title);
    if (!chance) {
      const idle = document.createElement("p");
      idle.className = "hint";
      idle.textContent = gettext("Nothing to report now: enter the decisions of the open seats when it is their turn.");
      this.panel.append(idle);
      return;
    }
    if (chance.event && chance.event.kind === "placement") {
      this.#placement(view, seats);
    } else if (chance.outcomes) {
      const box = document.createElement("div");
      box.className = "buttons";
      for (const action of chance.outcomes) {
        const b = button("", () => this.outcome(action));
        b.append(pieceChip(this.catalogue, action.piece || ""));
        box.append(b);
      }
      this.panel.append(box);
    }
  }

  #placement(view, seats) {
    const ask = document.createElement("p");
    ask.textContent = gettext("What did the tower do?");
    const box = document.createElement("div");
    box.className = "buttons";
    box.append(
      button(gettext("It stood, with room left on the target"),
        () => this.send({ result: "stood", room_left: true }), "stood-room"),
      button(gettext("It stood, no room left on the target"),
        () => this.send({ result: "stood", room_left: false }), "stood"),
      button(gettext("It fell…"), () => this.#collapse(view, seats, false), "fell"),
      button(gettext("It fell by itself before the piece touched it"),
        () => this.send({ result: "spontaneous" }), "spontaneous"),
      button(gettext("Someone knocked it over…"), () => this.#collapse(view, seats, true), "knocked"),
    );
    this.panel.append(ask, box);
  }

  #collapse(view, seats, knocked) {
    const form = document.createElement("form");
    const pieces = view.tower.map((p) => p.piece);
    const supports = new Map(view.tower.map((p) => [p.piece, p.support]));
    if (!knocked && view.gift) {
      pieces.push(view.gift);
      const target = targetOf(view, view.gift);
      supports.set(view.gift, target ? target.piece : null);
    }
    let knocker = null;
    if (knocked) {
      const who = document.createElement("fieldset");
      const legend = document.createElement("legend");
      legend.textContent = gettext("Who knocked it over?");
      who.append(legend);
      view.reserves.forEach((_, seat) => {
        const label = document.createElement("label");
        const radio = document.createElement("input");
        radio.type = "radio";
        radio.name = "knocker";
        radio.value = String(seat);
        radio.required = true;
        label.append(radio, document.createTextNode(seatName(seats, seat)));
        who.append(label);
      });
      form.append(who);
      knocker = who;
    }
    const still = document.createElement("fieldset");
    const legend = document.createElement("legend");
    legend.textContent = gettext("Which pieces still stand?");
    still.append(legend);
    for (const piece of pieces) {
      const label = document.createElement("label");
      const box = document.createElement("input");
      box.type = "checkbox";
      box.value = piece;
      label.append(box, pieceChip(this.catalogue, piece));
      still.append(label);
    }
    const submit = document.createElement("button");
    submit.type = "submit";
    submit.className = "primary";
    submit.textContent = gettext("Report");
    form.append(still, submit);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const standing = new Set([...still.querySelectorAll("input:checked")].map((b) => b.value));
      const report = { result: knocked ? "knocked" : "fell", ...fallReport(pieces, supports, standing) };
      if (knocker) report.knocker = Number(knocker.querySelector("input:checked").value);
      this.send(report);
    });
    this.panel.append(form);
    still.querySelector("input")?.focus();
  }
}
