// The parts of the Splash & Bash pages that the game page and the replay page both show.
//   offCourse(view)                         the pawns finished or not yet on the course
//   teamSwatch(team)                        a square in the team's colour
//   handsSection(board, view, rows, note?)  the hands panel: a team a row, then the decks
import { h } from "./dom.js";
import { gettext } from "./i18n.js";
import { TEAM_COLOURS } from "./bash-board.js";
import { deckName, pieceName } from "./bash-text.js";

export function offCourse(view) {
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

export function teamSwatch(team) {
  return h("span", { class: "swatch", style: `background:${TEAM_COLOURS[team % 4]}` });
}

// `rows`: the <li> of each team; `note`: a line under the title, or null.
export function handsSection(board, view, rows, note = null) {
  const decks = Object.entries(view.deck_sizes || {}).map(([deck, left]) => h("li", {},
    gettext("{deck} deck: {left} left, {discarded} discarded", {
      deck: deckName(board, deck), left,
      discarded: Object.values((view.discards || {})[deck] || {}).reduce((a, b) => a + b, 0),
    })));
  return h("section", { class: "card hands", "aria-labelledby": "hands-title" },
    h("h2", { id: "hands-title" }, gettext("Hands")),
    note === null ? null : h("p", { class: "hint" }, note),
    h("ul", { id: "hands" }, rows), h("ul", { class: "decks" }, decks));
}
