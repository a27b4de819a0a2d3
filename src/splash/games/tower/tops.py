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

GRID_STEP = 0.0005
"""Spacing (metres) of the points tried on a top, laid out from its centre."""
FIT_TOLERANCE = 0.00025
"""How much (metres) a free region may fall short of the clearance and still count."""


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


def free_tops(
    catalogue: Catalogue, rests: Sequence[Rest], which: Sequence[str] | None = None
) -> dict[str, bool]:
    """Whether each piece of ``which`` (default: all) has a free top."""
    by_id: Mapping[str, Rest] = {r.piece: r for r in rests}
    clearance = _clearance(catalogue)
    result = {}
    for piece in which if which is not None else by_id:
        rest = by_id[piece]
        pose = catalogue.shape_of(piece).resting(rest.face)
        frame = _frame(catalogue, rest)
        children = [r for r in rests if r.support == piece]
        blocked = []
        for child in children:
            child_frame = _frame(catalogue, child)
            child_pose = catalogue.shape_of(child.piece).resting(child.face)
            for foot in child_pose.footprint:
                world = child_frame.apply(
                    np.column_stack([foot.reshape(-1, 2), np.zeros(len(foot.reshape(-1, 2)))])
                )
                local = frame.inverse().apply(world)[:, :2]
                blocked.append(local)
        free = False
        for top in pose.top_surfaces:
            outline = top.reshape(-1, 2)
            if len(outline) < 3:
                continue
            grid = _grid(outline)
            need = clearance - FIT_TOLERANCE
            ok = _polygon_depth(grid, outline) >= need
            for foot in blocked:
                if len(foot) >= 3:
                    ok &= -_polygon_depth(grid, convex_hull_2d(foot)) >= need
                else:
                    ok &= _segment_distance(grid, foot) >= need
            if ok.any():
                free = True
                break
        result[piece] = free
    return result


def _grid(outline: Array) -> Array:
    low, high = outline.min(axis=0), outline.max(axis=0)
    centre, half = (low + high) / 2, (high - low) / 2
    nx, ny = (int(np.ceil(h / GRID_STEP)) for h in half)
    xs = centre[0] + np.arange(-nx, nx + 1) * GRID_STEP
    ys = centre[1] + np.arange(-ny, ny + 1) * GRID_STEP
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
