"""The typed records of a Splash! state: its phase, the pose of a placement, its events.

They are JSON documents (the server, the environments and the pages read them by key), so
they are typed as :class:`~typing.TypedDict` s whose keys are those of the documents.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, TypedDict

from splash.core.actions import Json

Phase = Literal["draft", "deal", "give", "place", "result", "base", "keep", "over"]
"""Where a game stands: ``draft`` (a seat takes a piece), ``deal`` (chance: a random deal),
``give``, ``place``, ``result`` (chance: the placement's outcome), ``base`` (the new base
after a fall), ``keep`` (the pieces taken back), ``over``."""
PHASES: tuple[Phase, ...] = ("draft", "deal", "give", "place", "result", "base", "keep", "over")


class PlacementRecord(TypedDict, total=False):
    """The pose a placement chose (TD13): all four keys, or none for a placement by hand."""

    face: str
    rotation_deg: float
    x_mm: float
    y_mm: float


class PieceEvent(TypedDict):
    """Something ``seat`` did with ``piece``: took it in the draft or was dealt it
    (``take``), placed it and saw the tower stand or fall (``stood``, ``fell``,
    ``spontaneous``, ``knocked``), got it back (``returned``, T18), made it the new base
    (``base``, T11) or took it back (``keep``, T12)."""

    event: Literal["take", "stood", "fell", "spontaneous", "knocked", "returned", "base", "keep"]
    seat: int
    piece: str


GiveEvent = TypedDict(
    "GiveEvent", {"event": Literal["give"], "seat": int, "piece": str, "from": int}
)
"""The giver gave ``piece``, taken from the reserve of seat ``from`` (T07, T08)."""


class DropEvent(TypedDict):
    """``seat`` received a water drop and now holds ``drops`` (T10)."""

    event: Literal["drop"]
    seat: int
    drops: int


class BoxedEvent(TypedDict):
    """The pieces left on the table went to the box (T12)."""

    event: Literal["boxed"]
    pieces: list[str]


class WinEvent(TypedDict):
    """``seat`` won for ``team``, ``by`` its last piece or its drops (T14, T15)."""

    event: Literal["win"]
    seat: int
    team: int
    by: Literal["pieces", "drops"]


class TurnCapEvent(TypedDict):
    """The game stopped at ``options.turn_cap`` placements."""

    event: Literal["turn_cap"]


TowerEvent = PieceEvent | GiveEvent | DropEvent | BoxedEvent | WinEvent | TurnCapEvent
"""One thing that happened during the last action (``state.events``)."""


def as_json(value: object) -> Json:
    """``value``, a record made of JSON values, as a JSON value (checked, not cast)."""
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, list | tuple):
        return [as_json(item) for item in value]
    if isinstance(value, Mapping):
        return {str(key): as_json(item) for key, item in value.items()}
    raise TypeError(f"not a JSON value: {value!r}")


def record_json(record: Mapping[str, object]) -> dict[str, Json]:
    """A record (an event, a placement) as a JSON object."""
    return {str(key): as_json(item) for key, item in record.items()}
