"""The static centre-of-mass check on the catalogue's geometry.

A piece at rest on its support is statically stable when the centre of mass of the piece
and its load lies inside its *support region*: the convex hull of the overlaps between its
footprint and its support's top surfaces (the table: its footprint), taken in the poses it
has now.  MuJoCo models a face-to-face contact with a few points that need not span that
region, so the contact points alone underestimate it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from splash.games.tower.catalogue import Catalogue, Shape
from splash.games.tower.geometry import (
    Array,
    Transform,
    convex_hull_2d,
    convex_intersection,
    inside_distance,
)
from splash.physics.judge import subtree_centres

Placed = tuple[str, str, Sequence[float], Sequence[float]]
"""A piece where it lies: its id, its face, its body position and quaternion."""

LINE_TOLERANCE = 1e-5
"""How far (metres) a centre may lie beside a line of support and still count as over it."""


def line_margin(point: Array, segment: Array, tolerance: float = LINE_TOLERANCE) -> float:
    """How far (metres) ``point`` lies inside the ``segment`` (two or more collinear points)
    along it, when it lies within ``tolerance`` of the segment's line; otherwise minus its
    distance to that line."""
    ends = np.asarray(segment, dtype=np.float64).reshape(-1, 2)
    if len(ends) == 0:
        return -np.inf
    a, b = ends[0], ends[-1]
    along = b - a
    length = float(np.hypot(*along))
    if length < 1e-12:
        return -float(np.hypot(*(point[:2] - a)))
    offset = point[:2] - a
    t = float(offset @ along) / length
    beside = abs(float(along[0] * offset[1] - along[1] * offset[0])) / length
    if beside > tolerance:
        return -beside
    return min(t, length - t)


def load_centres(
    catalogue: Catalogue,
    pieces: Sequence[str],
    positions: Array,
    quaternions: Array,
    supports: Array,
) -> Array:
    """The centre of mass (world, ``(n, 3)``) of each piece with everything it carries, for
    pieces in tower order at body ``positions`` and ``quaternions``; ``supports`` as for
    :class:`SupportRegions`."""
    shapes = [catalogue.shape_of(piece) for piece in pieces]
    masses = np.array([shape.mass for shape in shapes], dtype=np.float64)
    com = np.array(
        [
            Transform.from_pose(positions[i], quaternions[i]).apply(shape.centre_of_mass)
            for i, shape in enumerate(shapes)
        ]
    ).reshape(-1, 3)
    return subtree_centres(com, masses, supports)


def _flat(frame: Transform, polygons: Sequence[Array], height: float) -> list[Array]:
    """Polygons of a resting frame's plane at ``height``, in world x-y."""
    result = []
    for polygon in polygons:
        points = np.column_stack([polygon, np.full(len(polygon), height)])
        result.append(frame.apply(points)[:, :2])
    return result


def support_region(catalogue: Catalogue, rest: Placed, below: Placed | None) -> tuple[Array, bool]:
    """The support region (world x-y) of a piece resting on ``below`` (``None``: the
    table), each given as ``(piece, face, position, quaternion)``: the hull of its footprint
    on the table, or of the overlaps of its footprint with ``below``'s top surfaces; and
    whether the piece rests on a line (its footprint has no area)."""
    piece, face, position, quaternion = rest
    shape = catalogue.shape_of(piece)
    pose = shape.resting(face)
    feet = _flat(shape.resting_frame(face, position, quaternion), pose.footprint, 0.0)
    on_line = all(len(f) < 3 for f in feet)
    if below is None:
        return convex_hull_2d(np.concatenate(feet)), on_line
    under, under_face, under_position, under_quaternion = below
    under_shape = catalogue.shape_of(under)
    top = under_shape.resting(under_face)
    frame = under_shape.resting_frame(under_face, under_position, under_quaternion)
    tops = _flat(frame, top.top_surfaces, top.height)
    overlaps = [convex_intersection(f, t) for f in feet for t in tops]
    overlaps = [o for o in overlaps if len(o)]
    region = convex_hull_2d(np.concatenate(overlaps)) if overlaps else np.zeros((0, 2))
    return region, on_line


def region_margin(point: Array, region: Array, on_line: bool) -> float:
    """How far (metres) ``point`` lies inside a support region (negative: outside); along
    the line for a piece that rests on one (:func:`line_margin`)."""
    if on_line and len(region):
        return line_margin(point, region)
    return inside_distance(point, region)


class SupportRegions:
    """The support regions of the pieces of one tower (in tower order; ``supports[i]`` is
    the index of the piece under piece ``i``, ``-1`` for the table)."""

    def __init__(
        self, catalogue: Catalogue, pieces: Sequence[str], faces: Sequence[str], supports: Array
    ) -> None:
        self.shapes: list[Shape] = [catalogue.shape_of(piece) for piece in pieces]
        self.faces = list(faces)
        self.supports = supports

    def _frame(self, i: int, position: Array, quaternion: Array) -> Transform:
        return self.shapes[i].resting_frame(self.faces[i], position, quaternion)

    def margins(
        self,
        positions: Array,
        quaternions: Array,
        centres: Array,
        which: Sequence[int],
        enough: float = np.inf,
    ) -> dict[int, float]:
        """For the pieces ``which``, how far (metres) ``centres[i]`` (the centre of mass of
        the piece and its load) lies inside its support region (negative: outside).

        A margin of at least ``enough`` may be reported as any value >= ``enough``: when the
        centre lies that deep inside the overlap of one part of the footprint with one top
        surface, the union is not computed.
        """
        result = {}
        for i in which:
            rest = self.shapes[i].resting(self.faces[i])
            feet = _flat(self._frame(i, positions[i], quaternions[i]), rest.footprint, 0.0)
            point = centres[i, :2]
            below = int(self.supports[i])
            if below < 0:
                result[i] = inside_distance(point, convex_hull_2d(np.concatenate(feet)))
                continue
            top = self.shapes[below].resting(self.faces[below])
            frame = self._frame(below, positions[below], quaternions[below])
            tops = _flat(frame, top.top_surfaces, top.height)
            if not tops:
                result[i] = -np.inf
                continue
            depth = max(
                min(inside_distance(point, f), inside_distance(point, t))
                for f in feet
                for t in tops
            )
            if depth >= enough or (len(feet) == 1 and len(tops) == 1):
                result[i] = depth
                continue
            overlaps = [convex_intersection(f, t) for f in feet for t in tops]
            overlaps = [o for o in overlaps if len(o)]
            region = convex_hull_2d(np.concatenate(overlaps)) if overlaps else np.zeros((0, 2))
            result[i] = inside_distance(point, region)
        return result
