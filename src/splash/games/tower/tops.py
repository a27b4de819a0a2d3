"""Heights and free tops of pieces at rest, from the catalogue's geometry (TD04).

A piece is *uncovered* when its top still has a free region that can hold the smallest
footprint of the catalogue.  Here "can hold" is measured with that footprint's inradius:
some point of the top lies at least that far inside the top's outline and at least that far
from the footprint of every piece resting on it.  A piece whose top is a ridge or a line (a
triangular prism on its side, a lying cylinder) has no free top.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from splash.games.tower.catalogue import Catalogue
from splash.games.tower.geometry import Array, Transform, as_array, convex_hull_2d, polygon_area
from splash.games.tower.tower import Tower, TowerPiece

GRID_STEP = 0.0005
"""Spacing (metres) of the points tried on a top, laid out from its centre."""
FIT_TOLERANCE = 0.00025
"""How much (metres) a free region may fall short of the clearance and still count."""
LAYER_TOLERANCE = 0.0005
"""How close (metres) to a layer a body must come to block it: it counts as touching."""


@dataclass(frozen=True)
class Rest:
    """Where a piece lies: its face, its support (``None``: the table) and its body pose."""

    piece: str
    face: str
    support: str | None
    position: tuple[float, float, float]
    quaternion: tuple[float, float, float, float]


def _polygon_depth(points: Array, polygon: Array) -> Array:
    """For each point, how far it lies inside the convex ``polygon`` (negative outside)."""
    hull = polygon.reshape(-1, 2)
    if len(hull) < 3:
        return np.full(len(points), -np.inf)
    depth = np.full(len(points), np.inf)
    area = 0.0
    for i in range(len(hull)):
        a, b = hull[i], hull[(i + 1) % len(hull)]
        area += a[0] * b[1] - a[1] * b[0]
    sign = 1.0 if area > 0 else -1.0
    for i in range(len(hull)):
        a, b = hull[i], hull[(i + 1) % len(hull)]
        edge = b - a
        length = float(np.hypot(*edge))
        if length < 1e-12:
            continue
        cross = edge[0] * (points[:, 1] - a[1]) - edge[1] * (points[:, 0] - a[0])
        depth = np.minimum(depth, sign * cross / length)
    return depth


@cache
def _clearance(catalogue: Catalogue) -> float:
    """The inradius of the smallest (non-degenerate) footprint of the catalogue."""
    best = (np.inf, 0.0)
    for shape in catalogue.shapes.values():
        for pose in shape.faces.values():
            support = as_array(pose.support).reshape(-1, 2)
            area = polygon_area(support) if len(support) >= 3 else 0.0
            if area <= 0.0:
                continue
            centre = support.mean(axis=0)
            radius = float(_polygon_depth(centre[None, :], support)[0])
            best = min(best, (area, radius))
    return best[1]


def _frame(catalogue: Catalogue, rest: Rest) -> Transform:
    return catalogue.shape_of(rest.piece).resting_frame(rest.face, rest.position, rest.quaternion)


def height_mm(catalogue: Catalogue, rest: Rest) -> float:
    """The height of the piece's highest point above the table, in millimetres."""
    body = Transform.from_pose(rest.position, rest.quaternion)
    points = body.apply(catalogue.shape_of(rest.piece).points())
    return float(points[:, 2].max()) * 1000.0


def _body_points(catalogue: Catalogue, rest: Rest) -> Array:
    body = Transform.from_pose(rest.position, rest.quaternion)
    return body.apply(catalogue.shape_of(rest.piece).points())


def rests_of_tower(tower: Tower) -> list[Rest] | None:
    """The tower's recorded poses as :class:`Rest` items (``None`` if one is unknown)."""
    rests = []
    for p in tower.pieces:
        if p.pose is None:
            return None
        x, y, z = (float(v) for v in p.pose["position"])
        w, i, j, k = (float(v) for v in p.pose["quaternion"])
        rests.append(Rest(p.piece, p.face, p.support, (x, y, z), (w, i, j, k)))
    return rests


def _above(
    catalogue: Catalogue,
    rests: Sequence[Rest],
    frame: Transform,
    *,
    skip: str,
    low: float,
    high: float,
) -> list[Array]:
    """The outlines, in ``frame``'s plane, of the bodies (other than ``skip``) that reach
    into the layer from ``low`` to ``high`` metres above the table, or come within
    :data:`LAYER_TOLERANCE` of it."""
    outlines = []
    inverse = frame.inverse()
    for other in rests:
        if other.piece == skip:
            continue
        points = _body_points(catalogue, other)
        if (
            points[:, 2].max() <= low - LAYER_TOLERANCE
            or points[:, 2].min() >= high + LAYER_TOLERANCE
        ):
            continue
        outlines.append(convex_hull_2d(inverse.apply(points)[:, :2]))
    return outlines


