// The choices of the moment on the Splash & Bash page, as large buttons: a seat's legal
// actions, a referee's chance outcomes (the roll, the printed card drawn) and the decisions
// of open seats, and the buttons that show a hand on the shared screen.
//   choicesPanel({page, conn, board, view, chance, actions}) -> <section id="choices">
import { h } from "./dom.js";
import { gettext } from "./i18n.js";
import { actionLabel, laneName, teamName } from "./bash-text.js";
import { cardText } from "./bash-cards.js";

function actionId(action) {
  return "choice-" + Object.entries(action).map(([k, v]) => `${k}-${v}`).join("-").replace(/[^\w-]/g, "_");
}

function choiceButton(label, action, onclick, busy, extra = {}) {
  return h("button", {
    type: "button", class: "choice", id: actionId(action), disabled: busy,
    "data-kind": action.kind, onclick, ...extra,
  }, label);
}

function obstacleGrid(board, legal, onpick, busy) {
  const byLane = new Map();
  for (const action of legal) {
    if (!byLane.has(action.lane)) {
      byLane.set(action.lane, []);
    }
    byLane.get(action.lane).push(action);
  }
  return [...byLane.entries()].map(([lane, list]) => h("fieldset", { class: "obstacles" },
    h("legend", {}, laneName(board, lane)),
    h("div", { class: "square-grid" }, list.map((action) =>
      choiceButton(String(action.square), action, () => onpick(action), busy,
        { "aria-label": actionLabel(board, action), class: "choice small" })))));
}

// A card's button says what the card does under its name.
function decisionLabel(board, action) {
  const text = action.card ? cardText(board, action.card) : "";
  if (!text) {
    return actionLabel(board, action);
  }
  return [h("span", { class: "choice-name" }, actionLabel(board, action)), h("span", { class: "card-text" }, text)];
}

function decisionButtons(board, legal, onpick, busy) {
  const obstacles = legal.filter((a) => a.kind === "obstacle");
  const others = legal.filter((a) => a.kind !== "obstacle");
  return [
    h("div", { class: "choice-list" }, others.map((action) =>
      choiceButton(decisionLabel(board, action), action, () => onpick(action), busy))),
    ...obstacleGrid(board, obstacles, onpick, busy),
  ];
}

function chanceOutcomes(board, chance) {
  if (chance.outcomes) {
    return chance.outcomes;
  }
  const event = chance.event;
  if (event.kind === "roll") {
    const faces = event.faces || board.die_faces;
    return Array.from({ length: faces }, (_, i) => ({ kind: "roll", face: i + 1 }));
  }
  if (event.kind === "draw") {
    const deck = board.decks[event.deck];
    return Object.keys(deck ? deck.cards : {}).map((card) => ({ kind: "draw", deck: event.deck, card }));
  }
  if (event.kind === "steal") {
    const deck = board.decks.high_tide;
    return Object.keys(deck ? deck.cards : {}).map((card) => ({ kind: "steal", card }));
  }
  return [];
}

function chanceTitle(board, chance) {
  const event = chance.event;
  if (event.kind === "roll") {
    return gettext("Enter the roll of the die");
  }
  if (event.kind === "draw") {
    return gettext("Enter the card drawn from the {deck} deck", { deck: board.decks[event.deck] ? board.decks[event.deck].name : event.deck });
  }
  if (event.kind === "steal") {
    return gettext("Enter the card taken");
  }
  return gettext("Enter the outcome");
}

