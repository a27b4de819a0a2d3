"""The ruling: does the tower stand after a placement?  (TD07, TD12, TD14, TD15.)

:func:`rule` is a pure function of the recorded tower (poses at rest), the placement and
its tremor sample: it restores the one model's state, releases the piece and simulates.

``quick`` mode (the default) steps in 5 ms chunks and stops early:

* *fell* as soon as a piece other than a base touches the table, or a piece moved relative
  to its support by more than the thresholds (the placed piece: from where it first came to
  rest on its target) — then it goes on until everything settles, for the final poses;
* *stood* once every piece has been still (``|v| + 0.03 m * |w| < 2 mm/s``) for 50 ms, the
  placed piece has come to rest on its target, and a static check passes: the centre of
  mass of every piece with its load lies at least ``static_margin`` inside its support
  region (:mod:`splash.physics.statics`).  A tower near its tipping point fails that check
  and is simulated for the full duration instead;
* *spontaneous* when the tower falls before the placed piece touches anything.

Version 2 of the quick ruling (version 1 is the one above, kept for comparison) adds two
shortcuts, both pure functions of the same inputs:

* *statics first*: when the static check of :mod:`splash.physics.static_ruling` finds the
  piece and every piece under it at least ``statics_first_margin`` inside its support
  region (the piece laid flush where the trembled hand put it), the placement stands
  without any simulation (``simulated_s`` is 0 and the release is that resting pose).
  Only for a placed piece whose support region covers at least ``statics_first_area``
  (on a narrow patch, such as an arch's feet astride a cylinder, the simulation's few
  contact points may rock it off), a release at most ``statics_first_lift`` above the chosen
  pose and fall
  thresholds no finer than ``statics_first_thresholds`` (a drop or a hair-trigger
  threshold needs the dynamics);
* *a fall stops at its verdict*: once a fall is seen, the ruling goes on only until the
  pieces still standing have been still for 50 ms (or, swaying slower than ``sway_speed``,
  pass the static check with ``sway_margin`` to spare) and every fallen piece still moving is
  out of their reach: touching no standing piece, and either lying on something (the table,
  fallen pieces) slower than ``loose_speed``, or moving away from every standing piece
  with more than ``clear_gap`` between their reaches (horizontally; falling freely, it can
  only go farther).  Such a piece, still moving when the ruling stops, is recorded where
  it would lie, nominally (:func:`~splash.physics.static_ruling.lying_pose`).

Version 2 also calls a placed piece fallen as soon as, before it came to rest, it has left
its target for good (it touches it no more, and its centre of mass is below the target's).

Version 3 (the default) rules as version 2 but for one case: a placed piece that T06
accepted at its target's edge and that the tremor takes off, dropping past its target to the
table without touching anything, has fallen (TD07; T10 gives its giver a drop).  Version 2
called that ``spontaneous``, since the piece counted as fallen before it touched anything.
From version 3 on, ``spontaneous`` means what TD12 says: a piece *other than the placed one*
fell (TD07) before the placed piece touched anything; the placed piece's own fall never is.
``long`` mode with version 3 is ``simulation-long/2``; with an earlier version it is
``simulation-long/1``, which rules as before (so a recorded version is re-ruled as it was).

Every outcome names its method and version (:attr:`RulingOutcome.method`).

``long`` mode simulates the full duration (3 s) without stopping early.  In both modes a
piece that went past a threshold, or touched the table, at any 5 ms check has fallen, even if
it came back (a lying cylinder rocking on its support); a placed piece that never came to
rest is judged at the end from where it was released.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from splash.games.tower.geometry import Array, polygon_area
from splash.physics.judge import (
    Mask,
    Thresholds,
    contact_margins,
    motion,
    moved,
    relative_frames,
    standing,
    subtree_centres,
    touching_table,
)
from splash.physics.model import TABLE_SLOT, TowerModel
from splash.physics.outcome import Result, RulingOutcome
from splash.physics.placement import Placement, Tremor, check_tower, release
from splash.physics.poses import TABLE, PieceRest, Pose
from splash.physics.static_ruling import lying_pose, rule_with_margin, support_region_of
from splash.physics.statics import SupportRegions

Mode = Literal["quick", "long"]
Tail = Literal["settle", "statics", "reach", "guard"]
Indices = NDArray[np.intp]


@dataclass(frozen=True)
class RulingSettings:
    """How a ruling simulates (speeds in m/s, lengths in metres, times in seconds).

    ``duration_s`` is the fixed time of ``long`` mode and the longest a quick ruling runs;
    the state is checked every ``chunk_s``.  A piece is still when ``|v| + settle_lever *
    |w|`` stays under ``settle_speed`` for ``settle_window_s``.  ``static_margin`` is how
    far inside its support region every centre of mass must lie for an early "stood";
    ``thresholds`` are TD07's.
    """

    mode: Mode = "quick"
    duration_s: float = 3.0
    chunk_s: float = 0.005
    settle_speed: float = 0.002
    settle_lever: float = 0.03
    settle_window_s: float = 0.05
    static_margin: float = 0.00025
    thresholds: Thresholds = field(default_factory=Thresholds)
    version: int = 3
    statics_first_margin: float = 0.001
    statics_first_lift: float = 0.002
    statics_first_area: float = 2.5e-4
    statics_first_thresholds: Thresholds = field(default_factory=lambda: Thresholds(1.0, 2.0))
    clear_gap: float = 0.005
    loose_speed: float = 0.02
    sway_speed: float = 0.03
    sway_margin: float = 0.001
    verdict_only: bool = False
    """Stop a quick ruling at a fall's verdict, the pieces where they are then (for a
    search that needs only the verdict; the game's rulings settle the fallen pieces)."""
    tail: Tail = "settle"
    """How a quick ruling (version 3 on) ends after a fall's verdict: ``settle`` waits
    until nothing that moves can change who stands (version 2's way); ``statics`` stops
    ``tail_grace_s`` after the verdict and rules the standing part statically; ``reach``
    does so only once no fallen piece can reach a standing one within ``reach_horizon_s``;
    ``guard`` once every fallen piece still moving is farther than ``guard_gap`` from every
    standing piece (their shapes' distance) and every standing piece moves slower than
    ``sway_speed``."""
    tail_grace_s: float = 0.0
    guard_gap: float = 0.005
    guard_speed: float = 0.002
    reach_horizon_s: float = 0.3
    tail_cap_s: float = math.inf
    tail_fall_speed: float = math.inf
    """When a ruling is cut short: a standing piece moving at least this fast (``|v| +
    settle_lever * |w|``, m/s) counts as falling, with everything it carries."""
    """With ``reach``: stop this long after the verdict even if a fallen piece may still
    reach a standing one."""

    @property
    def method(self) -> str:
        """The ruling's method and version, as outcomes record it."""
        if self.mode == "long":
            long_version = 2 if self.version >= 3 else 1
            return f"simulation-long/{long_version}:{self.duration_s:g}s"
        suffix = ":verdict" if self.verdict_only else ""
        if self.version >= 3 and self.tail != "settle" and not self.verdict_only:
            suffix = f"+{self.tail}"
        return f"simulation-quick/{self.version}{suffix}"


