"""The choices of a decision: readable texts, the forms a person may type, and matching.

A person answers a prompt with the number of a choice or a typed form such as
``lane centre``, ``play shove``, ``pass``, ``obstacle centre 12`` or ``target B2``; lane
and card names may be ids (``high_tide``) or readable names in English or in the current
language, in any case.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from splash.core.actions import Action
from splash.core.errors import SplashError
from splash.core.i18n import Message, message
from splash.games.bash import BashGame
from splash.games.bash.board import TEAM_LETTERS, piece_name
from splash.games.bash.config import LANES
from splash.games.bash.geometry import HELMSMAN
from splash.games.bash.names import name
from splash.games.bash.render import card_count, where

HAND_KINDS = frozenset({"window", "discard", "reaction"})
"""Decisions whose choices depend on a hand: a shared screen never takes them by itself."""

_MOMENTS = {
    "before_roll": message("before the roll"),
    "after_roll": message("after the roll"),
    "after_lane": message("after the lane change"),
    "after_walk": message("after the walk"),
}


class EntryError(SplashError):
    """Something typed at a prompt that names no accepted answer; nothing changes."""

    def __init__(self, entry: str, problem: Message) -> None:
        self.entry = entry
        self.problem = problem
        super().__init__(message("{entry!r}: {problem}", entry=entry, problem=problem))


@dataclass(frozen=True)
class Choice:
    """One legal action as a person sees it."""

    action: Action
    text: Message
    forms: frozenset[str]
    """Typed forms that name it, normalised (see :func:`normalise`)."""
    secret: bool = False
    """Whether it shows a card of the deciding team's hand."""


def normalise(text: str) -> str:
    """Lower case, ``_`` and ``-`` as spaces, single spaces: ``High_Tide`` → ``high tide``."""
    return " ".join(text.lower().replace("_", " ").replace("-", " ").split())


def aliases(identifier: str) -> set[str]:
    """The normalised names of a lane, deck or card id: the id and its readable names."""
    readable = name(identifier)
    return {normalise(identifier), normalise(readable.render()), normalise(readable.render("en"))}


def _forms(prefixes: Iterable[str], values: Iterable[str], *, bare: bool = True) -> frozenset[str]:
    found: set[str] = set()
    for value in values:
        if bare:
            found.add(value)
        found.update(f"{prefix} {value}" for prefix in prefixes)
    return frozenset(found)


def _piece(view: Mapping[str, Any], team: int, index: int) -> Mapping[str, Any]:
    piece: Mapping[str, Any] = view["pieces"][team][index]
    return piece


def _active(view: Mapping[str, Any]) -> tuple[int, int]:
    label = str(view["active"])
    return TEAM_LETTERS.index(label[0]), "123H".index(label[1])


def build_choices(view: Mapping[str, Any], legal: Sequence[Action], game: BashGame) -> list[Choice]:
    """The choices of the decision ``view``'s seat faces, one per legal action, in order."""
    return [_choice(view, action, game) for action in legal]


def _choice(view: Mapping[str, Any], action: Action, game: BashGame) -> Choice:
    p = dict(action.params)
    kind = action.kind
    course = game.course
    if kind in ("start_lane", "change_lane"):
        lane = str(p["lane"])
        forms = _forms(("lane", "start" if kind == "start_lane" else "change"), aliases(lane))
        if kind == "start_lane":
            return Choice(action, message("start in the {lane} lane", lane=name(lane)), forms)
        team, index = _active(view)
        current = _piece(view, team, index)["lane"]
        unit = 0 if view.get("free_lane") else game.settings.options.lane_change_cost
        cost = abs(LANES.index(lane) - int(current)) * unit
        text = message("change to the {lane} lane (costs {cost})", lane=name(lane), cost=cost)
        return Choice(action, text, forms)
    if kind == "stay":
        team, index = _active(view)
        lane = LANES[int(_piece(view, team, index)["lane"])]
        forms = frozenset({"stay", *_forms(("lane",), aliases(lane), bare=False)})
        return Choice(action, message("stay in the {lane} lane", lane=name(lane)), forms)
    if kind == "pass":
        return Choice(action, message("pass (play no card)"), frozenset({"pass", "no"}))
    if kind in ("play", "discard"):
        card = str(p["card"])
        if kind == "play":
            text = message("play {card}", card=name(card))
        else:
            text = message("discard {card}", card=name(card))
        return Choice(action, text, _forms((kind,), aliases(card)), secret=True)
    if kind == "obstacle":
        lane, square = str(p["lane"]), int(str(p["square"]))
        values = [f"{a} {square}" for a in aliases(lane)]
        text = message("{lane} {square}", lane=name(lane), square=square)
        return Choice(action, text, _forms(("obstacle",), values))
    if kind == "target":
        team, index = int(str(p["team"])), int(str(p["piece"]))
        label = piece_name(team, index)
        piece = _piece(view, team, index)
        text = message(
            "choose {piece} at {where}",
            piece=label,
            where=where(course, int(piece["lane"]), int(piece["s"])),
        )
        return Choice(action, text, _forms(("target", "choose"), [normalise(label)]))
    if kind == "victim":
        team = int(str(p["team"]))
        letter = TEAM_LETTERS[team]
        text = message(
            "choose team {team} ({count})", team=letter, count=card_count(view["hand_sizes"][team])
        )
        return Choice(action, text, _forms(("team", "victim", "choose"), [letter.lower()]))
    if kind == "keep":
        which = str(p["roll"])
        dice = view.get("dice") if which == "first" else view.get("rerolled")
        shown = " + ".join(str(d) for d in dice or [])
        if which == "first":
            text = message("keep the first roll ({dice})", dice=shown)
        else:
            text = message("keep the second roll ({dice})", dice=shown)
        return Choice(action, text, frozenset({f"keep {which}", which}))
    return Choice(action, game.action_text(action), frozenset({normalise(str(action))}))


