// The Splash & Bash part of the replay page: the pool after a step (bash-board.js), every
// team's hand (the game is over: nothing is hidden any more), and the step in words.
//   await createReplay(room) -> {title, stage, side, mounted, relabel, describe, show}
import { api } from "./client.js";
import { h } from "./dom.js";
import { gettext } from "./i18n.js";
import { TEAM_COLOURS, laneLegend, poolSvg } from "./bash-board.js";
import {
  actionLabel, cardCount, cardName, decision, deckName, eventSentence, movementSentences, pieceName, teamName,
} from "./bash-text.js";

function sameEvent(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

// The events of `after` that `before` did not have yet (a view lists its turn's events).
function newEvents(before, after) {
  const old = (before && before.events) || [];
  const now = after.events || [];
  const grown = old.length <= now.length && old.every((event, i) => sameEvent(event, now[i]));
  return grown ? now.slice(old.length) : now;
}

// The seat whose view names the cards of this step: the actor, or the team whose turn it is.
function witness(step, previous) {
  const actor = previous ? previous.to_act : -1;
  return actor >= 0 ? actor : step.views[0].team;
}

function hands(board, step, seats) {
  const rows = step.views.map((view, team) => {
    const hand = view.hand || [];
    const seat = seats.find((s) => s.seat === team);
    const who = seat && seat.kind === "bot" ? ` · ${gettext("bot {level}", { level: seat.bot })}` : "";
    return h("li", { "data-team": team },
      h("span", { class: "swatch", style: `background:${TEAM_COLOURS[team % 4]}` }),
      h("strong", {}, gettext("Team {team}", { team: teamName(team) })), who, " · ",
      cardCount(hand.length), hand.length ? `: ${hand.map((card) => cardName(board, card)).join(", ")}` : "");
  });
  const view = step.views[0];
  const decks = Object.entries(view.deck_sizes || {}).map(([deck, left]) => h("li", {},
    gettext("{deck} deck: {left} left, {discarded} discarded", {
      deck: deckName(board, deck), left,
      discarded: Object.values((view.discards || {})[deck] || {}).reduce((a, b) => a + b, 0),
    })));
  return h("section", { class: "card hands", "aria-labelledby": "hands-title" },
    h("h2", { id: "hands-title" }, gettext("Hands")),
    h("p", { class: "hint" }, gettext("The game is over: every hand is shown.")),
    h("ul", { id: "hands" }, rows), h("ul", { class: "decks" }, decks));
}

function offCourse(view) {
  const finished = [];
  const waiting = [];
  view.pieces.forEach((pieces, team) => pieces.forEach((piece, index) => {
    if (piece.finished) {
      finished.push(pieceName(team, index));
    } else if (piece.lane === null) {
      waiting.push(pieceName(team, index));
    }
  }));
  return h("p", { class: "off-course" },
    finished.length ? gettext("Finished: {pieces}", { pieces: finished.join(", ") }) : null,
    finished.length && waiting.length ? " · " : null,
    waiting.length ? gettext("Not on the course yet: {pieces}", { pieces: waiting.join(", ") }) : null);
}

/** The Splash & Bash replay of `room` (a Room of the API). */
export async function createReplay(room) {
  const boardPath = `/api/rooms/${encodeURIComponent(room.id)}/board`;
  let board = await api(boardPath);
  const stage = h("section", { class: "board-area", id: "replay-stage" });
  const side = h("aside", { class: "side", id: "replay-side" });
  const seats = room.seats || [];
  return {
    stage,
    side,
    title: () => gettext("Splash & Bash"),
    mounted: () => {},
    async relabel() {
      board = await api(boardPath);
    },
    describe(step, previous) {
      const view = step.views[0];
      if (!previous || !step.action) {
        return { action: gettext("The start: no action yet."), details: [], now: decision(board, view) };
      }
      const actor = previous.to_act;
      const label = actionLabel(board, step.action);
      const action = actor >= 0 ? gettext("Team {team}: {action}", { team: teamName(actor), action: label }) : label;
      const seen = witness(step, previous);
      const details = newEvents(previous.views[seen], step.views[seen]).map((event) => eventSentence(board, event));
      details.push(...movementSentences(board, previous.views[0], view));
      return { action, details, now: decision(board, view) };
    },
    show(step) {
      const view = step.views[0];
      stage.setAttribute("aria-label", gettext("The pool"));
      stage.replaceChildren(poolSvg(board, view), offCourse(view), laneLegend(board));
      side.replaceChildren(hands(board, step, seats));
    },
  };
}
