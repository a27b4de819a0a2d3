"""The placement grid of Splash!: the continuous ``place`` action (TD13) on a fixed grid.

A cell is a (face slot, turn, offset) triple:

- face slot ``f``: the ``f``-th resting face of the gift in catalogue order (a slot beyond
  the gift's faces is never legal);
- turn ``r``: ``r * 22.5`` degrees about the vertical, ``r`` from 0 to 7: a half turn, since
  every shape but the prism is the same turned by 180 degrees, and the prism's triangle is
  the same turned by 120;
- offset ``(i, j)`` with ``i, j`` in -1, 0, 1: the point ``centre + (i·½·hx, j·½·hy)``
  millimetres in the target's resting frame, where ``centre`` and ``(hx, hy)`` are the centre
  and half extents of the bounding box of the target's top surfaces (of its whole outline
  when it has no flat top: a ridge, a lying cylinder); on the table, ``centre = (0, 0)``
  and ``hx = hy = 25`` mm.

A cell whose pose the game refuses (T06: it would touch another piece) is illegal.  When no
cell is legal, one *fallback* index stands for the first accepted of: the pose the game's
geometric fit found (:meth:`GeometricFit.pose_for`), the game's own centred placement (no
pose: on the first face, raised by the game when the placement is forced), the first pose
of a finer grid (every face, 15 degree turns, 7 x 7 offsets); when none is accepted either,
the centred placement (which the game will refuse).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from splash.core.actions import Action, Json
from splash.games.tower import rules
from splash.games.tower.catalogue import Catalogue
from splash.games.tower.game import TowerGame
from splash.games.tower.geometry import as_array
from splash.games.tower.state import TowerState
from splash.games.tower.tops import GeometricFit
from splash.games.tower.tower import TowerPiece

TURNS = 8
"""Turns of the grid: multiples of :data:`TURN_STEP_DEG` over a half turn."""
TURN_STEP_DEG = 22.5
OFFSETS = 3
"""Offsets per axis: -½, 0, +½ of the half extent of the target's top."""
OFFSET_FRACTION = 0.5
TABLE_HALF_EXTENT_MM = 25.0
FINE_TURNS = tuple(range(0, 360, 15))
FINE_OFFSETS = (-0.75, -0.5, -0.25, 0.0, 0.25, 0.5, 0.75)

Pose = dict[str, Json]
"""A placement document: ``kind``, ``face``, ``rotation_deg``, ``x_mm``, ``y_mm``."""


def turn_deg(step: float) -> float:
    """``step`` degrees written in (-180, 180]."""
    value = math.fmod(step, 360.0)
    if value > 180.0:
        value -= 360.0
    elif value <= -180.0:
        value += 360.0
    return value


def target_box(
    catalogue: Catalogue, target: TowerPiece | None
) -> tuple[float, float, float, float]:
    """``(cx, cy, hx, hy)`` in millimetres: the centre and half extents of the target's top."""
    if target is None:
        return 0.0, 0.0, TABLE_HALF_EXTENT_MM, TABLE_HALF_EXTENT_MM
    shape = catalogue.shape_of(target.piece)
    resting = shape.resting(target.face)
    tops = [as_array(t).reshape(-1, 2) for t in resting.top_surfaces]
    points = (
        np.concatenate(tops) if tops else resting.transform.apply(shape.points())[:, :2]
    ) * 1000.0
    low, high = points.min(axis=0), points.max(axis=0)
    centre, half = (low + high) / 2, (high - low) / 2
    return float(centre[0]), float(centre[1]), float(half[0]), float(half[1])


def pose(face: str, turn: float, x_mm: float, y_mm: float) -> Pose:
    """A placement document, its numbers rounded to a thousandth."""
    return {
        "kind": "place",
        "face": face,
        "rotation_deg": round(turn_deg(turn), 3),
        "x_mm": round(x_mm, 3),
        "y_mm": round(y_mm, 3),
    }


Accept = Callable[[TowerState, tuple[Pose | None, ...]], np.ndarray]
"""Which of some poses the game accepts in a state: one flag per pose (``None`` never)."""


def one_by_one(state: TowerState, poses: tuple[Pose | None, ...]) -> np.ndarray:
    """Which of ``poses`` the game accepts now (``None`` never): what ``state.why_illegal``
    says of each, one at a time.  The AI interfaces check them all at once where the physics
    rules the game (:func:`splash.envs.tower_grid.accepted`): the same flags, sooner."""
    return np.array([p is not None and state.why_illegal(p) is None for p in poses])


