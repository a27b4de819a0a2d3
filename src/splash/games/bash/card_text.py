"""What a card does, in words, told from its timing and effects (the primitives of a deck
file), so that a deck given with ``--data`` reads as truly as the shipped ones.

The sentences are those of the web page's cards (``web/static/js/bash-cards.js``): the
same messages, so one translation serves both.
"""

from __future__ import annotations

from splash.core.i18n import N_, Message, message
from splash.games.bash.config import (
    CancelFall,
    CardSpec,
    DiscardCard,
    Effect,
    ExtraDie,
    Fall,
    FreeLaneChange,
    Move,
    PawnTarget,
    PlaceObstacle,
    Push,
    Reroll,
    RollModifier,
    SkipMove,
    StealCard,
)
from splash.games.bash.names import name

TIMINGS: dict[str, str] = {
    "on_draw": N_("Applied at once when drawn."),
    "before_roll": N_("Play it before the roll."),
    "after_roll": N_("Play it after the roll."),
    "after_lane": N_("Play it after the lane change."),
    "after_walk": N_("Play it after your pawn has walked."),
    "any": N_("Play it at any time of your turn."),
}
"""When a card is played, by its timing (an ``on_fall`` card's effect says it)."""

_TEAMS = {
    "own": N_("a pawn of your team"),
    "other": N_("a pawn of another team"),
    "any": N_("a pawn of any team"),
}


def target_phrase(target: PawnTarget) -> Message:
    """Which pawn a push or a fall may choose: "a pawn of another team, in the High tide
    lane, at most 6 squares from yours"."""
    parts: list[Message] = [Message(_TEAMS[target.team])]
    if target.lane is not None:
        parts.append(message("in the {lane} lane", lane=name(target.lane)))
    if target.within is not None:
        parts.append(message("at most {squares} squares from yours", squares=target.within))
    if target.next_to:
        parts.append(message("next to yours"))
    return joined(parts, ", ")


def effect_text(effect: Effect) -> Message:
    """One effect as a sentence."""
    match effect:
        case RollModifier(amount=amount, minimum=minimum):
            if amount >= 0:
                return message("The roll counts {amount} more.", amount=amount)
            return message(
                "The roll counts {amount} less (at least {minimum}).",
                amount=-amount,
                minimum=minimum,
            )
        case ExtraDie(dice=dice):
            if dice == 1:
                return message("Roll one die more this turn.")
            return message("Roll {dice} dice more this turn.", dice=dice)
        case Reroll():
            return message("Roll again and keep the roll you prefer.")
        case FreeLaneChange():
            return message("Changing lanes costs nothing this turn.")
        case SkipMove():
            return message("Your pawn does not move this turn.")
        case PlaceObstacle(count=count):
            if count == 1:
                return message("Put an obstacle on an empty square.")
            return message("Put {count} obstacles on empty squares.", count=count)
        case Move(squares=squares, tail_wind=tail_wind):
            if tail_wind:
                return message(
                    "Your pawn walks {squares} squares forward now (the tail wind adds to it"
                    " in the Outer lane).",
                    squares=squares,
                )
            return message("Your pawn walks {squares} squares forward now.", squares=squares)
        case Push(direction=direction, target=target):
            if direction == "outward":
                return message("Push {pawn} one lane outward.", pawn=target_phrase(target))
            return message("Push {pawn} one lane toward the pool.", pawn=target_phrase(target))
        case Fall(target=target):
            return message("Make {pawn} fall into the pool.", pawn=target_phrase(target))
        case CancelFall():
            return message("When one of your pawns would fall into the pool, it does not fall.")
        case DiscardCard():
            return message("Another team of your choice discards one of its high tide cards.")
        case StealCard():
            return message("Take one card at random from the hand of another team of your choice.")
    raise TypeError(f"not a card effect: {effect!r}")  # pragma: no cover - the union is closed


def card_sentences(card: CardSpec) -> list[Message]:
    """What ``card`` does, one sentence per effect ("Nothing happens." for none), then when
    it is played."""
    sentences = [effect_text(effect) for effect in card.effects] or [message("Nothing happens.")]
    when = TIMINGS.get(card.timing)
    if when is not None:
        sentences.append(Message(when))
    return sentences


def joined(parts: list[Message], separator: str) -> Message:
    """One message of ``parts`` put side by side with ``separator``, each rendered in the
    locale of the whole."""
    fields = {f"p{i}": part for i, part in enumerate(parts)}
    return Message(separator.join("{" + key + "}" for key in fields), fields)
