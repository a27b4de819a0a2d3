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


def _flat(frame: Transform, polygons: Sequence[Array], height: float) -> list[Array]:
    """Polygons of a resting frame's plane at ``height``, in world x-y."""
    result = []
    for polygon in polygons:
        points = np.column_stack([polygon, np.full(len(polygon), height)])
        result.append(frame.apply(points)[:, :2])
    return result


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