LATEST_VERSION = 3
"""The newest version of the quick ruling this install rules with."""
STATICS_STOP = ":statics"
"""How a quick ruling's method ends when it stopped early on a static check."""


def settings_for_method(method: str) -> RulingSettings | None:
    """The settings whose rulings record ``method`` (:attr:`RulingSettings.method`, with
    the ending of an early static stop allowed), other values the defaults; ``None`` for a
    method or version this install cannot rule with."""
    base = method.removesuffix(STATICS_STOP)
    quick = re.fullmatch(r"simulation-quick/(\d+)(:verdict|\+(settle|statics|reach|guard))?", base)
    if quick is not None:
        version = int(quick[1])
        if not 1 <= version <= LATEST_VERSION or (quick[3] is not None and version < 3):
            return None
        tail: Tail = "settle"
        for known in ("statics", "reach", "guard"):
            if quick[3] == known:
                tail = known
        return RulingSettings(version=version, tail=tail, verdict_only=quick[2] == ":verdict")
    long = re.fullmatch(r"simulation-long/([12]):(\d+(?:\.\d+)?)s", base)
    if long is not None:
        version = LATEST_VERSION if long[1] == "2" else 2
        return RulingSettings(mode="long", duration_s=float(long[2]), version=version)
    return None


@dataclass
class _Track:
    """What one simulation has seen so far."""

    ref_pos: Array
    ref_rot: Array
    gone: Mask
    on_table: Mask
    rested: bool = False
    rest_chunks: int = 0
    still_chunks: int = 0
    touched: bool = False
    spontaneous: bool = False
    static_failed: bool = False
    verdict: Result | None = None
    clear_chunks: int = 0
    loose: Mask | None = None
    verdict_s: float = 0.0
    cut: bool = False


