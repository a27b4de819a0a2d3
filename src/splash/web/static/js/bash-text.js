// Splash & Bash words: action labels, what is being decided, sentences for events and moves
// (and which events a view adds to the one before).
// `board` is the room's course and names (GET /api/rooms/{room}/board, in the page language):
// card, deck and lane names always come from it, so they are the server's translations.
import { N_, gettext } from "./i18n.js";

export const TEAMS = "ABCD";
const PIECE_LABELS = ["1", "2", "3", "H"];
const HELMSMAN = 3;

const seatNames = new Map();

/** Remember the names people gave the room's seats (`seats`: the room's or a `seats`
 * message's), so that every sentence naming a team names its person too. */
export function setSeatNames(seats) {
  seatNames.clear();
  for (const seat of seats || []) {
    if (seat.kind === "human" && seat.name) {
      seatNames.set(seat.seat, seat.name);
    }
  }
}

/** A team's letter: A, B, C, D. */
export function teamLetter(team) {
  return TEAMS[team] || String(team);
}

/** A team as sentences name it: its letter, and its person's name when they gave one. */
export function teamName(team) {
  const name = seatNames.get(team);
  return name ? gettext("{team} ({name})", { team: teamLetter(team), name }) : teamLetter(team);
}

export function pieceName(team, index) {
  return teamLetter(team) + PIECE_LABELS[index];
}

export function laneName(board, lane) {
  const found = typeof lane === "number" ? board.lanes[lane] : board.lanes.find((l) => l.id === lane);
  return found ? found.name : String(lane);
}

export function deckName(board, deck) {
  return board.decks[deck] ? board.decks[deck].name : String(deck);
}

export function cardName(board, card) {
  for (const deck of Object.values(board.decks)) {
    if (deck.cards[card]) {
      return deck.cards[card].name;
    }
  }
  return String(card);
}

export function laneIndex(board, lane) {
  return typeof lane === "number" ? lane : board.lanes.findIndex((l) => l.id === lane);
}

export function where(board, lane, s) {
  const index = laneIndex(board, lane);
  const length = board.lanes[index].length;
  if (s === 0) {
    return gettext("the start line ({lane})", { lane: laneName(board, index) });
  }
  return gettext("{lane} {square} (lap {lap})", {
    lane: laneName(board, index), square: s % length, lap: Math.floor(s / length) + 1,
  });
}

export function actionLabel(board, action) {
  switch (action.kind) {
    case "start_lane": return gettext("Start in the {lane} lane", { lane: laneName(board, action.lane) });
    case "change_lane": return gettext("Change to the {lane} lane", { lane: laneName(board, action.lane) });
    case "stay": return gettext("Stay in this lane");
    case "pass": return gettext("Pass");
    case "play": return action.card ? gettext("Play {card}", { card: cardName(board, action.card) }) : gettext("Play a card");
    case "discard": return action.card ? gettext("Discard {card}", { card: cardName(board, action.card) }) : gettext("Discard a card");
    case "obstacle": return gettext("Obstacle on {lane} {square}", { lane: laneName(board, action.lane), square: action.square });
    case "target": return gettext("Choose {piece}", { piece: pieceName(action.team, action.piece) });
    case "victim": return gettext("Choose team {team}", { team: teamName(action.team) });
    case "keep": return action.roll === "first" ? gettext("Keep the first roll") : gettext("Keep the second roll");
    case "roll": return gettext("Roll {face}", { face: action.face });
    case "draw": return action.card
      ? gettext("{card} drawn from the {deck} deck", { card: cardName(board, action.card), deck: deckName(board, action.deck) })
      : gettext("A card drawn from the {deck} deck", { deck: deckName(board, action.deck) });
    case "steal": return action.card ? gettext("Take {card}", { card: cardName(board, action.card) }) : gettext("Take a card");
    default: return JSON.stringify(action);
  }
}

const WINDOWS = {
  before_roll: N_("before the roll"),
  after_roll: N_("after the roll"),
  after_lane: N_("after the lane change"),
  after_walk: N_("after the walk"),
};

export function decision(board, view) {
  if (view.terminal) {
    return view.winner === null || view.winner === undefined
      ? gettext("Game over: the turn cap is reached, no team wins.")
      : gettext("Game over: team {team} wins!", { team: teamName(view.winner) });
  }
  const aw = view.awaiting || {};
  const team = teamName(aw.team !== undefined ? aw.team : view.team);
  switch (aw.kind) {
    case "start_lane":
      return aw.purpose === "helmsman"
        ? gettext("Team {team} chooses the lane where its helmsman enters.", { team })
        : gettext("Team {team} chooses the starting lane of {piece}.", { team, piece: view.active });
    case "lane": return gettext("Team {team} changes lane or stays.", { team });
    case "window": return gettext("Team {team} may play a card {moment}, or pass.", { team, moment: gettext(WINDOWS[aw.window] || aw.window) });
    case "roll": return aw.dice > 1 ? gettext("The dice are rolled ({dice} left).", { dice: aw.dice }) : gettext("The die is rolled.");
    case "draw": return gettext("A card is drawn from the {deck} deck.", { deck: deckName(board, aw.deck) });
    case "discard": return gettext("Team {team} discards a card (hand limit).", { team });
    case "keep": return gettext("Team {team} keeps one of the two rolls.", { team });
    case "target": return gettext("Team {team} chooses a piece.", { team });
    case "victim": return gettext("Team {team} chooses a team to take a card from.", { team });
    case "obstacle": return gettext("Team {team} puts an obstacle on a square.", { team });
    case "steal": return gettext("A card is taken from another team's hand.");
    case "reaction":
      return aw.question === "discard"
        ? gettext("Team {team} discards a card (hand limit).", { team })
        : gettext("Team {team} may save its pawn with a card, or let it fall.", { team });
    default: return "";
  }
}

