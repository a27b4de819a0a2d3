"""A ruling of Splash! placements without dynamics: the static centre-of-mass check.

:func:`rule_statically` rules a placement as :func:`~splash.physics.ruling.rule` does, with
the same inputs and the same kind of answer (a :class:`~splash.physics.outcome.RulingOutcome`);
:class:`~splash.physics.static_outcomes.StaticOutcomes` is the outcome provider that uses
it (the setting ``physics.ruling=statics``), and the simulation's ruling uses it first, to
skip the simulation of a placement that stands with a wide margin.

What it models:

* **The placement and the tremor exactly as the simulation does.** The chosen pose is checked
  against T06 first (the same MuJoCo distance queries, the same refusals); the tremor is
  drawn from the provider's generator with the same draws (:meth:`Steadiness.sample`, four
  normal draws per placement), and shifts and turns the pose as it does in the simulation
  (:func:`~splash.physics.placement.placed_pose`).
* **The piece at rest where the trembled hand put it**, flush on its target's top; a
  trembled pose that overlaps another piece is raised until it overlaps nothing (as the
  simulation's release is), and its target still counts as its support.
* **The static check**: the centre of mass of every piece with its load (the piece and
  everything resting on it, the catalogue's masses) must lie strictly inside the piece's
  support region, the convex hull of where its footprint overlaps its support's top
  surfaces (:class:`~splash.physics.statics.SupportRegions`).  Only the pieces under the
  placed piece (its target down to the base) can change: the others carry the same load as
  before.  A piece resting on a line (a cylinder on its side) has no area of support: on the
  table it stands when its centre lies over the line (it is in neutral balance across it,
  :func:`~splash.physics.statics.line_margin`); on another piece it counts as rolling off.
* **What falls**: the lowest piece whose check fails tips over with everything it carries;
  the pieces below it stand where they were.  A fallen piece lies on the table on its most
  stable face (the one with the lowest centre of mass), turned as it was about the vertical,
  moved away from the base's centre by the height its centre of mass fell from.

What it ignores (no dynamics): sliding (friction is never exceeded), the release height
(the tremor's lift is drawn, recorded and not used: nothing is dropped, nothing bounces),
toppling by momentum (a piece near its tipping point stands as long as its centre of mass is
inside, where the simulation may rock it over), pieces knocked by a neighbour, the slow creep
of a tower, the TD07 thresholds (a tipped piece always counts as fallen, a standing one never
moves) and a tower falling before the piece touches it (never ``spontaneous``).  The poses of
fallen pieces are nominal: they may overlap one another (only one stack or piece stays on the
table afterwards, T11-T12).

Measured (``bench/tower_static.py``, ``docs/physics-static.md``): on 500 placements of random
4-player games it agrees with the simulation on 469 (93.8 %; 436 of 453 leaving aside
cylinders laid on their side on a piece, which the simulation keeps up 14 times in 47), and
a ruling takes 1.1 to 2.5 ms of CPU at 5 to 30 pieces, 7 to 8 times less than the
simulation's quick ruling.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache

import numpy as np

from splash.games.tower.catalogue import Catalogue
from splash.games.tower.geometry import Array, Transform
from splash.physics.model import TowerModel
from splash.physics.outcome import RulingOutcome
from splash.physics.placement import Placement, Tremor, release
from splash.physics.poses import PieceRest, Pose
from splash.physics.statics import Placed, load_centres, region_margin, support_region

RULING = "statics"
"""The value of ``physics.ruling`` (and of the planner's ``ruling``) that names this ruling."""
METHOD = "statics/1"
"""The method and version its outcomes record."""


def rule_statically(
    model: TowerModel,
    tower: Sequence[PieceRest],
    placement: Placement,
    tremor: Tremor | None = None,
    *,
    forced: bool = False,
) -> RulingOutcome:
    """The outcome of ``placement`` on ``tower`` with ``tremor``, ruled statically (module
    docs): ``stood`` or ``fell``, never ``spontaneous``; ``simulated_s`` is 0.

    ``model`` answers the T06 check and the overlaps only (nothing is simulated); raises
    :class:`~splash.physics.errors.PlacementError` exactly when :func:`rule` would.
    """
    return rule_with_margin(model, tower, placement, tremor or Tremor(), forced=forced)[0]


def rule_with_margin(
    model: TowerModel,
    tower: Sequence[PieceRest],
    placement: Placement,
    tremor: Tremor,
    *,
    forced: bool,
) -> tuple[RulingOutcome, float]:
    """The outcome of :func:`rule_statically` and the smallest margin found on the path
    from the placed piece down to its base (metres; not positive when it fell)."""
    catalogue = model.catalogue
    rest = release(model, tower, placement, replace(tremor, lift=0.0), forced=forced)
    order = [r.piece for r in tower] + [placement.piece]
    index = {piece: i for i, piece in enumerate(order)}
    supports = np.array(
        [-1 if r.support is None else index[r.support] for r in tower]
        + [index.get(placement.target, -1)]
    )
    faces = [r.face for r in tower] + [placement.face]
    poses = [r.pose for r in tower] + [rest]
    positions = np.array([p.position for p in poses], dtype=np.float64)
    quaternions = np.array([p.quaternion for p in poses], dtype=np.float64)
    centres = load_centres(catalogue, order, positions, quaternions, supports)
    path = _path(supports, len(order) - 1)
    placed = [(p, f, q.position, q.quaternion) for p, f, q in zip(order, faces, poses, strict=True)]
    margins = {i: _margin(catalogue, placed, supports, centres, i) for i in path}
    tipped = [i for i in path if margins[i] <= 0.0]
    fallen = _carried(supports, tipped[-1]) if tipped else set()
    up = [i not in fallen for i in range(len(order))]
    roots = _roots(supports)
    pieces = []
    for i, piece in enumerate(order):
        if up[i]:
            support = None if supports[i] < 0 else order[supports[i]]
            pieces.append(PieceRest(piece, faces[i], support, poses[i]))
        else:
            base = (
                poses[roots[i]]
                .transform()
                .apply(catalogue.shape_of(order[roots[i]]).centre_of_mass)
            )
            here = PieceRest(piece, faces[i], None, poses[i])
            face, pose = lying_pose(catalogue, here, centre=centres[i], base_xy=base[:2])
            pieces.append(PieceRest(piece, face, None, pose))
    stacks = tuple(
        tuple(order[j] for j in range(len(order)) if up[j] and roots[j] == i)
        for i in range(len(order))
        if supports[i] < 0 and up[i]
    )
    outcome = RulingOutcome(
        result="fell" if fallen else "stood",
        placement=placement,
        tremor=tremor,
        release=rest,
        pieces=tuple(pieces),
        stacks=stacks,
        on_table=tuple(order[i] for i in range(len(order)) if not up[i]),
        simulated_s=0.0,
        method=METHOD,
    )
    least = min(margins.values())
    return replace(outcome, margin_mm=margin_in_mm(least)), least


def margin_in_mm(margin: float) -> float | None:
    """A static margin in metres as outcomes record it: in mm, to the nanometre; ``None``
    when there is no finite margin."""
    return round(margin * 1000.0, 6) if math.isfinite(margin) else None


@lru_cache(maxsize=4096)
def _region(catalogue: Catalogue, rest: Placed, below: Placed | None) -> tuple[Array, bool]:
    """:func:`support_region`, kept: a tower's pieces keep their poses from ruling to ruling."""
    return support_region(catalogue, rest, below)


def support_region_of(
    catalogue: Catalogue, rest: PieceRest, below: PieceRest | None
) -> tuple[Array, bool]:
    """The support region of ``rest`` on ``below`` (``None``: the table), as
    :func:`~splash.physics.statics.support_region` finds it, and whether it is a line."""
    return _region(catalogue, _placed(rest), None if below is None else _placed(below))


def _placed(rest: PieceRest) -> Placed:
    return (rest.piece, rest.face, rest.pose.position, rest.pose.quaternion)


def _margin(
    catalogue: Catalogue, placed: Sequence[Placed], supports: Array, centres: Array, i: int
) -> float:
    """How far piece ``i``'s centre with its load lies inside its support region; a piece
    resting on a line on another piece is at its tipping point (0: it rolls off)."""
    below = None if supports[i] < 0 else placed[supports[i]]
    region, on_line = _region(catalogue, placed[i], below)
    if on_line and below is not None:
        return min(0.0, region_margin(centres[i, :2], region, on_line))
    return region_margin(centres[i, :2], region, on_line)


def _path(supports: Array, piece: int) -> list[int]:
    """``piece`` and the pieces under it down to the base (top first)."""
    path = [piece]
    while supports[path[-1]] >= 0:
        path.append(int(supports[path[-1]]))
    return path


def _carried(supports: Array, piece: int) -> set[int]:
    """``piece`` and everything resting on it, directly or not."""
    carried = {piece}
    for i in range(piece + 1, len(supports)):
        if int(supports[i]) in carried:
            carried.add(i)
    return carried


def _roots(supports: Array) -> list[int]:
    roots = list(range(len(supports)))
    for i, parent in enumerate(supports):
        if parent >= 0:
            roots[i] = roots[int(parent)]
    return roots


def lying_pose(
    catalogue: Catalogue, rest: PieceRest, *, centre: Array, base_xy: Array
) -> tuple[str, Pose]:
    """Where a piece that tipped over lies, nominally: on its most stable face, turned as it
    was, moved away from the base by the height its centre of mass (``centre``, with its
    load) fell from (module docs)."""
    shape = catalogue.shape_of(rest.piece)
    face, pose = rest.face, rest.pose
    lying = min(shape.faces.values(), key=lambda f: f.centre_of_mass_height)
    frame = shape.resting_frame(face, pose.position, pose.quaternion)
    heading = math.degrees(math.atan2(frame.rotation[1, 0], frame.rotation[0, 0]))
    com = pose.transform().apply(shape.centre_of_mass)
    away = centre[:2] - base_xy
    norm = float(np.hypot(*away))
    direction = away / norm if norm > 1e-9 else np.array([1.0, 0.0])
    x, y = com[:2] + direction * max(0.0, float(com[2]) - lying.centre_of_mass_height)
    ground = Transform.translation_of(float(x), float(y), 0.0).compose(Transform.yaw(heading))
    return lying.face, Pose.from_transform(shape.body_in(lying.face, ground))
