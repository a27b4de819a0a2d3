// The games the server plays, as their declarations describe them (GET /api/games), asked
// once per page load: a module that imports this one runs once they are here. The pages
// name no game: they ask here for its name, seats, options, bot levels and pages.
//   games()                   every game, in the server's order
//   gameOf(id)                one game, or null for a game the server does not list
//   gameName(id)              its name in the page's language (the id when unknown)
//   pageOf(id)                the page that plays it ("bash.html"), or null: none of its own
//   replayOf(id)              the module that draws its replays, or null
//   pageUrl(id, query)        "/static/<page>?<query>", or null when the game has no page
//   noPage()                  "no page for this game", in the page's language
//   seatName(id, seat)        "Team A", "Player 1" (the page's language)
//   seatShort(id, seat)       "A", "1"
//   seatCount(id)             the label of the number of seats ("Teams", "Players")
//   botLevels(id)             [{spec, name}], easiest first
//   levelName(spec)           the name of a bot level, or the spec when no game offers it
// Labels come as msgids and are translated here, so a switch of language needs no new fetch.
import { gettext } from "./i18n.js";

async function fetchGames() {
  try {
    const response = await fetch("/api/games");
    return response.ok ? await response.json() : [];
  } catch (_) {
    return [];
  }
}

const GAMES = await fetchGames();

export function games() {
  return GAMES;
}

export function gameOf(id) {
  return GAMES.find((game) => game.id === id) || null;
}

export function gameName(id) {
  const game = gameOf(id);
  return game ? gettext(game.name) : String(id);
}

export function pageOf(id) {
  const game = gameOf(id);
  return (game && game.page) || null;
}

export function replayOf(id) {
  const game = gameOf(id);
  return (game && game.replay) || null;
}

export function pageUrl(id, query) {
  const page = pageOf(id);
  return page ? `/static/${page}?${query}` : null;
}

export function noPage() {
  return gettext("no page for this game");
}

function naming(id) {
  const game = gameOf(id);
  return game ? game.seats.naming : null;
}

export function seatShort(id, seat) {
  const named = naming(id);
  return named && seat < named.names.length ? named.names[seat] : String(seat + 1);
}

export function seatName(id, seat) {
  const named = naming(id);
  if (!named) {
    return String(seat + 1);
  }
  return gettext(named.label, { [named.placeholder]: seatShort(id, seat) });
}

export function seatCount(id) {
  const named = naming(id);
  return named ? gettext(named.count_msgid) : gettext("Seats");
}

export function botLevels(id) {
  const game = gameOf(id);
  return game ? game.levels.map((level) => ({ spec: level.spec, name: gettext(level.msgid) })) : [];
}

/** A bot's spec as a tooltip says it: the strategy, named as the server knows it. */
export function specTitle(spec) {
  return gettext("bot strategy: {spec}", { spec });
}

export function levelName(spec) {
  for (const game of GAMES) {
    const found = game.levels.find((level) => level.spec === spec);
    if (found) {
      return gettext(found.msgid);
    }
  }
  return spec;
}