@dataclass(frozen=True, eq=False)
class _Setup:
    """The pieces of one ruling in tower order, the placed piece last."""

    placement: Placement
    tremor: Tremor
    released: Pose
    order: list[str]
    faces: list[str]
    supports: Array
    slots: Array
    target_slot: int
    regions: SupportRegions

    @property
    def new(self) -> int:
        return len(self.order) - 1

    def frames(self, model: TowerModel) -> tuple[Array, Array]:
        return relative_frames(model.com(self.slots), model.rotations(self.slots), self.supports)


def _setup(
    model: TowerModel,
    tower: Sequence[PieceRest],
    placement: Placement,
    tremor: Tremor,
    *,
    forced: bool = False,
) -> _Setup:
    released = release(model, tower, placement, tremor, forced=forced)
    order = [rest.piece for rest in tower] + [placement.piece]
    position = {piece: i for i, piece in enumerate(order)}
    supports = np.array(
        [-1 if r.support is None else position[r.support] for r in tower]
        + [position.get(placement.target, -1)]
    )
    faces = [rest.face for rest in tower] + [placement.face]
    return _Setup(
        placement=placement,
        tremor=tremor,
        released=released,
        order=order,
        faces=faces,
        supports=supports,
        slots=np.array([model.slot[piece] for piece in order]),
        target_slot=TABLE_SLOT if placement.target == TABLE else model.slot[placement.target],
        regions=SupportRegions(model.catalogue, order, faces, supports),
    )


def rule(
    model: TowerModel,
    tower: Sequence[PieceRest],
    placement: Placement,
    tremor: Tremor | None = None,
    settings: RulingSettings | None = None,
    *,
    forced: bool = False,
) -> RulingOutcome:
    """The outcome of ``placement`` on ``tower`` with the placer's ``tremor`` sample.

    The outcome's ``margin_mm`` is the static margin of the executed pose (the trembled
    pose laid flush, :func:`~splash.physics.static_ruling.rule_with_margin`), in every mode
    and version.

    Raises :class:`~splash.physics.errors.PlacementError` before simulating when the
    placement is invalid or its chosen pose touches anything but its target (T06), unless
    the placement is ``forced`` (no pose anywhere touches nothing else).
    """
    s = settings or RulingSettings()
    shake = tremor or Tremor()
    static, margin = rule_with_margin(model, tower, placement, shake, forced=forced)
    if s.mode == "quick" and s.version >= 2:
        early = _statics_first(model, placement, shake, s, static=static, margin=margin)
        if early is not None:
            return early
    setup = _setup(model, tower, placement, shake, forced=forced)
    count = len(setup.order)
    track = _Track(*setup.frames(model), np.zeros(count, bool), np.zeros(count, bool))
    chunk = max(1, round(s.chunk_s / model.settings.timestep))
    window = math.ceil(s.settle_window_s / s.chunk_s - 1e-9)
    for _ in range(round(s.duration_s / s.chunk_s)):
        model.step(chunk)
        if _observe(model, setup, track, s, window):
            break
    return replace(_outcome(model, setup, track, s), margin_mm=static.margin_mm)


