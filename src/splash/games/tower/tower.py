"""The tower as the rules see it: which piece rests on which, heights, free tops (TD04, T11).

Poses are carried along for whoever draws or simulates the tower; the rules use only the
support of each piece, its height above the table and whether its top is still free.

Every number a document gives is within reach of the table: a height lies in
(0, :data:`MAX_HEIGHT_MM`] (a piece measures 5 cm at most: 30 stacked pieces stand 1.5 m
high), a pose's centre lies above the table, at most :data:`MAX_HEIGHT_MM` high and at most
:data:`REACH_M` from its centre along x and along y, and its quaternion has length 1.  The
reach is that of the physics' endless table: a cylinder that falls rolls almost freely, at
most 5.5 m/s (a fall from 1.5 m) for at most the 3 s a ruling lasts; it was measured at
1.08 m in 486 simulated placements.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from splash.core.actions import Json
from splash.core.documents import Field
from splash.core.errors import DocumentError
from splash.core.i18n import message

TABLE = "table"
"""The target of a placement on the table."""
MAX_HEIGHT_MM = 2000.0
"""The greatest height of a piece above the table that a document may give."""
REACH_M = 20.0
"""How far from the table's centre (along x and along y, metres) a piece's pose may lie."""
QUATERNION_SLACK = 1e-3
"""How far from 1 the length of a pose's quaternion may be."""
POSE_KEYS = ("position", "quaternion")

Pose = Mapping[str, tuple[float, ...]]
"""A resting pose: ``position`` (x, y, z in metres) and ``quaternion`` (w, x, y, z)."""


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
    pose: Pose | None = None
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
    def from_json(doc: object) -> TowerPiece:
        """The inverse of :meth:`to_json`; :class:`DocumentError` naming the field."""
        return TowerPiece.read(Field.root(doc))

    @staticmethod
    def read(field: Field) -> TowerPiece:
        """The piece the document ``field`` holds; :class:`DocumentError` naming the piece,
        the path (``tower[3].support``) and the value when it is not one."""
        piece = field["piece"].as_str()
        try:
            pose = field.get("pose")
            return TowerPiece(
                piece=piece,
                support=field.get("support").optional_str(),
                face=field["face"].as_str(),
                height_mm=_height(field["height_mm"]),
                uncovered=field["uncovered"].as_bool(),
                order=field.get("order", 0).as_int(),
                pose=None if pose.is_null() else _pose(pose),
            )
        except DocumentError as error:
            raise DocumentError(
                message("{piece}: {problem}", piece=piece, problem=error.text),
                path=error.path,
                value=error.value,
            ) from None


def _height(field: Field) -> float:
    height = field.as_float()
    if not 0.0 < height <= MAX_HEIGHT_MM:
        field.fail(
            message(
                "a height of {height} mm is not within reach of the table (above 0, at most"
                " {limit} mm)",
                height=height,
                limit=MAX_HEIGHT_MM,
            )
        )
    return height


def _numbers(field: Field, count: int) -> tuple[float, ...]:
    items = field.as_list()
    if len(items) != count:
        field.fail(message("{count} numbers are expected here", count=count))
    return tuple(item.as_float() for item in items)


def _pose(field: Field) -> Pose:
    keys = sorted(key for key, _ in field.members())
    if keys != sorted(POSE_KEYS):
        field.fail(message("a pose has exactly a position and a quaternion"))
    x, y, z = _numbers(field["position"], 3)
    if max(abs(x), abs(y)) > REACH_M or not 0.0 < z <= MAX_HEIGHT_MM / 1000.0:
        field["position"].fail(
            message(
                "a position is within reach of the table: at most {reach} m from its centre"
                " across, above it and at most {height} m high",
                reach=REACH_M,
                height=MAX_HEIGHT_MM / 1000.0,
            )
        )
    quaternion = _numbers(field["quaternion"], 4)
    if abs(math.sqrt(sum(q * q for q in quaternion)) - 1.0) > QUATERNION_SLACK:
        field["quaternion"].fail(message("a quaternion has length 1"))
    return {"position": (x, y, z), "quaternion": quaternion}


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

    def to_json(self) -> list[dict[str, Json]]:
        """A JSON-ready list."""
        return [p.to_json() for p in self.pieces]

    @staticmethod
    def from_json(doc: object) -> Tower:
        """The inverse of :meth:`to_json`; :class:`DocumentError` naming the field."""
        return Tower.read(Field(doc, "tower"))

    @staticmethod
    def read(field: Field) -> Tower:
        """The tower the list ``field`` holds (its pieces base first)."""
        return Tower(tuple(TowerPiece.read(item) for item in field.as_list()))


def stack_height(pieces: Iterable[TowerPiece]) -> float:
    """The height of a stack: that of its highest point."""
    return max((p.height_mm for p in pieces), default=0.0)
