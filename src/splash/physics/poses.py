"""Recorded poses: where a piece lies, on which face, on which support.

Plain floats only, so that a recorded tower round-trips through JSON bit for bit.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from numpy.typing import ArrayLike

from splash.core.errors import DocumentError
from splash.core.i18n import message
from splash.games.tower.geometry import Transform, as_array

TABLE = "table"
"""The target id of a placement on the table."""


def _floats(values: object, count: int, what: str) -> tuple[float, ...]:
    if (
        not isinstance(values, Sequence)
        or isinstance(values, str)
        or len(values) != count
        or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)
    ):
        raise DocumentError(
            message("{what} must be a list of {count} numbers", what=what, count=count)
        )
    floats = tuple(float(v) for v in values)
    if not all(math.isfinite(v) for v in floats):
        raise DocumentError(message("{what} must be finite", what=what))
    return floats


@dataclass(frozen=True)
class Pose:
    """A body's position (metres, world frame) and orientation (quaternion ``w, x, y, z``)."""

    position: tuple[float, float, float]
    quaternion: tuple[float, float, float, float]

    @staticmethod
    def of(position: ArrayLike, quaternion: ArrayLike) -> Pose:
        """A pose from any sequences or arrays of numbers."""
        p = [float(v) for v in as_array(position)]
        q = [float(v) for v in as_array(quaternion)]
        return Pose((p[0], p[1], p[2]), (q[0], q[1], q[2], q[3]))

    @staticmethod
    def from_transform(transform: Transform) -> Pose:
        """The pose of a body whose frame is ``transform``."""
        return Pose.of(transform.translation, transform.quaternion())

    def transform(self) -> Transform:
        """The body's frame as a transform."""
        return Transform.from_pose(self.position, self.quaternion)

    def is_finite(self) -> bool:
        """Whether every number is finite."""
        return all(math.isfinite(v) for v in (*self.position, *self.quaternion))

    def to_json(self) -> dict[str, Any]:
        """``{"position": [...], "quaternion": [...]}``."""
        return {"position": list(self.position), "quaternion": list(self.quaternion)}

    @staticmethod
    def from_json(doc: Mapping[str, Any]) -> Pose:
        """The inverse of :meth:`to_json`."""
        p = _floats(doc.get("position"), 3, "position")
        q = _floats(doc.get("quaternion"), 4, "quaternion")
        return Pose((p[0], p[1], p[2]), (q[0], q[1], q[2], q[3]))


@dataclass(frozen=True)
class PieceRest:
    """A piece of the tower at rest: its ``face``, the piece it rests on (``support``;
    ``None`` for a piece on the table) and its pose."""

    piece: str
    face: str
    support: str | None
    pose: Pose

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "piece": self.piece,
            "face": self.face,
            "support": self.support,
            **self.pose.to_json(),
        }

    @staticmethod
    def from_json(doc: Mapping[str, Any]) -> PieceRest:
        """The inverse of :meth:`to_json`."""
        piece, face, support = doc.get("piece"), doc.get("face"), doc.get("support")
        if not isinstance(piece, str) or not isinstance(face, str):
            raise DocumentError(message("a piece needs a piece id and a face"), dict(doc))
        if support is not None and not isinstance(support, str):
            raise DocumentError(message("a support is a piece id or null"), dict(doc))
        return PieceRest(piece, face, support, Pose.from_json(doc))