def _observe(
    model: TowerModel, setup: _Setup, track: _Track, s: RulingSettings, window: int
) -> bool:
    """Update ``track`` after one chunk; whether the quick ruling may stop now."""
    new, slots, supports = setup.new, setup.slots, setup.supports
    pairs, points = model.contacts()
    rel_pos, rel_rot = setup.frames(model)
    speeds = model.speeds(slots, s.settle_lever)
    new_pairs = (pairs == slots[new]).any(axis=1)
    track.touched = track.touched or bool(new_pairs.any())
    if not track.rested:
        on_target = bool((pairs[new_pairs] == setup.target_slot).any())
        resting = on_target and speeds[new] < s.settle_speed
        track.rest_chunks = track.rest_chunks + 1 if resting else 0
        if track.rest_chunks >= window:
            track.rested = True
            track.ref_pos[new], track.ref_rot[new] = rel_pos[new], rel_rot[new]
    distance, angle = motion(track.ref_pos, track.ref_rot, rel_pos, rel_rot)
    gone = moved(distance, angle, s.thresholds)
    gone[new] &= track.rested
    if s.version >= 2 and not track.rested and supports[new] >= 0:
        gone[new] = _slid_off(model, setup, pairs, new_pairs)
    on_table = touching_table(pairs, slots) & (supports >= 0)
    track.gone |= gone
    track.on_table |= on_table
    falling = bool(gone.any() or on_table.any())
    if not track.touched and (falling if s.version < 3 else _others_fall(gone, on_table, new)):
        track.spontaneous = True
    if s.mode == "long":
        return False
    if falling and track.verdict is None:
        track.verdict = "spontaneous" if track.spontaneous else "fell"
        track.verdict_s = model.time
        if s.verdict_only:
            return True
    if (
        track.verdict is not None
        and s.version >= 3
        and s.tail != "settle"
        and model.time - track.verdict_s >= s.tail_grace_s - 1e-9
        and (
            s.tail == "statics"
            or model.time - track.verdict_s >= s.tail_cap_s - 1e-9
            or (s.tail == "reach" and _beyond_reach(setup, track, model, speeds=speeds, s=s))
            or (s.tail == "guard" and _guarded(setup, track, model, speeds=speeds, s=s))
        )
    ):
        track.cut = True
        return True
    if track.verdict is not None and s.version >= 2:
        clear = _settled_but_fallen(setup, track, model, pairs=pairs, speeds=speeds, s=s)
        track.clear_chunks = track.clear_chunks + 1 if clear else 0
        return track.clear_chunks >= window
    track.still_chunks = track.still_chunks + 1 if (speeds < s.settle_speed).all() else 0
    if track.still_chunks < window:
        return False
    if track.verdict is not None:
        return True
    if not track.static_failed:
        if track.rested and _statically_stable(model, setup, pairs, points, s.static_margin):
            track.verdict = "stood"
            return True
        track.static_failed = True
    return False


def _others_fall(gone: Mask, on_table: Mask, new: int) -> bool:
    """Whether a piece other than the placed one (index ``new``) has fallen (TD07): only
    such a fall, before the placed piece touched anything, is spontaneous (TD12, version 3)."""
    return bool(gone[:new].any() or on_table[:new].any())


def _slid_off(model: TowerModel, setup: _Setup, pairs: Array, new_pairs: Array) -> bool:
    """Whether the placed piece, before it came to rest, has left its target for good: it
    touches it no more and its centre of mass is below the target's."""
    if (pairs[new_pairs] == setup.target_slot).any():
        return False
    heights = model.com(setup.slots[[setup.new, setup.supports[setup.new]]])[:, 2]
    return bool(heights[0] < heights[1])


def _statics_first(
    model: TowerModel,
    placement: Placement,
    tremor: Tremor,
    s: RulingSettings,
    *,
    static: RulingOutcome,
    margin: float,
) -> RulingOutcome | None:
    """The static ruling's outcome ``static`` when it stands with ``margin`` at least
    ``statics_first_margin`` (every piece from the placed one down to its base), else
    ``None``."""
    least = s.statics_first_thresholds
    if (
        tremor.lift > s.statics_first_lift
        or s.thresholds.distance_mm < least.distance_mm
        or s.thresholds.angle_deg < least.angle_deg
    ):
        return None
    outcome = static
    if outcome.result != "stood" or not margin >= s.statics_first_margin:
        return None
    if placement.target != TABLE:
        placed = outcome.pieces[-1]
        target = next(rest for rest in outcome.pieces if rest.piece == placement.target)
        region, _ = support_region_of(model.catalogue, placed, target)
        if polygon_area(region) < s.statics_first_area:
            return None
    return replace(outcome, method=f"{s.method}:statics")


def _settled_but_fallen(
    setup: _Setup,
    track: _Track,
    model: TowerModel,
    *,
    pairs: Array,
    speeds: Array,
    s: RulingSettings,
) -> bool:
    """After a fall's verdict: whether the pieces still standing are still and every fallen
    piece that still moves is out of their reach (module docs)."""
    up = standing(setup.supports, track.gone, track.on_table)
    moving = speeds >= s.settle_speed
    swaying = bool((moving & up).any())
    if swaying and not (speeds[up] < s.sway_speed).all():
        return False
    loose = np.flatnonzero(moving & ~up)
    if (
        loose.size
        and up.any()
        and not _out_of_reach(setup, model, pairs=pairs, speeds=speeds, up=up, loose=loose, s=s)
    ):
        return False
    if swaying and not _standing_part_stable(model, setup, up, s.sway_margin):
        return False
    if loose.size and up.any():
        track.loose = moving & ~up
    return True


