"""The outcome of a placement as the rules read it (TD07, TD08, T11, T17, T18).

Whoever supplies it — the physics, or people at a real table — reports one of:

- ``stood``: ``tower`` is the whole tower after the piece settled, the placed piece included;
- ``fell``: ``tower`` lists every piece left on the table (standing ones with their support,
  fallen ones with none), ``stacks`` the standing stacks (each base first) and ``on_table``
  the pieces lying on the table;
- ``spontaneous``: the tower fell before the new piece touched it (T17);
- ``knocked``: someone (``knocker``) knocked the tower over during the turn (T18, referee
  mode); ``tower``, ``stacks`` and ``on_table`` as for ``fell``, without the given piece.

``details`` is the provider's own record (tremor, release pose, simulated time): kept with
the game so a replay needs no physics, never read by the rules.  What an outcome may say
of the position it follows is checked by :mod:`splash.games.tower.reports`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from splash.core.actions import Json
from splash.core.documents import Field, format_tag
from splash.core.errors import DocumentError
from splash.core.i18n import message
from splash.games.tower.records import record_json
from splash.games.tower.tower import TowerPiece

Result = Literal["stood", "fell", "spontaneous", "knocked"]
RESULTS: tuple[Result, ...] = ("stood", "fell", "spontaneous", "knocked")
OUTCOME_FORMAT = format_tag("tower-outcome", 1)


@dataclass(frozen=True)
class PlacementOutcome:
    """What happened to one placement."""

    result: Result
    tower: tuple[TowerPiece, ...] = ()
    stacks: tuple[tuple[str, ...], ...] = ()
    on_table: tuple[str, ...] = ()
    knocker: int | None = None
    details: Mapping[str, Json] = field(default_factory=dict)

    def to_json(self) -> dict[str, Json]:
        """A JSON-ready document (``splash/tower-outcome/1``)."""
        return {
            "format": OUTCOME_FORMAT,
            "result": self.result,
            "tower": [p.to_json() for p in self.tower],
            "stacks": [list(s) for s in self.stacks],
            "on_table": list(self.on_table),
            "knocker": self.knocker,
            "details": dict(self.details),
        }

    @staticmethod
    def parse(doc: object, path: str = "outcome") -> PlacementOutcome:
        """The outcome a document describes; :class:`DocumentError` naming the field
        (``outcome.tower[2].support``) and its value when it is not one."""
        root = Field(doc, path)
        root.as_object()
        tag = root.get("format", OUTCOME_FORMAT)
        if tag.value != OUTCOME_FORMAT:
            tag.fail(message("an outcome has format {format}", format=OUTCOME_FORMAT))
        found = root["result"].one_of(RESULTS)
        result = next(r for r in RESULTS if r == found)
        tower = tuple(TowerPiece.read(item) for item in root.get("tower", []).as_list())
        stacks = tuple(
            tuple(p.as_str() for p in stack.as_list()) for stack in root.get("stacks", []).as_list()
        )
        on_table = tuple(p.as_str() for p in root.get("on_table", []).as_list())
        knocker = root.get("knocker").optional_int()
        details = root.get("details", {})
        try:
            record = record_json(details.as_object())
        except RecursionError:
            raise DocumentError(
                message("{what} is nested too deeply", what=details.where), path=details.path
            ) from None
        return PlacementOutcome(result, tower, stacks, on_table, knocker, record)
