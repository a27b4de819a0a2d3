"""The measures of rule TD07 on arrays of piece states, and the static cross-check.

Pieces are numbered ``0..n-1`` in tower order (a support comes before what it carries);
``supports[i]`` is the index of the piece that ``i`` rests on, or ``-1`` for the table.
Positions are centres of mass; orientations are rotation matrices.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from splash.games.tower.geometry import Array, convex_hull_2d, inside_distance
from splash.physics.model import TABLE_SLOT as ON_TABLE

Mask = NDArray[np.bool_]


@dataclass(frozen=True)
class Thresholds:
    """How far a piece may move relative to its support before the tower has fallen
    (TD07; the defaults are the rules' 5 mm and 10 degrees)."""

    distance_mm: float = 5.0
    angle_deg: float = 10.0


def relative_frames(com: Array, rotations: Array, supports: Array) -> tuple[Array, Array]:
    """Each piece's centre of mass and orientation in its support's frame (the world's for
    a piece on the table): ``(n, 3)`` and ``(n, 3, 3)``."""
    on_piece = supports >= 0
    parent_com = np.where(on_piece[:, None], com[np.maximum(supports, 0)], 0.0)
    parent_rot = np.where(
        on_piece[:, None, None], rotations[np.maximum(supports, 0)], np.eye(3)[None]
    )
    rel_pos = np.einsum("nji,nj->ni", parent_rot, com - parent_com)
    rel_rot = np.einsum("nji,njk->nik", parent_rot, rotations)
    return rel_pos, rel_rot


def motion(ref_pos: Array, ref_rot: Array, rel_pos: Array, rel_rot: Array) -> tuple[Array, Array]:
    """How far (metres) and how much (radians) each piece moved relative to its support
    since the reference frames."""
    distance = np.linalg.norm(rel_pos - ref_pos, axis=1)
    trace = np.einsum("nji,nji->n", ref_rot, rel_rot)
    angle = np.arccos(np.clip((trace - 1.0) / 2.0, -1.0, 1.0))
    return distance, angle


def moved(distance: Array, angle: Array, thresholds: Thresholds) -> Mask:
    """Which pieces moved beyond the thresholds."""
    return np.asarray(
        (distance > thresholds.distance_mm / 1000) | (angle > np.radians(thresholds.angle_deg))
    )


def touching_table(pairs: Array, slots: Array) -> Mask:
    """Which pieces (by index into ``slots``) touch the table, given contact slot pairs."""
    with_table = pairs[(pairs == ON_TABLE).any(axis=1)].ravel()
    if with_table.size == 0 or len(slots) == 0:
        return np.zeros(len(slots), dtype=bool)
    flags = np.zeros(max(int(with_table.max()), int(slots.max())) + 2, dtype=bool)
    flags[with_table] = True
    flags[ON_TABLE] = False
    return np.asarray(flags[slots], dtype=bool)


def subtree_centres(com: Array, masses: Array, supports: Array) -> Array:
    """The centre of mass of each piece together with everything it carries, ``(n, 3)``."""
    mass = masses.astype(np.float64).copy()
    moment = com * masses[:, None]
    for i in range(len(supports) - 1, -1, -1):
        parent = supports[i]
        if parent >= 0:
            mass[parent] += mass[i]
            moment[parent] += moment[i]
    return np.asarray(moment / mass[:, None], dtype=np.float64)


def contact_margins(
    *,
    centres: Array,
    supports: Array,
    slots: Array,
    pairs: Array,
    points: Array,
    which: Mask | None = None,
) -> Array:
    """For each piece, how far (metres) ``centres`` (its centre of mass with its load) lies
    inside the hull of its contact points with its support (negative: outside; ``-inf`` when
    it does not touch its support).  The contact points lie in the true contact region, so
    this is a lower bound of the static margin.  Only the pieces of ``which`` (all when
    ``None``) are measured; the others are ``-inf``."""
    margins = np.full(len(slots), -np.inf)
    if len(pairs) == 0:
        return margins
    below = np.where(supports < 0, ON_TABLE, slots[np.maximum(supports, 0)])
    wanted = np.ones(len(slots), dtype=bool) if which is None else which
    for i in np.flatnonzero(wanted).tolist():
        slot, under = slots[i], below[i]
        mask = ((pairs[:, 0] == slot) & (pairs[:, 1] == under)) | (
            (pairs[:, 1] == slot) & (pairs[:, 0] == under)
        )
        if mask.any():
            margins[i] = inside_distance(centres[i, :2], convex_hull_2d(points[mask][:, :2]))
    return margins


def standing(supports: Array, moved_flags: Mask, on_table: Mask) -> Mask:
    """Which pieces still stand (TD07): a base that did not move, or a piece that did not
    move, does not touch the table and rests on a standing piece."""
    result = np.zeros(len(supports), dtype=bool)
    for i, parent in enumerate(supports):
        if moved_flags[i]:
            continue
        if parent < 0:
            result[i] = True
        else:
            result[i] = bool(result[parent]) and not on_table[i]
    return result
