// The summary shown at the end of a game, from the `summary` of the final view
// (docs/protocol.md): a table of the places and of what each team or player did.
//
// API (stable):
//   bashSummary(summary, who)   a <section id="game-summary"> for Splash & Bash: place, team,
//                               bumps made and suffered, pool falls, cards played; the game's
//                               length in team turns. who(team): the team's name (node or text)
//   towerSummary(summary, who)  the same for Splash!: place, player, water drops, falls caused,
//                               pieces placed; the length in placements; the placement aid
//                               the pages gave. who(seat): a name
import { h } from "./dom.js";
import { gettext } from "./i18n.js";

function table(columns, rows) {
  return h("table", { class: "summary-table" },
    h("thead", {}, h("tr", {}, columns.map(([, title]) => h("th", { scope: "col" }, title)))),
    h("tbody", {}, rows.map((row) => h("tr", { "data-place": row.place },
      columns.map(([key], i) => h(i === 1 ? "th" : "td", i === 1 ? { scope: "row" } : { "data-key": key }, row[key]))))));
}

function section(title, length, columns, rows) {
  const sorted = [...rows].sort((a, b) => a.place - b.place);
  return h("section", { class: "card panel game-summary", id: "game-summary", "aria-labelledby": "game-summary-title" },
    h("h2", { id: "game-summary-title" }, title),
    h("div", { class: "summary-scroll" }, table(columns, sorted)),
    h("p", { class: "summary-length", id: "summary-length" }, length));
}

export function bashSummary(summary, who) {
  const columns = [
    ["place", gettext("Place")], ["name", gettext("Team")], ["bumps_made", gettext("Bumps made")],
    ["bumps_suffered", gettext("Bumps suffered")], ["falls", gettext("Pool falls")], ["cards_played", gettext("Cards played")],
  ];
  const rows = summary.teams.map((team) => ({ ...team, name: who(team.team) }));
  return section(gettext("Game summary"), gettext("Team turns in the game: {turns}", { turns: summary.turns }), columns, rows);
}

export function towerSummary(summary, who) {
  const columns = [
    ["place", gettext("Place")], ["name", gettext("Player")], ["drops", gettext("Water drops")],
    ["falls_caused", gettext("Falls caused")], ["pieces_placed", gettext("Pieces placed")],
  ];
  const rows = summary.players.map((player) => ({ ...player, name: who(player.seat) }));
  const aid = { region: gettext("where the piece may go"), odds: gettext("where it may go, and its odds") }[summary.placement_aid];
  const length = gettext("Placements in the game: {placements}", { placements: summary.placements });
  const shown = section(gettext("Game summary"), length, columns, rows);
  if (aid) {
    shown.append(h("p", { class: "summary-aid", id: "summary-aid" }, gettext("Placement aid: {aid}", { aid })));
  }
  return shown;
}