@dataclass(frozen=True)
class PlaceChoices:
    """The grid's poses in one position, which of them the game accepts, and the fallback."""

    poses: tuple[Pose | None, ...]
    legal: np.ndarray
    fallback: Pose | None
    """The fallback's placement when no cell is legal (``None`` otherwise)."""


class PlacementGrid:
    """The cells of the placement grid of one catalogue, and their poses in a position;
    ``accept`` tells which of them the game accepts (:data:`Accept`)."""

    def __init__(self, game: TowerGame, accept: Accept = one_by_one) -> None:
        self.game = game
        self.accept = accept
        """How the cells' poses are checked (:func:`one_by_one` unless given)."""
        self.catalogue = game.catalogue
        self.face_slots = max(len(shape.faces) for shape in self.catalogue.shapes.values())
        self.size = self.face_slots * TURNS * OFFSETS * OFFSETS
        self._memo: tuple[str, PlaceChoices] | None = None

    def cell(self, face_slot: int, turn: int, i: int, j: int) -> int:
        """The cell of face slot ``face_slot``, turn ``turn * 22.5`` degrees and offset ``(i, j)``
        (each of ``i``, ``j`` in -1, 0, 1)."""
        return ((face_slot * TURNS + turn) * OFFSETS + i + 1) * OFFSETS + j + 1

    def unpack(self, cell: int) -> tuple[int, int, int, int]:
        """``(face_slot, turn, i, j)`` of ``cell``."""
        rest, j = divmod(cell, OFFSETS)
        rest, i = divmod(rest, OFFSETS)
        face_slot, turn = divmod(rest, TURNS)
        return face_slot, turn, i - 1, j - 1

    def poses(self, state: TowerState) -> tuple[Pose | None, ...]:
        """Each cell's placement for the gift of ``state`` (``None``: no such face)."""
        gift = state.gift
        if gift is None:
            return (None,) * self.size
        faces = list(self.catalogue.shape_of(gift).faces)
        cx, cy, hx, hy = target_box(self.catalogue, rules.target_of(state, gift))
        found: list[Pose | None] = []
        for cell in range(self.size):
            face_slot, turn, i, j = self.unpack(cell)
            if face_slot >= len(faces):
                found.append(None)
                continue
            x = cx + i * OFFSET_FRACTION * hx
            y = cy + j * OFFSET_FRACTION * hy
            found.append(pose(faces[face_slot], TURN_STEP_DEG * turn, x, y))
        return tuple(found)

    def choices(self, state: TowerState) -> PlaceChoices:
        """The grid in ``state`` (a state in its ``place`` phase), computed once per position."""
        key = json.dumps([state.gift, state.tower.to_json()], sort_keys=True)
        if self._memo is not None and self._memo[0] == key:
            return self._memo[1]
        poses = self.poses(state)
        legal = self.accept(state, poses)
        fallback = None if legal.any() else self._fallback(state)
        found = PlaceChoices(poses, legal, fallback)
        self._memo = (key, found)
        return found

    def _fallback(self, state: TowerState) -> Pose:
        gift = state.gift
        assert gift is not None
        target = rules.target_of(state, gift)
        candidates: list[Pose] = []
        fits = state.tower_game.fits
        if isinstance(fits, GeometricFit) and target is not None:
            found = fits.pose_for(state.tower, gift, target)
            if found is not None:
                candidates.append(pose(*found))
        candidates.append({"kind": "place"})
        for candidate in candidates:
            if state.why_illegal(candidate) is None:
                return candidate
        cx, cy, hx, hy = target_box(self.catalogue, target)
        for face in self.catalogue.shape_of(gift).faces:
            for turn in FINE_TURNS:
                for fx in FINE_OFFSETS:
                    for fy in FINE_OFFSETS:
                        candidate = pose(face, float(turn), cx + fx * hx, cy + fy * hy)
                        if state.why_illegal(candidate) is None:
                            return candidate
        return {"kind": "place"}

    @staticmethod
    def same(action: Action, placement: Pose) -> bool:
        """Whether ``action`` is the placement ``placement`` (numbers to a thousandth)."""
        params = dict(action.params)
        wanted = {k: v for k, v in placement.items() if k != "kind"}
        if set(params) != set(wanted):
            return False
        for key, value in wanted.items():
            if isinstance(value, str):
                if params[key] != value:
                    return False
            elif not isinstance(params[key], int | float) or isinstance(params[key], bool):
                return False
            elif key == "rotation_deg":
                if abs(turn_deg(float(params[key]) - float(str(value)))) > 1e-3:
                    return False
            elif abs(float(params[key]) - float(str(value))) > 1e-3:
                return False
        return True
