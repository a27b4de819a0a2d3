// What each card of the room's decks does, in the page's language, told from the card's own
// timing and effects as the board route sends them (the primitives of a deck file: the
// shipped decks and any deck given with `--data` alike).
//   cardText(board, card) -> the sentences, or "" for a card no deck of the room holds
import { N_, gettext } from "./i18n.js";

// When a high tide card is played (a low tide card acts when drawn: no sentence).
const TIMINGS = {
  before_roll: N_("Play it before the roll."),
  after_roll: N_("Play it after the roll."),
  after_lane: N_("Play it after the lane change."),
  after_walk: N_("Play it after your pawn has walked."),
  any: N_("Play it at any time of your turn."),
};

const TEAMS = {
  own: N_("a pawn of your team"),
  other: N_("a pawn of another team"),
  any: N_("a pawn of any team"),
};

// Which pawn a push or a fall may choose, as a phrase: "a pawn of another team, in the High
// tide lane, at most 6 squares from yours".
function targetPhrase(board, target = {}) {
  const team = TEAMS[target.team] || TEAMS.any;
  const parts = [gettext(team)];
  if (target.lane) {
    const lane = (board.lanes || []).find((l) => l.id === target.lane);
    parts.push(gettext("in the {lane} lane", { lane: lane ? lane.name : target.lane }));
  }
  if (target.within !== null && target.within !== undefined) {
    parts.push(gettext("at most {squares} squares from yours", { squares: target.within }));
  }
  if (target.next_to) parts.push(gettext("next to yours"));
  return parts.join(", ");
}

function effectText(board, effect) {
  switch (effect.primitive) {
    case "roll_modifier":
      return effect.amount >= 0
        ? gettext("The roll counts {amount} more.", { amount: effect.amount })
        : gettext("The roll counts {amount} less (at least {minimum}).", { amount: -effect.amount, minimum: effect.minimum ?? 1 });
    case "extra_die":
      return (effect.dice ?? 1) === 1
        ? gettext("Roll one die more this turn.")
        : gettext("Roll {dice} dice more this turn.", { dice: effect.dice });
    case "reroll": return gettext("Roll again and keep the roll you prefer.");
    case "free_lane_change": return gettext("Changing lanes costs nothing this turn.");
    case "skip_move": return gettext("Your pawn does not move this turn.");
    case "place_obstacle":
      return (effect.count ?? 1) === 1
        ? gettext("Put an obstacle on an empty square.")
        : gettext("Put {count} obstacles on empty squares.", { count: effect.count });
    case "move":
      return effect.tail_wind
        ? gettext("Your pawn walks {squares} squares forward now (the tail wind adds to it in the Outer lane).", { squares: effect.squares })
        : gettext("Your pawn walks {squares} squares forward now.", { squares: effect.squares });
    case "push":
      return effect.direction === "outward"
        ? gettext("Push {pawn} one lane outward.", { pawn: targetPhrase(board, effect.target) })
        : gettext("Push {pawn} one lane toward the pool.", { pawn: targetPhrase(board, effect.target) });
    case "fall": return gettext("Make {pawn} fall into the pool.", { pawn: targetPhrase(board, effect.target) });
    case "cancel_fall": return gettext("When one of your pawns would fall into the pool, it does not fall.");
    case "discard_card": return gettext("Another team of your choice discards one of its high tide cards.");
    case "steal_card": return gettext("Take one card at random from the hand of another team of your choice.");
    default: return "";
  }
}

/** What `card` does, in words: the effects of the first of the room's decks holding it,
 * then when it is played (a high tide card). */
export function cardText(board, card) {
  for (const spec of Object.values(board.decks || {})) {
    const found = spec.cards && spec.cards[card];
    if (!found) continue;
    const effects = found.effects || [];
    const sentences = effects.length
      ? effects.map((e) => effectText(board, e)).filter(Boolean)
      : [gettext("Nothing happens.")];
    const when = TIMINGS[found.timing];
    if (when) sentences.push(gettext(when));
    return sentences.join(" ");
  }
  return "";
}