def _out_of_reach(
    setup: _Setup,
    model: TowerModel,
    *,
    pairs: Array,
    speeds: Array,
    up: Mask,
    loose: Indices,
    s: RulingSettings,
) -> bool:
    """Whether every fallen piece of ``loose`` (still moving) is out of the standing
    pieces' reach (module docs)."""
    slots = setup.slots
    flags = np.zeros((2, int(max(slots.max(), pairs.max(initial=0))) + 2), dtype=bool)
    flags[0, slots[up]] = True
    flags[1, slots[loose]] = True
    first, second = pairs[:, 0], pairs[:, 1]
    if ((flags[1, first] & flags[0, second]) | (flags[1, second] & flags[0, first])).any():
        return False
    lying = np.zeros(flags.shape[1], dtype=bool)
    lying[first[flags[1, first]]] = True
    lying[second[flags[1, second]]] = True
    free = loose[~(lying[slots[loose]] & (speeds[loose] < s.loose_speed))]
    if free.size == 0:
        return True
    com = model.com(slots)
    velocity = model.velocities(slots)
    reach = model.radii[slots]
    away = com[free, None, :2] - com[None, up, :2]
    clear = np.linalg.norm(away, axis=2) > reach[free, None] + reach[None, up] + s.clear_gap
    leaving = np.einsum("fud,fd->fu", away, velocity[free, :2]) > 0.0
    return bool((clear & leaving).all())


def _standing_part_stable(model: TowerModel, setup: _Setup, up: Mask, margin: float) -> bool:
    """Whether every standing piece's centre of mass, with the standing pieces it carries,
    lies at least ``margin`` inside its support region (as :func:`_statically_stable`)."""
    slots, supports = setup.slots, setup.supports
    masses = np.where(up, model.masses[slots], 1e-12)
    centres = subtree_centres(model.com(slots), masses, supports)
    pairs, points = model.contacts()
    contact = contact_margins(
        centres=centres, supports=supports, slots=slots, pairs=pairs, points=points, which=up
    )
    return _regions_hold(model, setup, centres, np.flatnonzero(up & (contact < margin)), margin)


def _statically_stable(
    model: TowerModel, setup: _Setup, pairs: Array, points: Array, margin: float
) -> bool:
    """Whether every piece's centre of mass, with its load, lies at least ``margin`` inside
    its support region: first against its contact points, then against the geometry."""
    slots, supports = setup.slots, setup.supports
    centres = subtree_centres(model.com(slots), model.masses[slots], supports)
    contact = contact_margins(
        centres=centres, supports=supports, slots=slots, pairs=pairs, points=points
    )
    return _regions_hold(model, setup, centres, np.flatnonzero(contact < margin), margin)


def _regions_hold(
    model: TowerModel, setup: _Setup, centres: Array, weak: Indices, margin: float
) -> bool:
    """Whether each piece of ``weak`` has its centre ``centres[i]`` at least ``margin``
    inside its support region (against the geometry), stopping at the first that has not."""
    if weak.size == 0:
        return True
    positions, quaternions = model.poses(setup.slots)
    for i in weak.tolist():
        found = setup.regions.margins(positions, quaternions, centres, [i], enough=margin)
        if not found[i] >= margin:
            return False
    return True


