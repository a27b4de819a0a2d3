"""What a Splash & Bash action made happen, as the state, the views and the logs tell it.

Every event is a JSON object whose ``event`` names its kind; the other keys depend on the
kind (a ``bump`` has ``piece``, ``lane``, ``s``, ``target`` and ``direction``; a ``draw`` has
``team``, ``deck`` and ``card``).  :data:`BashEvent` types them all; the pages, the
environments and outside scripts read the same keys.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, Required, TypedDict, cast

from splash.core.actions import Json
from splash.core.documents import Field
from splash.core.i18n import message
from splash.games.bash.config import HAND_DECK

EventKind = Literal[
    "reshuffle",
    "no_card",
    "draw",
    "play",
    "roll",
    "enter",
    "obstacle",
    "obstacle_lost",
    "steal",
    "discard",
    "turn_cap",
    "bump",
    "chain_undone",
    "slip",
    "fall",
    "restart",
    "saved",
    "finish",
    "bounce",
]
EVENT_KINDS: tuple[EventKind, ...] = (
    "reshuffle",
    "no_card",
    "draw",
    "play",
    "roll",
    "enter",
    "obstacle",
    "obstacle_lost",
    "steal",
    "discard",
    "turn_cap",
    "bump",
    "chain_undone",
    "slip",
    "fall",
    "restart",
    "saved",
    "finish",
    "bounce",
)

BashEvent = TypedDict(
    "BashEvent",
    {
        "event": Required[EventKind],
        "piece": str,
        "lane": str,
        "s": int,
        "square": int,
        "squares": int,
        "team": int,
        "from": int,
        "deck": str,
        "card": str,
        "face": int,
        "target": str,
        "direction": str,
        "turns": int,
    },
    total=False,
)
"""One event; which keys it has depends on its kind."""

_INTEGERS = ("s", "square", "squares", "team", "from", "face", "turns")
_STRINGS = ("piece", "lane", "deck", "card", "target", "direction")


def card_hidden_from(event: Mapping[str, object], seat: int | None) -> bool:
    """Whether ``seat`` (``None``: a public screen) may not see the card ``event`` names:
    another team's high tide draw, or a card taken between two other teams (BD12)."""
    kind = event.get("event")
    if kind == "draw":
        return event.get("deck") == HAND_DECK and event.get("team") != seat
    if kind == "steal":
        return seat not in (event.get("team"), event.get("from"))
    return False


def visible_event(event: BashEvent, seat: int | None) -> BashEvent:
    """``event`` as ``seat`` may see it: without the card it may not see."""
    if not card_hidden_from(event, seat):
        return event
    shown = event.copy()
    shown.pop("card", None)
    return shown


def event_json(event: BashEvent) -> dict[str, Json]:
    """``event`` as a JSON document (the same keys)."""
    return cast(dict[str, Json], dict(event))


def event_from_json(doc: Field) -> BashEvent:
    """The event a JSON document describes; :class:`~splash.core.errors.DocumentError` for an
    unknown kind or key, or a value of the wrong type."""
    event: BashEvent = {"event": doc["event"].one_of(EVENT_KINDS)}
    values = cast(dict[str, object], event)
    for key, value in doc.members():
        if key in _INTEGERS:
            values[key] = value.as_int()
        elif key in _STRINGS:
            values[key] = value.as_str()
        elif key != "event":
            value.fail(message("an event has no key {key!r}", key=key))
    return event
