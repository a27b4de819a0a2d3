// The Splash & Bash part of the replay page: the pool after a step (bash-board.js), every
// team's hand (the game is over: nothing is hidden any more), and the step in words.
//   await createReplay(room) -> {title, who, stage, side, mounted, relabel, describe, show}
import { api } from "./client.js";
import { levelName } from "./games.js";
import { h } from "./dom.js";
import { bashSummary } from "./game-summary.js";
import { gettext } from "./i18n.js";
import { laneLegend, narrowScreen, poolSvg } from "./bash-board.js";
import { handsSection, offCourse, teamSwatch } from "./bash-panels.js";
import {
  actionLabel, cardCount, cardName, decision, eventSentence, movementSentences, newEvents, setSeatNames, teamName,
} from "./bash-text.js";

// The seat whose view names the cards of this step: the actor, or the team whose turn it is.
function witness(step, previous) {
  const actor = previous ? previous.to_act : -1;
  return actor >= 0 ? actor : step.views[0].team;
}

function hands(board, step, seats) {
  const rows = step.views.map((view, team) => {
    const hand = view.hand || [];
    const seat = seats.find((s) => s.seat === team);
    const who = seat && seat.kind === "bot" ? ` · ${gettext("bot {level}", { level: levelName(seat.bot) })}` : "";
    return h("li", { "data-team": team },
      teamSwatch(team),
      h("strong", {}, gettext("Team {team}", { team: teamName(team) })), who, " · ",
      cardCount(hand.length), hand.length ? `: ${hand.map((card) => cardName(board, card)).join(", ")}` : "");
  });
  return handsSection(board, step.views[0], rows, gettext("The game is over: every hand is shown."));
}

/** The Splash & Bash replay of `room` (a Room of the API). */
export async function createReplay(room) {
  const boardPath = `/api/rooms/${encodeURIComponent(room.id)}/board`;
  let board = await api(boardPath);
  const stage = h("section", { class: "board-area", id: "replay-stage" });
  const side = h("aside", { class: "side", id: "replay-side" });
  const seats = room.seats || [];
  setSeatNames(seats);
  return {
    stage,
    side,
    title: () => gettext("Splash & Bash"),
    who: (seat) => gettext("Team {team}", { team: teamName(seat) }),
    summary: (summary) => bashSummary(summary,
      (team) => [teamSwatch(team), " ", gettext("Team {team}", { team: teamName(team) })]),
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
      stage.replaceChildren(poolSvg(board, view, { compact: narrowScreen() }), offCourse(view), laneLegend(board));
      side.replaceChildren(hands(board, step, seats));
    },
  };
}