def _outcome(model: TowerModel, setup: _Setup, track: _Track, s: RulingSettings) -> RulingOutcome:
    order, supports = setup.order, setup.supports
    pairs, _ = model.contacts()
    distance, angle = motion(track.ref_pos, track.ref_rot, *setup.frames(model))
    gone = moved(distance, angle, s.thresholds) | track.gone
    on_table = touching_table(pairs, setup.slots) & (supports >= 0) | track.on_table
    verdict = track.verdict
    if s.version >= 3 and track.spontaneous:
        verdict = "spontaneous"
    elif verdict is None:
        if track.spontaneous:
            verdict = "spontaneous"
        else:
            verdict = "fell" if (gone.any() or on_table.any()) else "stood"
    up = standing(supports, gone, on_table)
    if track.cut:
        up &= model.speeds(setup.slots, s.settle_lever) < s.tail_fall_speed
        up = _statically_standing(model, setup, up)
        track.loose = ~up
    centres = model.com(setup.slots)
    base_xy = centres[0, :2]
    pieces = []
    for i, piece in enumerate(order):
        pose = model.pose(piece)
        if up[i]:
            support = None if supports[i] < 0 else order[supports[i]]
            pieces.append(PieceRest(piece, setup.faces[i], support, pose))
        elif track.loose is not None and track.loose[i]:
            here = PieceRest(piece, setup.faces[i], None, pose)
            face, pose = lying_pose(model.catalogue, here, centre=centres[i], base_xy=base_xy)
            pieces.append(PieceRest(piece, face, None, pose))
        else:
            face = model.catalogue.shape_of(piece).identify_face(pose.quaternion)
            pieces.append(PieceRest(piece, face, None, pose))
    root = list(range(len(order)))
    for i, parent in enumerate(supports):
        if parent >= 0:
            root[i] = root[parent]
    stacks = tuple(
        tuple(order[j] for j in range(len(order)) if up[j] and root[j] == i)
        for i in range(len(order))
        if supports[i] < 0 and up[i]
    )
    return RulingOutcome(
        result=verdict,
        placement=setup.placement,
        tremor=setup.tremor,
        release=setup.released,
        pieces=tuple(pieces),
        stacks=stacks,
        on_table=tuple(order[i] for i in range(len(order)) if not up[i]),
        simulated_s=model.time,
        method=s.method,
    )


def _statically_standing(model: TowerModel, setup: _Setup, up: Mask) -> Mask:
    """The pieces of ``up`` that pass the static check, as the pieces of ``up`` stand now
    (each centre of mass, with the standing load, inside its support region): the lowest
    piece that fails it tips over with everything it carries."""
    slots, supports = setup.slots, setup.supports
    masses = np.where(up, model.masses[slots], 1e-12)
    centres = subtree_centres(model.com(slots), masses, supports)
    positions, quaternions = model.poses(slots)
    which = np.flatnonzero(up).tolist()
    found = setup.regions.margins(positions, quaternions, centres, which)
    result = up.copy()
    for i in which:
        parent = supports[i]
        if found[i] <= 0.0 or (parent >= 0 and not result[parent]):
            result[i] = False
    return result


def _beyond_reach(
    setup: _Setup, track: _Track, model: TowerModel, *, speeds: Array, s: RulingSettings
) -> bool:
    """Whether no fallen piece still moving can reach a standing one within
    ``reach_horizon_s``, at its present velocity (a ball of its reach, moved that far)."""
    up = standing(setup.supports, track.gone, track.on_table)
    loose = np.flatnonzero((speeds >= s.settle_speed) & ~up)
    if loose.size == 0 or not up.any():
        return True
    slots = setup.slots
    com = model.com(slots)
    velocity = model.velocities(slots)
    reach = model.radii[slots]
    travel = np.linalg.norm(velocity[loose], axis=1) * s.reach_horizon_s
    gaps = np.linalg.norm(com[loose, None, :] - com[None, up, :], axis=2)
    return bool((gaps > reach[loose, None] + reach[None, up] + travel[:, None]).all())


def _guarded(
    setup: _Setup, track: _Track, model: TowerModel, *, speeds: Array, s: RulingSettings
) -> bool:
    """Whether every standing piece moves slower than ``sway_speed`` and every fallen
    piece still moving is farther than ``guard_gap`` from every standing piece."""
    up = standing(setup.supports, track.gone, track.on_table)
    if not up.any():
        return True
    if (speeds[up] >= s.sway_speed).any():
        return False
    standing_slots = set(setup.slots[up].tolist())
    for i in np.flatnonzero((speeds >= s.guard_speed) & ~up).tolist():
        near = model.distances(setup.order[i], s.guard_gap)
        if standing_slots.intersection(near):
            return False
    return True


def hold(model: TowerModel, tower: Sequence[PieceRest], seconds: float) -> tuple[PieceRest, ...]:
    """The tower after ``seconds`` of simulation with nothing added (faces and supports as
    recorded): to see whether it stays where it settled."""
    rests = check_tower(model.catalogue, tower)
    model.reset({piece: rest.pose for piece, rest in rests.items()})
    model.step(round(seconds / model.settings.timestep))
    return tuple(
        PieceRest(rest.piece, rest.face, rest.support, model.pose(rest.piece)) for rest in tower
    )
