"""The tower as the rules see it: which piece rests on which, heights, free tops (TD04, T11).

Poses are carried along for whoever draws or simulates the tower; the rules use only the
support of each piece, its height above the table and whether its top is still free.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from splash.core.actions import Json

TABLE = "table"
"""The target of a placement on the table."""


@dataclass(frozen=True)
class TowerPiece:
    """A piece resting in the tower (or lying on the table after a fall)."""

    piece: str
    support: str | None
    """The piece it rests on; ``None`` on the table."""
    face: str
    height_mm: float
    """The height of its highest point above the table."""
    uncovered: bool
    """Whether another piece could still rest on it without touching anything else (TD04)."""
    order: int
    """When it was placed: a later piece counts as higher at equal heights (TD04)."""
    pose: Mapping[str, Any] | None = None
    """Its recorded resting pose (``position``, ``quaternion``), when known."""

    def to_json(self) -> dict[str, Json]:
        """A JSON-ready dict."""
        doc: dict[str, Json] = {
            "piece": self.piece,
            "support": self.support,
            "face": self.face,
            "height_mm": self.height_mm,
            "uncovered": self.uncovered,
            "order": self.order,
        }
        if self.pose is not None:
            doc["pose"] = {k: list(v) for k, v in self.pose.items()}
        return doc

    @staticmethod
    def from_json(doc: Mapping[str, Any]) -> TowerPiece:
        """The inverse of :meth:`to_json`."""
        pose = doc.get("pose")
        return TowerPiece(
            piece=str(doc["piece"]),
            support=None if doc.get("support") is None else str(doc["support"]),
            face=str(doc["face"]),
            height_mm=float(doc["height_mm"]),
            uncovered=bool(doc["uncovered"]),
            order=int(doc.get("order", 0)),
            pose=None if pose is None else {k: tuple(float(x) for x in v) for k, v in pose.items()},
        )


def higher(a: TowerPiece, b: TowerPiece, tolerance_mm: float) -> bool:
    """Whether ``a`` counts as higher than ``b``: heights within the tolerance count as
    equal, and then the piece placed later is higher (TD04)."""
    if abs(a.height_mm - b.height_mm) <= tolerance_mm:
        return a.order > b.order
    return a.height_mm > b.height_mm


def highest(pieces: Iterable[TowerPiece], tolerance_mm: float) -> TowerPiece | None:
    """The highest of ``pieces`` (``None`` for none)."""
    best: TowerPiece | None = None
    for piece in pieces:
        if best is None or higher(piece, best, tolerance_mm):
            best = piece
    return best


@dataclass(frozen=True)
class Tower:
    """The pieces standing on the table, base first."""

    pieces: tuple[TowerPiece, ...] = ()

    def __len__(self) -> int:
        return len(self.pieces)

    def __contains__(self, piece: object) -> bool:
        return any(p.piece == piece for p in self.pieces)

    def get(self, piece: str) -> TowerPiece:
        """The tower piece ``piece``."""
        for p in self.pieces:
            if p.piece == piece:
                return p
        raise KeyError(piece)

    def ids(self) -> tuple[str, ...]:
        """The piece ids, base first."""
        return tuple(p.piece for p in self.pieces)

    def uncovered(self) -> list[TowerPiece]:
        """The pieces another piece may rest on."""
        return [p for p in self.pieces if p.uncovered]

    def top(self, tolerance_mm: float) -> TowerPiece | None:
        """The top piece: the highest uncovered one (TD04)."""
        return highest(self.uncovered(), tolerance_mm)

    def next_order(self) -> int:
        """The order the next placed piece gets."""
        return max((p.order for p in self.pieces), default=-1) + 1

    def with_piece(self, piece: TowerPiece) -> Tower:
        """The tower with ``piece`` added (or replaced)."""
        kept = tuple(p for p in self.pieces if p.piece != piece.piece)
        return Tower((*kept, piece))

    def covering(self, piece: str, uncovered: bool) -> Tower:
        """The tower with ``piece``'s free top set to ``uncovered``."""
        return Tower(
            tuple(replace(p, uncovered=uncovered) if p.piece == piece else p for p in self.pieces)
        )

    def to_json(self) -> list[Json]:
        """A JSON-ready list."""
        return [p.to_json() for p in self.pieces]

    @staticmethod
    def from_json(doc: Iterable[Mapping[str, Any]]) -> Tower:
        """The inverse of :meth:`to_json`."""
        return Tower(tuple(TowerPiece.from_json(p) for p in doc))


def stack_height(pieces: Iterable[TowerPiece]) -> float:
    """The height of a stack: that of its highest point."""
    return max((p.height_mm for p in pieces), default=0.0)