def free_tops(
    catalogue: Catalogue, rests: Sequence[Rest], which: Sequence[str] | None = None
) -> dict[str, bool]:
    """Whether each piece of ``which`` (default: all) has a free top.

    Everything above the top blocks it, not only the feet of the pieces resting on it: the
    notch of an arch straddling a cube leaves no room on the cube.
    """
    by_id: Mapping[str, Rest] = {r.piece: r for r in rests}
    clearance = _clearance(catalogue)
    result = {}
    for piece in which if which is not None else by_id:
        rest = by_id[piece]
        pose = catalogue.shape_of(piece).resting(rest.face)
        frame = _frame(catalogue, rest).compose(Transform.translation_of(0.0, 0.0, pose.height))
        level = float(frame.translation[2])
        blocked = _above(catalogue, rests, frame, skip=piece, low=level, high=level + 2 * clearance)
        free = False
        need = clearance - FIT_TOLERANCE
        for top in pose.top_surfaces:
            outline = top.reshape(-1, 2)
            if len(outline) < 3:
                continue
            grid = _grid(outline)
            ok = _polygon_depth(grid, outline) >= need
            for shadow in blocked:
                ok &= _outside(grid, shadow) >= need
            if ok.any():
                free = True
                break
        result[piece] = free
    return result


def _outside(points: Array, outline: Array) -> Array:
    """How far each point lies outside a convex outline (a polygon, a segment or a point)."""
    if len(outline) >= 3:
        return -_polygon_depth(points, outline)
    return _segment_distance(points, outline)


Pose = tuple[str, float, float, float]
"""A placement pose: face, turn about the vertical (degrees), offset x and y (millimetres)."""


class GeometricFit:
    """Whether a piece has a pose on a target that touches nothing else (T06, TD04), from
    the recorded poses: on some face, turned by a multiple of 15 degrees, with its centre
    over the target's top, its outline clear of every body that reaches into the layer it
    would occupy.  Results are kept per tower, shape and target.
    """

    TURNS = tuple(range(0, 180, 15))
    CLEARANCE = 0.0005
    STEP = 0.001

    def __init__(self, catalogue: Catalogue) -> None:
        self.catalogue = catalogue
        self._memo: dict[tuple[object, ...], Pose | None] = {}

    def __call__(self, tower: Tower, piece: str, target: TowerPiece) -> bool:
        """Whether ``piece`` fits on ``target`` in ``tower``."""
        rests = rests_of_tower(tower)
        if rests is None:
            return target.uncovered
        return self.pose_for(tower, piece, target) is not None

    def pose_for(self, tower: Tower, piece: str, target: TowerPiece) -> Pose | None:
        """A pose of ``piece`` on ``target`` that touches nothing else (the one with the
        most room on the first face and turn that has one), or ``None``."""
        rests = rests_of_tower(tower)
        if rests is None:
            return None
        shape = self.catalogue.piece(piece).shape
        key = (shape, target.piece, tuple(rests))
        if key not in self._memo:
            if len(self._memo) > 4096:
                self._memo.clear()
            self._memo[key] = self._find(rests, shape, target)
        return self._memo[key]

    def _find(self, rests: list[Rest], shape_name: str, target: TowerPiece) -> Pose | None:
        rest = next(r for r in rests if r.piece == target.piece)
        pose = self.catalogue.shape_of(target.piece).resting(rest.face)
        tops = [t.reshape(-1, 2) for t in pose.top_surfaces if len(t.reshape(-1, 2)) >= 3]
        if not tops:
            return None
        frame = _frame(self.catalogue, rest).compose(
            Transform.translation_of(0.0, 0.0, pose.height)
        )
        level = float(frame.translation[2])
        shape = self.catalogue.shapes[shape_name]
        for face, resting in shape.faces.items():
            blocked = _above(
                self.catalogue,
                rests,
                frame,
                skip=target.piece,
                low=level,
                high=level + resting.height,
            )
            body = resting.transform.apply(shape.points())[:, :2]
            outline = convex_hull_2d(body)
            for turn in self.TURNS:
                angle = np.radians(turn)
                rotation = np.array(
                    [[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]]
                )
                turned = outline @ rotation.T
                for top in tops:
                    grid = _grid(top, self.STEP)
                    grid = grid[_polygon_depth(grid, top) >= 0.0]
                    room = np.full(len(grid), np.inf)
                    for shadow in blocked:
                        reach = convex_hull_2d(
                            (shadow[:, None, :] - turned[None, :, :]).reshape(-1, 2)
                        )
                        room = np.minimum(room, _outside(grid, reach))
                    if len(grid) and room.max() >= self.CLEARANCE:
                        best = grid[
                            int(np.argmax(np.minimum(room, 1.0) - 1e-3 * np.hypot(*grid.T)))
                        ]
                        return face, float(turn), float(best[0]) * 1000, float(best[1]) * 1000
        return None


def _grid(outline: Array, step: float = GRID_STEP) -> Array:
    low, high = outline.min(axis=0), outline.max(axis=0)
    centre, half = (low + high) / 2, (high - low) / 2
    nx, ny = (int(np.ceil(h / step)) for h in half)
    xs = centre[0] + np.arange(-nx, nx + 1) * step
    ys = centre[1] + np.arange(-ny, ny + 1) * step
    return np.array(np.meshgrid(xs, ys)).reshape(2, -1).T


def _segment_distance(points: Array, segment: Array) -> Array:
    ends = segment.reshape(-1, 2)
    a, b = ends[0], ends[-1]
    ab = b - a
    length2 = float(ab @ ab)
    if length2 < 1e-18:
        return np.asarray(np.hypot(*(points - a).T), dtype=np.float64)
    t = np.clip(((points - a) @ ab) / length2, 0.0, 1.0)
    nearest = a + t[:, None] * ab
    return np.asarray(np.hypot(*(points - nearest).T), dtype=np.float64)
