"""The outcome of a ruling, as plain data: a replay needs no physics."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, cast

from splash.core.documents import check_format, format_tag, require
from splash.core.errors import DocumentError
from splash.core.i18n import message
from splash.physics.placement import Placement, Tremor
from splash.physics.poses import PieceRest, Pose

Result = Literal["stood", "fell", "spontaneous"]
RESULTS: tuple[Result, ...] = ("stood", "fell", "spontaneous")
OUTCOME_KIND = "tower-ruling"
OUTCOME_FORMAT = format_tag(OUTCOME_KIND, 1)


@dataclass(frozen=True)
class RulingOutcome:
    """What happened to a placement (TD07, TD12).

    ``pieces`` holds the settled pose of every piece, the tower's first and the placed piece
    last; a standing piece keeps its face and support, a fallen one gets the face it lies
    nearest to and no support.  ``stacks`` are the standing stacks (each base first, in
    tower order); ``on_table`` the pieces that are in none (fallen, or lodged on a standing
    stack after moving).  ``release`` is the pose the piece was let go from (after tremor),
    ``simulated_s`` the simulated time, ``method`` the ruling's method and version (empty
    in documents written before outcomes named it).
    """

    result: Result
    placement: Placement
    tremor: Tremor
    release: Pose
    pieces: tuple[PieceRest, ...]
    stacks: tuple[tuple[str, ...], ...]
    on_table: tuple[str, ...]
    simulated_s: float
    method: str = ""
    margin_mm: float | None = None
    """The static margin of the executed pose (mm): how far the centre of mass of the
    placed piece, and of each piece under it with its load, lies inside its support region
    at the least (negative beyond the tipping edge); ``None`` where not measured, or where
    the placed piece has no support at all (its footprint misses its target's top)."""

    def tower(self) -> tuple[PieceRest, ...]:
        """The pieces of the standing stacks, in order: the tower to play on if it stood."""
        standing = {piece for stack in self.stacks for piece in stack}
        return tuple(rest for rest in self.pieces if rest.piece in standing)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready document (``splash/tower-ruling/1``)."""
        return {
            "format": OUTCOME_FORMAT,
            "result": self.result,
            "placement": self.placement.to_json(),
            "tremor": self.tremor.to_json(),
            "release": self.release.to_json(),
            "pieces": [rest.to_json() for rest in self.pieces],
            "stacks": [list(stack) for stack in self.stacks],
            "on_table": list(self.on_table),
            "simulated_s": self.simulated_s,
            "method": self.method,
            **({} if self.margin_mm is None else {"margin_mm": self.margin_mm}),
        }

    @staticmethod
    def from_json(doc: Mapping[str, Any]) -> RulingOutcome:
        """The inverse of :meth:`to_json`."""
        check_format(doc, OUTCOME_KIND)
        result = require(doc, "result", str)
        if result not in RESULTS:
            raise DocumentError(message("unknown result {result!r}", result=result), doc)
        stacks = require(doc, "stacks", list)
        return RulingOutcome(
            result=cast(Result, result),
            placement=Placement.from_json(require(doc, "placement", dict)),
            tremor=Tremor.from_json(require(doc, "tremor", dict)),
            release=Pose.from_json(require(doc, "release", dict)),
            pieces=tuple(PieceRest.from_json(p) for p in require(doc, "pieces", list)),
            stacks=tuple(tuple(str(p) for p in stack) for stack in stacks),
            on_table=tuple(str(p) for p in require(doc, "on_table", list)),
            simulated_s=float(require(doc, "simulated_s", (int, float))),
            method=str(doc.get("method", "")),
            margin_mm=_optional_number(doc, "margin_mm"),
        )


def _optional_number(doc: Mapping[str, Any], key: str) -> float | None:
    value = doc.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise DocumentError(message("{key} must be a number", key=key), doc)
    return float(value)