const SENTENCES = {
  roll: N_("The die shows {face}."),
  play: N_("Team {team} plays {card}."),
  discard: N_("Team {team} discards {card}."),
  slip: N_("{piece} slips on the obstacle at {where}."),
  fall: N_("{piece} falls into the pool at {where}!"),
  restart: N_("{piece} restarts from {where}."),
  saved: N_("{piece} is saved by {card} and stays at {where}."),
  chain_undone: N_("The chain of bumps is undone: everything goes back to where it was before it."),
  finish: N_("{piece} crosses the finish line!"),
  obstacle: N_("An obstacle is put on {lane} {square}."),
  obstacle_lost: N_("No square is free: the obstacle is lost."),
  enter: N_("{piece} enters the course in the {lane} lane."),
  reshuffle: N_("The {deck} deck is made again from its discards."),
  no_card: N_("The {deck} deck is empty: no card is drawn."),
  turn_cap: N_("The turn cap is reached after {turns} team turns: the game ends with no winner."),
};
const DIRECTIONS = {
  forward: N_("{piece} bumps into {target} at {where}: {target} is pushed forward."),
  backward: N_("{piece} bumps into {target} at {where}: {target} is pushed backward."),
  inward: N_("{piece} bumps into {target} at {where}: {target} is pushed toward the pool."),
  outward: N_("{piece} bumps into {target} at {where}: {target} is pushed outward."),
};

export function eventSentence(board, event) {
  const params = {};
  for (const [key, value] of Object.entries(event)) {
    if (key === "card") {
      params.card = cardName(board, value);
    } else if (key === "deck") {
      params.deck = deckName(board, value);
    } else if (key === "lane") {
      params.lane = laneName(board, value);
    } else if (key === "team") {
      params.team = teamName(value);
    } else if (key === "from") {
      params.victim = teamName(value);
    } else {
      params[key] = value;
    }
  }
  if (typeof event.lane === "string" && typeof event.s === "number") {
    params.where = where(board, event.lane, event.s);
  }
  const hidden = !("card" in event);
  switch (event.event) {
    case "draw": return hidden
      ? gettext("Team {team} draws a card from the {deck} deck.", params)
      : gettext("Team {team} draws {card} from the {deck} deck.", params);
    case "steal": return hidden
      ? gettext("Team {team} takes a card from team {victim}.", params)
      : gettext("Team {team} takes {card} from team {victim}.", params);
    case "bump": return gettext(DIRECTIONS[event.direction] || DIRECTIONS.forward, params);
    case "bounce": return event.squares === 1
      ? gettext("{piece} overshoots the finish line and walks back {squares} square.", params)
      : gettext("{piece} overshoots the finish line and walks back {squares} squares.", params);
    default:
      return SENTENCES[event.event] ? gettext(SENTENCES[event.event], params) : JSON.stringify(event);
  }
}

// The events of the view `after` that the view `before` did not list yet (a view lists the
// events of its turn; a new turn starts a new list).
export function newEvents(before, after) {
  const old = (before && before.events) || [];
  const now = after.events || [];
  const grown = old.length <= now.length && old.every((event, i) => JSON.stringify(event) === JSON.stringify(now[i]));
  return grown ? now.slice(old.length) : now;
}

export function movementSentences(board, before, after) {
  const sentences = [];
  after.pieces.forEach((pieces, team) => {
    pieces.forEach((piece, index) => {
      const old = before.pieces[team][index];
      if (piece.finished || piece.lane === null || (old.lane === piece.lane && old.s === piece.s)) {
        return;
      }
      const label = pieceName(team, index);
      if (old.lane === null) {
        if (index !== HELMSMAN) {
          sentences.push(gettext("{piece} takes its place on the start line in the {lane} lane.",
            { piece: label, lane: laneName(board, piece.lane) }));
        }
        return;
      }
      sentences.push(gettext("{piece} goes from {start} to {end}.", {
        piece: label, start: where(board, old.lane, old.s), end: where(board, piece.lane, piece.s),
      }));
    });
  });
  return sentences;
}

export function cardCount(count) {
  return count === 1 ? gettext("{count} card", { count }) : gettext("{count} cards", { count });
}

// The roll's modifiers: the low tide card of the turn (breeze or headwind) and the tail wind
// of the Outer lane, with its size (the room's `options.tail_wind`, from the board route).
export function rollModifiers(board, view) {
  const dice = view.dice || [];
  if (!dice.length) {
    return [];
  }
  const parts = [];
  const change = view.roll - dice.reduce((a, b) => a + b, 0);
  if (change > 0) {
    parts.push(gettext("breeze +{amount}", { amount: change }));
  } else if (change < 0) {
    parts.push(gettext("headwind −{amount}", { amount: -change }));
  }
  const pieces = (view.pieces || [])[view.team] || [];
  const index = pieces.findIndex((_, i) => pieceName(view.team, i) === view.active);
  const lane = index >= 0 && pieces[index].lane !== null ? board.lanes[pieces[index].lane] : null;
  const wind = board.tail_wind ?? 1;
  if (lane && lane.id === "outer" && view.roll > 0 && wind > 0) {
    parts.push(gettext("tail wind +{amount} in the {lane} lane", { amount: wind, lane: lane.name }));
  }
  return parts;
}