function refereeChoices({ page, conn, board, view, chance, actions, waiting }) {
  const parts = [];
  if (chance) {
    parts.push(h("h3", {}, chanceTitle(board, chance)));
    parts.push(h("div", { class: `choice-list outcomes outcomes-${chance.event.kind}` },
      chanceOutcomes(board, chance).map((action) => choiceButton(
        action.kind === "roll" ? String(action.face) : actionLabel(board, action), action,
        () => actions.outcome(action), waiting,
        action.kind === "roll" ? { "aria-label": actionLabel(board, action), class: "choice die-face" } : {}))));
    return parts;
  }
  const seat = page.seats.find((s) => s.seat === view.to_act);
  if (view.to_act >= 0 && seat && seat.kind === "open") {
    parts.push(h("h3", {}, gettext("Enter team {team}'s decision", { team: teamName(view.to_act) })));
    parts.push(...decisionButtons(board, view.legal_actions || [], (action) => actions.act(action, view.to_act), waiting));
    const shown = (view.revealed_hands || {})[String(view.to_act)];
    if (!shown && (view.hand_sizes || [])[view.to_act] > 0) {
      parts.push(h("p", { class: "hint" }, gettext("Cards are offered only when the team shows its hand.")));
    }
  } else if (view.to_act >= 0) {
    parts.push(h("p", {}, gettext("Waiting for team {team}.", { team: teamName(view.to_act) })));
  }
  parts.push(revealButtons({ page, conn, view, actions }));
  return parts;
}

function revealButtons({ page, view, actions }) {
  const revealed = view.revealed_hands || {};
  const open = page.seats.filter((s) => s.kind === "open");
  if (!open.length) {
    return null;
  }
  return h("div", { class: "reveal" }, open.map((seat) => {
    const shown = Boolean(revealed[String(seat.seat)]);
    return h("button", {
      type: "button", id: `reveal-${seat.seat}`, "aria-pressed": String(shown),
      onclick: () => (shown ? actions.hide(seat.seat) : actions.reveal(seat.seat)),
    }, shown ? gettext("Hide team {team}'s hand", { team: teamName(seat.seat) })
      : gettext("Show team {team}'s hand", { team: teamName(seat.seat) }));
  }));
}

function seatChoices({ page, conn, board, view, actions, waiting }) {
  const parts = [];
  const legal = view.legal_actions || [];
  if (page.lonePass) {
    parts.push(h("p", { class: "lone-pass", id: "lone-pass", role: "status" },
      gettext("No card of yours can be played now: you pass when the window closes.")));
  } else if (view.to_act === conn.seat && legal.length) {
    parts.push(h("h3", {}, gettext("Your choice")));
    parts.push(...decisionButtons(board, legal, (action) => actions.act(action, null), waiting));
  } else if (!view.terminal && page.status !== "open") {
    parts.push(h("p", {}, view.to_act === -1 ? gettext("Waiting for the draw.")
      : gettext("Waiting for team {team}.", { team: teamName(view.to_act) })));
  }
  if (!view.terminal) {
    parts.push(askAlwaysSetting(page, actions));
    parts.push(h("button", {
      type: "button", id: "reveal-own", "aria-pressed": String(page.revealed),
      onclick: () => (page.revealed ? actions.hide(null) : actions.reveal(null)),
    }, page.revealed ? gettext("Hide my hand from the shared screen") : gettext("Show my hand on the shared screen")));
  }
  return parts;
}

// The seat's "ask me even when I cannot play" setting: off, the server passes for the seat
// when "Pass" is all it may do, at the same moment as any other team's window would close.
function askAlwaysSetting(page, actions) {
  const input = h("input", {
    type: "checkbox", id: "ask-always", onchange: (event) => actions.setAskAlways(event.target.checked),
  });
  input.checked = page.askAlways;
  return h("div", { class: "auto-pass" },
    h("label", { class: "inline", for: "ask-always" }, input, gettext("Ask me even when I cannot play")),
    h("p", { class: "hint", id: "ask-always-why" },
      gettext("Otherwise the server passes for you when no card of yours can be played. Every team's window stays open as long, so no one learns from it what you hold.")));
}

export function choicesPanel(context) {
  const { conn, view } = context;
  let parts;
  if (conn.role === "referee") {
    parts = refereeChoices(context);
  } else if (conn.role === "seat") {
    parts = seatChoices(context);
  } else {
    parts = [h("p", {}, gettext("You are watching this game."))];
  }
  if (view.terminal) {
    parts = [h("p", { class: "winner" }, view.winner === null || view.winner === undefined
      ? gettext("No team wins.") : gettext("Team {team} wins!", { team: teamName(view.winner) })),
    context.rematch ? context.rematch.element : null];
  }
  return h("section", { class: "card choices", id: "choices", "aria-labelledby": "choices-title" },
    h("h2", { id: "choices-title" }, gettext("Choices")), parts);
}