def match_choice(entry: str, shown: Sequence[Choice], every: Sequence[Choice]) -> Choice:
    """The choice ``entry`` names: a number of the ``shown`` list, or a typed form of any.

    Raises :class:`EntryError` saying what is accepted when it names none, or more than one.
    """
    text = normalise(entry)
    if text.isdigit():
        number = int(text)
        if 1 <= number <= len(shown):
            return shown[number - 1]
        if not shown:
            raise EntryError(
                entry,
                message("the choices are hidden: type show to see them, or type your choice"),
            )
        raise EntryError(
            entry,
            message(
                "there is no choice {number}: type a number from 1 to {count}",
                number=number,
                count=len(shown),
            ),
        )
    found = [choice for choice in every if text in choice.forms]
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        raise EntryError(
            entry,
            message(
                "this names more than one choice ({choices}): be more precise or type a number",
                choices="; ".join(c.text.render() for c in found),
            ),
        )
    example = min(shown[0].forms, key=len) if shown else "pass"
    raise EntryError(
        entry,
        message(
            "this is not one of the choices: type its number, or a choice such as {example!r}",
            example=example,
        ),
    )


def decision_question(view: Mapping[str, Any], game: BashGame) -> Message:
    """What the seat that acts in ``view`` is asked."""
    awaiting: Mapping[str, Any] = view.get("awaiting") or {}
    kind = awaiting.get("kind")
    team = TEAM_LETTERS[int(awaiting.get("team", view["team"]))]
    piece = str(view["active"])
    if kind == "start_lane" and awaiting.get("purpose") == "setup":
        seat = TEAM_LETTERS.index(team)
        index = next(i for i, p in enumerate(view["pieces"][seat][:HELMSMAN]) if p["lane"] is None)
        return message(
            "Team {team}: choose the start lane of {piece}.",
            team=team,
            piece=piece_name(seat, index),
        )
    if kind == "start_lane":
        return message(
            "Team {team}: your helmsman {piece} enters the course; choose its lane.",
            team=team,
            piece=piece,
        )
    if kind == "window":
        moment = _MOMENTS.get(str(awaiting.get("window")), message("now"))
        return message(
            "Team {team}, {piece}: play a card {moment}?", team=team, piece=piece, moment=moment
        )
    if kind == "lane":
        active_team, index = _active(view)
        current = _piece(view, active_team, index)
        return message(
            "Team {team}, {piece} at {where}, roll {roll}: change lane before walking?",
            team=team,
            piece=piece,
            where=where(game.course, int(current["lane"]), int(current["s"])),
            roll=view["roll"],
        )
    if kind == "obstacle":
        return message(
            "Team {team}: put an obstacle on a free square (off the start line).", team=team
        )
    if kind == "target":
        return message("Team {team}: choose the piece your card acts on.", team=team)
    if kind == "victim":
        return message("Team {team}: choose the team your card acts on.", team=team)
    if kind == "keep":
        return message("Team {team}: keep which roll?", team=team)
    if kind == "discard":
        return message(
            "Team {team}: your hand is full; discard one of the cards you held before.", team=team
        )
    if kind == "reaction" and awaiting.get("question") == "lifebuoy":
        return message(
            "Team {team}: one of your pieces is about to fall into the pool; play a card to"
            " save it?",
            team=team,
        )
    if kind == "reaction":
        return message(
            "Team {team}: your piece is pushed against the outer edge; discard a card.", team=team
        )
    return message("Team {team}: your decision.", team=team)
