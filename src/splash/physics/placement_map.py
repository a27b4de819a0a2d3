"""The placement map of Splash!: where the gift may go on its target (T06, TD13), and where
it would stand steadiest.

For every resting face of the gift and every turn about the vertical (steps of
:data:`TURN_STEP_DEG` over the face's symmetry), :func:`placement_map` gives, in the
target's top frame (the frame of :attr:`Placement.offset <splash.physics.placement.Placement>`,
in millimetres):

* **the T06 region**: the centre offsets at which the chosen pose passes the T06 check
  (:func:`~splash.physics.placement.check_contacts`): within :data:`TOUCH_MM` of the target,
  at least that far from every other piece and from the table;
* **the safe region**: the T06 region shrunk by :data:`SAFE_MM`;
* **the steadiest pose**: the point of the safe region with the largest static margin
  against tipping (:func:`~splash.physics.static_ruling.rule_with_margin`, no tremor).

How (``docs/placement-map.md``): the piece slides at a fixed height (flush on the target's
top), so the offsets at which one convex part of the piece comes within the tolerance of
one convex part of an obstacle are the slice, by that plane, of their Minkowski difference
grown by the tolerance: a convex polygon.  A part with vertical sides (a box, a standing
prism or cylinder) gives it as the outline of the obstacle between the part's bottom and
top heights, grown, summed with the part's turned outline; a part lying on its side (a
prism on its rectangle, a cylinder on its curve) is sliced level by level.  Curved parts are
polygons of :data:`ROUND_SEGMENTS` sides.  The region is the union of the target's polygons
less the union of every other obstacle's, clipped to the offsets the rules allow.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import shapely
from numpy.typing import NDArray

from splash.core.errors import SplashError
from splash.core.i18n import Message, message
from splash.games.tower.catalogue import BoxPart, Catalogue, CylinderPart, PrismPart, Shape
from splash.games.tower.geometry import Array, Transform, convex_hull_2d, inside_distance
from splash.games.tower.rules import MAX_OFFSET_MM
from splash.physics.errors import InvalidPlacementError, PlacementRefusedError
from splash.physics.model import TowerModel
from splash.physics.placement import TOUCH_TOLERANCE, Placement, Tremor, check_tower, target_frame
from splash.physics.poses import TABLE, PieceRest
from splash.physics.static_ruling import rule_with_margin, support_region_of
from splash.physics.statics import LINE_TOLERANCE

TOUCH_MM = TOUCH_TOLERANCE * 1000.0
"""Two bodies closer than this (mm) touch (T06)."""
SAFE_MM = 0.25
"""How far (mm) the safe region lies inside the T06 region."""
TURN_STEP_DEG = 15
"""The step of the turns of the map (degrees)."""
ROUND_SEGMENTS = 48
"""Sides of the polygon that stands for a round part (a multiple of 360 / 15)."""
PRECISION_MM = 0.1
"""The grid (mm) the map's polygons and points are rounded to."""

Ring = tuple[tuple[float, float], ...]
"""A closed outline as its vertices (not repeated at the end), in mm."""
Polygon = tuple[Ring, ...]
"""A polygon: its outer ring (counter-clockwise), then its holes (clockwise)."""
Polygons = tuple[Polygon, ...]
"""A region: disjoint polygons."""
IntArray = NDArray[np.intp]

_EPS = 1e-6
_TIERS = tuple((reach, math.sqrt(1.0 - reach * reach)) for reach in (0.0, 0.5, 0.8, 0.98))
"""How far above or below a part (fractions of the tolerance) an obstacle is sought, and
how far beside it then: a point at both is within the tolerance."""
_CACHE_SIZE = 256


class PlacementMapError(InvalidPlacementError):
    """A placement map that cannot be made: an unknown piece or target, a piece already in
    the tower, or a part the map cannot slice (``piece`` and ``target`` name the request)."""

    def __init__(self, piece: str, target: str, problem: Message) -> None:
        self.piece = piece
        self.target = target
        super().__init__(f"{piece} on {target}", problem)


@dataclass(frozen=True)
class Steadiest:
    """The steadiest pose of one face and turn: its offset (mm) and its static margin (mm,
    the least on the path from the piece down to the table; not positive: it would fall)."""

    x_mm: float
    y_mm: float
    margin_mm: float

    def to_json(self) -> dict[str, float]:
        """``{"x_mm", "y_mm", "margin_mm"}``."""
        return {"x_mm": self.x_mm, "y_mm": self.y_mm, "margin_mm": self.margin_mm}


@dataclass(frozen=True)
class FaceTurn:
    """The map of one face and turn: the T06 region, the safe region (both in mm, rounded
    to :data:`PRECISION_MM`) and the steadiest pose (``None`` when the safe region is empty)."""

    region: Polygons
    safe: Polygons
    steadiest: Steadiest | None

    def to_json(self) -> dict[str, Any]:
        """``{"regions", "safe", "steadiest"}``: polygons as lists of rings of ``[x, y]``."""
        return {
            "regions": _polygons_json(self.region),
            "safe": _polygons_json(self.safe),
            "steadiest": None if self.steadiest is None else self.steadiest.to_json(),
        }


@dataclass(frozen=True)
class PlacementMap:
    """Where the gift may go on ``target``: per face, per turn (degrees, ``0 <= turn <
    360``, counter-clockwise), a :class:`FaceTurn`.  A ``forced`` gift (no pose anywhere
    touches nothing else) has no faces.  ``index`` optionally numbers the placement."""

    target: str
    forced: bool
    faces: Mapping[str, Mapping[int, FaceTurn]]
    index: int | None = None

    def to_json(self) -> dict[str, Any]:
        """``{index?, target, forced, faces: {face: {turn: FaceTurn.to_json()}}}`` (turns
        as strings, JSON keys)."""
        doc: dict[str, Any] = {} if self.index is None else {"index": self.index}
        doc |= {
            "target": self.target,
            "forced": self.forced,
            "faces": {
                face: {str(turn): cell.to_json() for turn, cell in turns.items()}
                for face, turns in self.faces.items()
            },
        }
        return doc


def _polygons_json(polygons: Polygons) -> list[list[list[list[float]]]]:
    return [[[[x, y] for x, y in ring] for ring in polygon] for polygon in polygons]


def as_geometry(polygons: Polygons) -> Any:
    """A region as a shapely (Multi)Polygon, for tests of points against the map."""
    return shapely.MultiPolygon([(p[0], list(p[1:])) for p in polygons])


# --- The parts of the shapes -----------------------------------------------------------


@dataclass(frozen=True, eq=False)
class _Solid:
    """A convex part (mm): its vertices, its edges and the directions it is a prism along."""

    points: Array
    edges: IntArray
    axes: tuple[Array, ...] = ()


def _ngon(radius: float, count: int) -> Array:
    """A regular polygon about the origin, its sides halfway between inscribed and
    circumscribed about the circle of ``radius``, counter-clockwise from +x."""
    mean = radius * (1.0 + 1.0 / math.cos(math.pi / count)) / 2.0
    angles = np.arange(count) * (2.0 * math.pi / count)
    return np.column_stack([np.cos(angles), np.sin(angles)]) * mean


def _part_solid(part: BoxPart | PrismPart | CylinderPart) -> _Solid:
    centre = np.asarray(part.centre, dtype=np.float64) * 1000.0
    if isinstance(part, CylinderPart):
        n = ROUND_SEGMENTS
        ring = _ngon(part.radius * 1000.0, n)
        half = part.length * 500.0
        points = (
            np.concatenate([np.column_stack([ring, np.full(n, z)]) for z in (-half, half)]) + centre
        )
        i = np.arange(n)
        edges = np.concatenate(
            [
                np.column_stack([i, (i + 1) % n]),
                np.column_stack([i + n, (i + 1) % n + n]),
                np.column_stack([i, i + n]),
            ]
        )
        return _Solid(points, edges, (np.array([0.0, 0.0, 1.0]),))
    points = part.points() * 1000.0
    if isinstance(part, PrismPart):
        pairs = [(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 3), (0, 3), (1, 4), (2, 5)]
        return _Solid(points, np.array(pairs), (np.array([0.0, 1.0, 0.0]),))
    pairs = [(i, i | bit) for bit in (1, 2, 4) for i in range(8) if not i & bit]
    return _Solid(points, np.array(pairs), tuple(np.eye(3)))


@cache
def _body_solids(shape: Shape) -> tuple[_Solid, ...]:
    return tuple(_part_solid(part) for part in shape.parts)


@dataclass(frozen=True, eq=False)
class _Upright:
    """A part with vertical sides: its outline (resting frame, turn 0) from ``low`` to
    ``high`` (mm)."""

    outline: Array
    low: float
    high: float


@dataclass(frozen=True, eq=False)
class _Lying:
    """A part lying along the horizontal ``axis``: its section (across the axis, height),
    that section grown by the tolerance, and the heights where their widths change slope."""

    axis: Array
    across: Array
    along: tuple[float, float]
    section: Array
    grown: Array
    levels: Array


@dataclass(frozen=True, eq=False)
class _Face:
    """The gift on one face: its parts, height, reach and turns, the height of its centre
    of mass, how deep that centre lies in its footprint and whether it rests on a line."""

    name: str
    parts: tuple[_Upright | _Lying, ...]
    height: float
    reach: float
    turns: tuple[int, ...]
    com_height: float
    own_margin: float
    on_line: bool
    feet: tuple[Array, ...]
    foot_hulls: tuple[Array, ...]
    foot_depths: tuple[float, ...]


def _subset_hulls(polygons: Sequence[Array]) -> list[Array]:
    """The hull of each subset of ``polygons``, by bit mask (index 0: nothing)."""
    hulls = [np.zeros((0, 2))]
    for mask in range(1, 1 << len(polygons)):
        chosen = [p for i, p in enumerate(polygons) if mask >> i & 1]
        hulls.append(convex_hull_2d(np.concatenate(chosen)))
    return hulls


def _shape_part(solid: _Solid, rest: Transform) -> _Upright | _Lying | None:
    points = rest.apply(solid.points)
    directions = [rest.rotation @ axis for axis in solid.axes]
    if any(abs(abs(direction[2]) - 1.0) < 1e-9 for direction in directions):
        outline = convex_hull_2d(points[:, :2])
        return _Upright(outline, float(points[:, 2].min()), float(points[:, 2].max()))
    for direction in directions:
        if abs(direction[2]) < 1e-9:
            e = direction[:2] / np.hypot(*direction[:2])
            across = np.array([-e[1], e[0]])
            along = points[:, :2] @ e
            section = convex_hull_2d(np.column_stack([points[:, :2] @ across, points[:, 2]]))
            disk = _ngon(TOUCH_MM, ROUND_SEGMENTS)
            grown = convex_hull_2d((section[:, None, :] + disk[None, :, :]).reshape(-1, 2))
            levels = np.unique(np.round(np.concatenate([section[:, 1], grown[:, 1]]), 9))
            return _Lying(
                e, across, (float(along.min()), float(along.max())), section, grown, levels
            )
    return None


def _symmetry(points: Array) -> int:
    """The least turn (a multiple of :data:`TURN_STEP_DEG`) that maps ``points`` onto
    themselves, 360 if none."""
    for turn in range(TURN_STEP_DEG, 360, TURN_STEP_DEG):
        turned = points @ _yaw(turn).T
        gaps = np.abs(turned[:, None, :] - points[None, :, :]).max(axis=2).min(axis=1)
        if float(gaps.max()) < 1e-6:
            return turn
    return 360


def _yaw(turn_deg: float) -> Array:
    a = math.radians(turn_deg)
    return np.array([[math.cos(a), -math.sin(a), 0.0], [math.sin(a), math.cos(a), 0.0], [0, 0, 1]])


@cache
def _face(shape: Shape, face: str) -> _Face:
    resting = shape.resting(face)
    rest = Transform(resting.transform.rotation, resting.transform.translation * 1000.0)
    solids = _body_solids(shape)
    parts = []
    for solid in solids:
        part = _shape_part(solid, rest)
        if part is None:
            raise ValueError(f"{shape.name} on {face}: a part is neither upright nor lying")
        parts.append(part)
    points = np.concatenate([rest.apply(s.points) for s in solids])
    support = resting.support * 1000.0
    on_line = all(len(f) < 3 for f in resting.footprint)
    own = (
        float(np.hypot(*(support[-1] - support[0]))) / 2
        if on_line
        else inside_distance(np.zeros(2), support)
    )
    feet = tuple(f * 1000.0 for f in resting.footprint if len(f) >= 3)
    hulls = _subset_hulls(feet)
    depths = [-math.inf] + [inside_distance(np.zeros(2), h) for h in hulls[1:]]
    return _Face(
        name=face,
        parts=tuple(parts),
        height=resting.height * 1000.0,
        reach=float(np.hypot(points[:, 0], points[:, 1]).max()),
        turns=tuple(range(0, _symmetry(points), TURN_STEP_DEG)),
        com_height=resting.centre_of_mass_height * 1000.0,
        own_margin=float(own),
        on_line=on_line,
        feet=feet,
        foot_hulls=tuple(hulls),
        foot_depths=tuple(depths),
    )


# --- Minkowski slices ------------------------------------------------------------------


def _slab(solid: _Solid, low: float, high: float) -> Array:
    """Points whose hull is the outline (x, y) of ``solid`` between heights ``low`` and
    ``high``."""
    z = solid.points[:, 2]
    found = [solid.points[(z >= low - _EPS) & (z <= high + _EPS), :2]]
    a, b = solid.points[solid.edges[:, 0]], solid.points[solid.edges[:, 1]]
    for plane in (low, high):
        za, zb = a[:, 2] - plane, b[:, 2] - plane
        cut = za * zb < 0.0
        t = (za[cut] / (za[cut] - zb[cut]))[:, None]
        found.append(a[cut, :2] + t * (b[cut, :2] - a[cut, :2]))
    return np.concatenate(found)


def _grown_outline(solid: _Solid, part: _Upright) -> Array:
    """Points whose hull is where ``solid`` lies within the tolerance of the height range
    of ``part``, seen from above and grown by the tolerance (an inner bound, tier by tier:
    a tier that finds the same outline as the one before adds nothing)."""
    clouds = []
    before = np.zeros((0, 2))
    for reach, beside in _TIERS:
        points = _slab(solid, part.low - reach * TOUCH_MM, part.high + reach * TOUCH_MM)
        if len(points) and not (
            points.shape == before.shape and np.allclose(points, before, rtol=0.0, atol=1e-3)
        ):
            disk = _ngon(beside * TOUCH_MM, 12)
            clouds.append((points[:, None, :] + disk[None, :, :]).reshape(-1, 2))
        before = points
    return np.concatenate(clouds) if clouds else np.zeros((0, 2))


def _minkowski(fixed: Array, turned: Array) -> Array:
    """The Minkowski sums of the convex polygon ``fixed`` (``(n, 2)``) with each of the
    convex polygons ``turned`` (``(T, m, 2)``), all counter-clockwise: ``(T, n + m, 2)``
    (edges merged by angle, from the lowest corners)."""
    count = len(turned)
    a = np.broadcast_to(fixed, (count, *fixed.shape))
    polygons = np.concatenate([a, turned], axis=1)
    edges = np.concatenate(
        [np.roll(a, -1, axis=1) - a, np.roll(turned, -1, axis=1) - turned], axis=1
    )
    angles = np.mod(np.arctan2(edges[..., 1], edges[..., 0]), 2.0 * math.pi)
    n = len(fixed)
    first_a = np.argmin(angles[:, :n], axis=1)
    first_b = n + np.argmin(angles[:, n:], axis=1)
    rows = np.arange(count)
    start = polygons[rows, first_a] + polygons[rows, first_b]
    order = np.argsort(angles, axis=1, kind="stable")
    steps = np.take_along_axis(edges, order[..., None], axis=1)
    walk = np.cumsum(steps, axis=1) - steps
    return np.asarray(start[:, None, :] + walk, dtype=np.float64)


def _chords(polygon: Array, levels: Array) -> tuple[Array, Array, NDArray[np.bool_]]:
    """The least and greatest first coordinate of the convex ``polygon`` (first coordinate,
    height) at each height of ``levels``, and whether the polygon reaches that height."""
    a, b = polygon, np.roll(polygon, -1, axis=0)
    za, zb = a[:, 1][None, :], b[:, 1][None, :]
    z = levels[:, None]
    low, high = np.minimum(za, zb), np.maximum(za, zb)
    hit = (z >= low - _EPS) & (z <= high + _EPS)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(high - low > _EPS, (z - za) / (zb - za), 0.0)
    x = a[:, 0][None, :] + np.clip(t, 0.0, 1.0) * (b[:, 0] - a[:, 0])[None, :]
    low_x = np.asarray(np.where(hit, x, np.inf).min(axis=1), dtype=np.float64)
    high_x = np.asarray(np.where(hit, x, -np.inf).max(axis=1), dtype=np.float64)
    return low_x, high_x, np.asarray(hit.any(axis=1), dtype=bool)


def _slices(solid: _Solid, levels: Array) -> tuple[Array, NDArray[np.bool_]]:
    """The corners of ``solid``'s slice at each height of ``levels``: points ``(L, P, 2)``
    and which of them count ``(L, P)`` (its vertices at that height, its edges' crossings)."""
    z = solid.points[:, 2]
    at = np.abs(z[None, :] - levels[:, None]) <= _EPS
    corners = np.broadcast_to(solid.points[None, :, :2], (len(levels), len(z), 2))
    a, b = solid.points[solid.edges[:, 0]], solid.points[solid.edges[:, 1]]
    za = a[None, :, 2] - levels[:, None]
    zb = b[None, :, 2] - levels[:, None]
    cut = za * zb < 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(cut, za / (za - zb), 0.0)
    crossings = a[None, :, :2] + t[:, :, None] * (b - a)[None, :, :2]
    return np.concatenate([corners, crossings], axis=1), np.concatenate([at, cut], axis=1)


_DIRECTIONS = np.column_stack(
    [np.cos(np.arange(16) * math.pi / 8), np.sin(np.arange(16) * math.pi / 8)]
)
_ALIKE_MM = 0.005
"""Slices of an obstacle that differ by less than this (mm) count as one."""


def _lying_groups(solid: _Solid, part: _Lying) -> list[tuple[Array, Array]]:
    """The slices of ``solid`` at the heights where the grown lying ``part`` or ``solid``
    changes, in runs of alike slices: for each run, one slice's corners and the corners of
    the part's grown sections over the run (resting frame, turn 0).  The slice of the
    Minkowski difference is the hull of ``corners - sections`` over the runs."""
    z = solid.points[:, 2]
    low = max(float(z.min()), float(part.grown[:, 1].min()))
    high = min(float(z.max()), float(part.grown[:, 1].max()))
    if low > high + _EPS:
        return []
    levels = np.unique(np.concatenate([part.levels, z]))
    levels = levels[(levels >= low - _EPS) & (levels <= high + _EPS)]
    points, counts = _slices(solid, levels)
    support = np.where(counts[:, :, None], points @ _DIRECTIONS.T, -np.inf).max(axis=1)
    lo_d, hi_d, _ = _chords(part.grown, levels)
    lo_0, hi_0, has_0 = _chords(part.section, levels)
    start, end = part.along
    d = TOUCH_MM
    groups: list[tuple[Array, Array]] = []
    first = 0
    for i in range(1, len(levels) + 1):
        if i < len(levels) and np.abs(support[i] - support[first]).max() <= _ALIKE_MM:
            continue
        run = np.arange(first, i)
        cut = [(s, c) for s in (start, end) for c in (*lo_d[run], *hi_d[run])]
        inner = run[has_0[run]]
        cut += [(s, c) for s in (start - d, end + d) for c in (*lo_0[inner], *hi_0[inner])]
        sc = np.array(cut)
        ends = sc[:, :1] * part.axis + sc[:, 1:] * part.across
        groups.append((points[first][counts[first]], ends))
        first = i
    return groups


def _hulls(clouds: Sequence[Array]) -> list[Any]:
    """The convex hull of each point cloud (shapely geometries, ``None`` for an empty one)."""
    sizes = np.array([len(c) for c in clouds])
    keep = np.flatnonzero(sizes > 0)
    result: list[Any] = [None] * len(clouds)
    if len(keep) == 0:
        return result
    points = np.concatenate([clouds[int(i)] for i in keep])
    lines = shapely.linestrings(points, indices=np.repeat(np.arange(len(keep)), sizes[keep]))
    for i, hull in zip(keep, shapely.convex_hull(lines), strict=True):
        result[int(i)] = hull
    return result


def _ccw(hull: Any) -> Array:
    """The corners of a convex hull, counter-clockwise, not repeated."""
    coords = np.asarray(shapely.get_coordinates(hull), dtype=np.float64)
    steps = np.hypot(*(np.roll(coords, -1, axis=0) - coords).T)
    coords = coords[steps > 1e-7]
    x, y = coords.T
    area = float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))
    return np.array(coords[::-1] if area < 0 else coords, dtype=np.float64)


def _face_polygons(face: _Face, solids: Sequence[_Solid]) -> list[list[tuple[int, Any]]]:
    """For each turn of ``face``, the polygons of offsets at which the gift comes within
    the tolerance of one of ``solids`` (target-frame parts), each with that solid's index."""
    upright = [(p, i) for p in face.parts if isinstance(p, _Upright) for i in range(len(solids))]
    lying = [
        (i, groups)
        for p in face.parts
        if isinstance(p, _Lying)
        for i, solid in enumerate(solids)
        if (groups := _lying_groups(solid, p))
    ]
    firsts = [_grown_outline(solids[i], p) for p, i in upright]
    firsts += [ends for _, groups in lying for _, ends in groups]
    hulls = [np.zeros((0, 2)) if h is None else _ccw(h) for h in _hulls(firsts)]
    sums: list[Array] = []
    sum_owners: list[int] = []
    for (part, index), grown in zip(upright, hulls, strict=False):
        if len(grown) < 3:
            continue
        turned = np.stack([-(part.outline @ _yaw(turn)[:2, :2].T) for turn in face.turns])
        sums.extend(_minkowski(grown, turned))
        sum_owners.extend([index] * len(face.turns))
    clouds: list[Array] = []
    owners: list[int] = []
    sections = iter(hulls[len(upright) :])
    for index, groups in lying:
        runs = [(corners, next(sections)) for corners, _ in groups]
        for turn in face.turns:
            rotation = _yaw(turn)[:2, :2]
            parts = [(c[:, None, :] - (e @ rotation.T)[None, :, :]).reshape(-1, 2) for c, e in runs]
            clouds.append(np.concatenate(parts))
            owners.append(index)
    per_turn: list[list[tuple[int, Any]]] = [[] for _ in face.turns]
    polygons: list[Any] = []
    if sums:
        sizes = [len(corners) for corners in sums]
        rings = shapely.linearrings(
            np.concatenate(sums), indices=np.repeat(np.arange(len(sums)), sizes)
        )
        polygons = list(shapely.polygons(rings))
    for i, polygon in enumerate([*polygons, *_hulls(clouds)]):
        if polygon is not None and shapely.get_type_id(polygon) == 3:
            per_turn[i % len(face.turns)].append(([*sum_owners, *owners][i], polygon))
    return per_turn


# --- The tower around the target -------------------------------------------------------


def _moved(solid: _Solid, frame: Transform) -> _Solid:
    return _Solid(frame.apply(solid.points), solid.edges)


def _mm(frame: Transform) -> Transform:
    return Transform(frame.rotation, frame.translation * 1000.0)


def _table(top: Transform) -> _Solid:
    """The table as a large box under the plane z = 0, around the target (mm, world)."""
    x, y = top.translation[:2]
    box = BoxPart(kind="box", size=[2.0, 2.0, 0.1], centre=[x / 1000.0, y / 1000.0, -0.05])
    return _part_solid(box)


@dataclass(frozen=True, eq=False)
class _Scene:
    """The target's parts and the nearby obstacles, in the target's top frame (mm)."""

    target: tuple[_Solid, ...]
    obstacles: tuple[_Solid, ...]
    reach: float


def _scene(
    catalogue: Catalogue, rests: Mapping[str, PieceRest], target: str, top: Transform, window: float
) -> _Scene:
    inverse = _mm(top).inverse()
    own: list[_Solid] = []
    others: list[_Solid] = []
    for piece, rest in rests.items():
        body = _mm(rest.pose.transform())
        for solid in _body_solids(catalogue.shape_of(piece)):
            (own if piece == target else others).append(_moved(_moved(solid, body), inverse))
    if target != TABLE:
        others.append(_moved(_table(_mm(top)), inverse))
    reach = (
        MAX_OFFSET_MM * math.sqrt(2.0)
        if target == TABLE
        else max(float(np.hypot(*s.points[:, :2].T).max()) for s in own)
    )
    near = []
    for solid in others:
        low, high = solid.points.min(axis=0), solid.points.max(axis=0)
        gap = np.hypot(*np.maximum(0.0, np.maximum(low[:2], -high[:2])))
        if gap <= reach + window and high[2] >= -2 * TOUCH_MM:
            near.append(solid)
    return _Scene(tuple(own), tuple(near), reach)


def _regions(face: _Face, scene: _Scene, on_table: bool) -> list[Any]:
    """The T06 region (a shapely geometry, mm, not rounded) of each turn of ``face``."""
    limit = MAX_OFFSET_MM
    square = shapely.box(-limit, -limit, limit, limit)
    slab = [s for s in scene.obstacles if s.points[:, 2].min() <= face.height + 2 * TOUCH_MM]
    solids = [*scene.target, *slab]
    polygons = _face_polygons(face, solids)
    count = len(scene.target)
    touching = _rows([[p for i, p in found if i < count] for found in polygons])
    blocking = _rows([[p for i, p in found if i >= count] for found in polygons])
    if on_table:
        touch = np.full(len(polygons), square, dtype=object)
    else:
        touch = shapely.intersection(shapely.union_all(touching, axis=1), square)
    regions = shapely.difference(touch, shapely.union_all(blocking, axis=1))
    return list(regions)


def _rows(groups: Sequence[Sequence[Any]]) -> Array:
    """Groups of geometries as the rows of an object array, padded with ``None``."""
    rows = np.full((len(groups), max([1, *map(len, groups)])), None, dtype=object)
    for k, group in enumerate(groups):
        rows[k, : len(group)] = group
    return rows


# --- The steadiest pose ----------------------------------------------------------------

_GRID_POINTS = 120
"""About how many points of a safe region the steadiest pose is first sought among."""
_CONFIRMED = 3
"""How many candidates are tried, best first, before a face and turn has no steadiest pose."""
_SPARSE = 12
"""Below this many grid points in a safe region, its poles are tried as well."""


def _half_planes(outline: Array) -> tuple[Array, Array]:
    """The inner unit normals and offsets of a convex counter-clockwise outline: a point's
    depth inside it is ``min(normals @ p - offsets)``."""
    edges = np.roll(outline, -1, axis=0) - outline
    normals = np.column_stack([-edges[:, 1], edges[:, 0]])
    normals /= np.maximum(np.hypot(*normals.T), 1e-12)[:, None]
    return normals, np.einsum("ij,ij->i", normals, outline)


@dataclass(frozen=True, eq=False)
class _Path:
    """What the static margin of a pose depends on, as functions of the offset ``t`` (mm)
    and of the height ``h`` of the gift's centre of mass over the target's top; ``linear``
    maps ``(t, h)`` to world x-y (the ruling measures margins there).  The gift rests on the
    target's top surfaces ``tops`` (top frame; none on the table; ``top_planes``: the
    half-planes of the hull of each subset of them seen from above, by bit mask).  Each side
    of the support region of each piece under it, loaded with the gift, gives a depth
    ``rows @ t + heights * h + constants``; a piece resting on a line gives ``(segment, on a
    piece, weight, centre)``, its load's centre at ``weight * (linear @ (t, h)) + centre``."""

    tops: tuple[Array, ...]
    top_planes: tuple[tuple[Array, Array], ...]
    rows: Array
    heights: Array
    constants: Array
    linear: Array
    lines: tuple[tuple[Array, bool, float, Array], ...]


def _path(
    catalogue: Catalogue, rests: Mapping[str, PieceRest], target: str, top: Transform, mass: float
) -> _Path:
    frame = _mm(top)
    linear, origin = frame.rotation[:2, :], frame.translation[:2]
    empty = np.zeros((0, 2))
    if target == TABLE:
        return _Path((), (), empty, np.zeros(0), np.zeros(0), linear, ())
    masses = {p: catalogue.shape_of(p).mass for p in rests}
    moments = {
        p: masses[p] * r.pose.transform().apply(catalogue.shape_of(p).centre_of_mass)[:2] * 1000
        for p, r in rests.items()
    }
    for piece, rest in reversed(list(rests.items())):
        if rest.support is not None:
            masses[rest.support] += masses[piece]
            moments[rest.support] = moments[rest.support] + moments[piece]
    pose = catalogue.shape_of(target).resting(rests[target].face)
    tops = tuple(t * 1000.0 for t in pose.top_surfaces if len(t) >= 3)
    planes = tuple(
        _half_planes(h @ linear[:, :2].T) if len(h) >= 3 else (empty, np.zeros(0))
        for h in _subset_hulls(tops)
    )
    rows: list[Array] = [empty]
    heights: list[Array] = [np.zeros(0)]
    constants: list[Array] = [np.zeros(0)]
    lines = []
    current: str | None = target
    while current is not None:
        rest = rests[current]
        under = None if rest.support is None else rests[rest.support]
        region, on_line = support_region_of(catalogue, rest, under)
        region = region * 1000.0
        weight = mass / (masses[current] + mass)
        centre = (moments[current] + mass * origin) / (masses[current] + mass)
        if on_line and len(region):
            lines.append((region[[0, -1]], under is not None, weight, centre))
        elif len(region) >= 3:
            normals, offsets = _half_planes(region)
            rows.append(weight * normals @ linear[:, :2])
            heights.append(weight * normals @ linear[:, 2])
            constants.append(normals @ centre - offsets)
        else:
            rows.append(np.zeros((1, 2)))
            heights.append(np.zeros(1))
            constants.append(np.array([-np.inf]))
        current = rest.support
    return _Path(
        tops,
        planes,
        np.concatenate(rows),
        np.concatenate(heights),
        np.concatenate(constants),
        linear,
        tuple(lines),
    )


@dataclass(frozen=True, eq=False)
class _Stand:
    """The gift on one face at each of its turns, as the static margin of an offset ``t``
    sees it (world x-y axes, mm).  Per turn: its feet about the offset (``feet[i]``:
    ``(turns, corners, 2)``), the depth of its centre of mass (``shift`` from the offset) in
    the hull of each subset of them (``foot_depths``: ``(turns, masks)``), and for each foot
    ``i`` and top ``j`` the half-planes of the offsets at which they overlap (their Minkowski
    difference; ``(turns, sides, 2)`` and ``(turns, sides)``) and, for each foot and top,
    the half-planes of the offsets at which the foot lies inside the top (``within``: the
    top's normals and ``(turns, sides)`` offsets).  For every turn: the depths
    ``rows @ t + constants`` in the hull of the tops that the feet overlap (``tops``, by bit
    mask) and in the support regions of the pieces under it (``rows``, ``constants``; with
    the tops' hull when one foot meets one top, and the bound is the ruling's margin)."""

    face: _Face
    linear: Array
    shift: Array
    feet: tuple[Array, ...]
    foot_depths: Array
    overlaps: tuple[tuple[int, int, Array, Array], ...]
    within: tuple[tuple[int, Array, Array], ...]
    tops: tuple[tuple[Array, Array], ...]
    rows: Array
    constants: Array


def _batch_planes(outlines: Array) -> tuple[Array, Array]:
    """:func:`_half_planes` of each outline of ``(n, corners, 2)``."""
    edges = np.roll(outlines, -1, axis=1) - outlines
    normals = np.stack([-edges[..., 1], edges[..., 0]], axis=-1)
    normals /= np.maximum(np.hypot(normals[..., 0], normals[..., 1]), 1e-12)[..., None]
    return normals, np.einsum("tij,tij->ti", normals, outlines)


def _stand(path: _Path, face: _Face) -> _Stand:
    """The gift on ``face`` at each of its turns (a target seen from above within a
    milliradian of level counts as level)."""
    linear = path.linear[:, :2]
    shift = path.linear[:, 2] * face.com_height
    rotations = np.stack([_yaw(turn)[:2, :2] for turn in face.turns])
    maps = np.einsum("ij,tjk->tik", linear, rotations)
    feet = tuple(np.einsum("tij,nj->tni", maps, foot) for foot in face.feet)
    if abs(linear - np.eye(2)).max() <= 1e-3 and abs(shift).max() <= 1e-3:
        depths = np.tile(np.asarray(face.foot_depths, dtype=np.float64), (len(maps), 1))
    else:
        depths = np.full((len(maps), len(face.foot_hulls)), -np.inf)
        for k, hull in enumerate(face.foot_hulls):
            if len(hull) >= 3:
                normals, offsets = _batch_planes(np.einsum("tij,nj->tni", maps, hull))
                depths[:, k] = (normals @ shift - offsets).min(axis=1)
    overlaps = []
    within = []
    if len(face.feet) * len(path.tops) > 1:
        for i, foot in enumerate(face.feet):
            turned = -np.einsum("tij,nj->tni", rotations, foot)
            for j, top in enumerate(path.tops):
                overlaps.append((i, j, *_batch_planes(_minkowski(top, turned))))
                normals, offsets = _half_planes(top)
                reach = np.einsum("ei,tni->ten", normals, turned).max(axis=2)
                within.append((i, normals, offsets + reach))
    tops = tuple((n @ linear, n @ shift - o) for n, o in path.top_planes)
    rows = [path.rows]
    constants = [path.heights * face.com_height + path.constants]
    if not overlaps and path.tops:
        rows.append(tops[-1][0])
        constants.append(tops[-1][1])
    return _Stand(
        face,
        linear,
        shift,
        feet,
        depths,
        tuple(overlaps),
        tuple(within),
        tops,
        np.concatenate(rows),
        np.concatenate(constants),
    )


def _own_bound(path: _Path, stand: _Stand, turns: IntArray, points: Array) -> Array:
    """The margin of the gift's centre of mass in its own support region at each offset
    (of the turn of that index), bounded from above where the overlaps decide it: in the
    hull of the feet that overlap a top and in the hull of the tops that a foot overlaps."""
    face = stand.face
    if not path.top_planes:
        return np.full(len(points), face.own_margin)
    if not path.tops:
        return np.full(len(points), -np.inf)
    if not stand.overlaps:
        margin = (
            stand.foot_depths[turns, -1] if stand.feet else np.full(len(points), face.own_margin)
        )
    else:
        feet = np.zeros(len(points), dtype=np.int64)
        tops = np.zeros(len(points), dtype=np.int64)
        for i, j, normals, offsets in stand.overlaps:
            depth = np.einsum("pi,pei->pe", points, normals[turns]) - offsets[turns]
            hit = (depth.min(axis=1) > 1e-6).astype(np.int64)
            feet |= hit << i
            tops |= hit << j
        margin = stand.foot_depths[turns, feet]
        for mask in np.unique(tops):
            chosen = tops == mask
            rows, constants = stand.tops[mask]
            if len(constants):
                depth = (points[chosen] @ rows.T + constants).min(axis=1)
            else:
                depth = np.full(int(chosen.sum()), -np.inf)
            margin[chosen] = np.minimum(margin[chosen], depth)
    return np.minimum(margin, 0.0) if face.on_line else np.asarray(margin, dtype=np.float64)


def _own_exact(path: _Path, stand: _Stand, turns: IntArray, points: Array) -> Array:
    """The margin of the gift's centre of mass in its own support region at each offset,
    as the ruling finds it: in the hull of the overlaps of its feet with the target's tops
    (:func:`~splash.physics.statics.support_region`), seen from above."""
    count = len(points)
    moved = points @ stand.linear.T
    tops = shapely.polygons([top @ stand.linear.T for top in path.tops])
    pieces, owners = [], []
    for i, j, normals, offsets in stand.overlaps:
        depth = np.einsum("pi,pei->pe", points, normals[turns]) - offsets[turns]
        hit = np.flatnonzero(depth.min(axis=1) > 1e-6)
        feet = shapely.polygons(stand.feet[i][turns[hit]] + moved[hit, None])
        pieces.append(shapely.intersection(feet, tops[j]))
        owners.append(hit)
    margin = np.full(count, -np.inf)
    if not pieces:
        return margin
    coords, index = shapely.get_coordinates(np.concatenate(pieces), return_index=True)
    if len(index) == 0:
        return margin
    owner = np.concatenate(owners)[index]
    order = np.argsort(owner, kind="stable")
    owners = owner[order]
    hulls = shapely.convex_hull(shapely.linestrings(coords[order], indices=owners))
    present = np.unique(owners)
    centres = shapely.points(moved[present] + stand.shift)
    distance = shapely.distance(shapely.boundary(hulls), centres)
    margin[present] = np.where(shapely.contains(hulls, centres), distance, -distance)
    return margin


def _line_depth(points: Array, segment: Array) -> Array:
    """How far each point lies along a segment of support, inside it (negative: its
    distance beside the segment's line, when farther than the ruling's tolerance)."""
    a, b = segment
    length = float(np.hypot(*(b - a)))
    if length < 1e-9:
        return np.asarray(-np.hypot(*(points - a).T), dtype=np.float64)
    unit = (b - a) / length
    t = (points - a) @ unit
    beside = np.abs((points - a) @ np.array([-unit[1], unit[0]]))
    inside = np.minimum(t, length - t)
    return np.asarray(np.where(beside > LINE_TOLERANCE * 1000.0, -beside, inside), dtype=np.float64)


def _estimate(path: _Path, stand: _Stand, turns: IntArray, points: Array) -> Array:
    """A cheap static margin (mm) of the gift at each offset of ``points`` (each at the
    turn of index ``turns``), bounded from above: its centre of mass in its own support
    region (:func:`_own_bound`), and each piece under it with the load the gift adds (the
    ruling's own support regions)."""
    margin = _own_bound(path, stand, turns, points)
    if len(stand.constants):
        margin = np.minimum(margin, (points @ stand.rows.T + stand.constants).min(axis=1))
    if path.lines:
        height = stand.face.com_height
        com = points @ path.linear[:, :2].T + path.linear[:, 2] * height
        for segment, on_piece, weight, centre in path.lines:
            depth = _line_depth(weight * com + centre, segment)
            margin = np.minimum(margin, np.minimum(depth, 0.0) if on_piece else depth)
    return margin


_EXACT = 3
"""How many offsets of each turn, best bound first, get the exact margin of a gift on
several feet or on a target with several tops, in each round of the search."""


def _firsts(turns: IntArray, count: int) -> IntArray:
    """For indices already ordered by turn, whether each is among the first ``count`` of
    its turn."""
    starts = np.searchsorted(turns, turns, side="left")
    return np.asarray(np.arange(len(turns)) - starts < count)


def _margins(path: _Path, stand: _Stand, turns: IntArray, points: Array) -> Array:
    """:func:`_estimate` at each offset; where the gift's own support region is not one
    foot on one top, the estimate is only an upper bound: made exact (:func:`_own_exact`)
    for the :data:`_EXACT` offsets of best bound of each turn, minus infinity elsewhere."""
    bound = _estimate(path, stand, turns, points)
    if not stand.overlaps:
        return bound
    order = np.lexsort((-bound, turns))
    chosen = order[_firsts(turns[order], _EXACT)]
    exact = np.full(len(points), -np.inf)
    exact[chosen] = bound[chosen]
    doubtful = chosen[~_bound_is_exact(stand, turns[chosen], points[chosen])]
    if len(doubtful):
        own = _own_exact(path, stand, turns[doubtful], points[doubtful])
        exact[doubtful] = np.minimum(bound[doubtful], own)
    return exact


def _bound_is_exact(stand: _Stand, turns: IntArray, points: Array) -> NDArray[np.bool_]:
    """Whether every foot that overlaps a top lies inside one: the gift's support region
    is then the hull of those feet, and :func:`_own_bound` is the ruling's margin."""
    touching = np.zeros(len(points), dtype=np.int64)
    inside = np.zeros(len(points), dtype=np.int64)
    for i, _, normals, offsets in stand.overlaps:
        depth = np.einsum("pi,pei->pe", points, normals[turns]) - offsets[turns]
        touching |= (depth.min(axis=1) > 1e-6).astype(np.int64) << i
    for i, normals, offsets in stand.within:
        depth = points @ normals.T - offsets[turns]
        inside |= (depth.min(axis=1) >= 0.0).astype(np.int64) << i
    return np.asarray(touching & ~inside == 0)


def _snap(points: Array, turns: IntArray, safes: Array) -> tuple[Array, IntArray]:
    """``points`` (each of the turn of index ``turns``) on the grid of
    :data:`PRECISION_MM`, once each, inside the safe region of their turn."""
    cells = np.round(points / PRECISION_MM).astype(np.int64)
    keys = (turns.astype(np.int64) << 40) + ((cells[:, 0] + (1 << 19)) << 20) + cells[:, 1]
    _, first = np.unique(keys, return_index=True)
    snapped, owners = cells[first] * PRECISION_MM, turns[first]
    inside = np.asarray(
        shapely.contains_xy(safes[owners], snapped[:, 0], snapped[:, 1]), dtype=bool
    )
    return np.asarray(snapped[inside], dtype=np.float64), owners[inside]


def _poles(safe: Any, path: _Path) -> Array:
    """The poles of inaccessibility of the parts of ``safe`` and of its overlap with the
    target's top."""
    parts = list(shapely.get_parts(safe))
    if path.tops:
        top = shapely.Polygon(convex_hull_2d(np.concatenate(path.tops)))
        parts += list(shapely.get_parts(shapely.intersection(safe, top)))
    parts = [p for p in parts if shapely.get_type_id(p) == 3 and not p.is_empty]
    circles = shapely.maximum_inscribed_circle(parts, PRECISION_MM)
    return np.asarray(shapely.get_coordinates(circles).reshape(-1, 4)[:, :2], dtype=np.float64)


def _grids(safes: Array, path: _Path) -> tuple[Array, IntArray, Array]:
    """Points of each turn's safe region on a grid of about :data:`_GRID_POINTS` (with the
    poles of a region that the grid finds sparse), their turns, and each turn's step."""
    bounds = shapely.bounds(safes)
    steps = np.full(len(safes), 0.5)
    clouds, owners = [], []
    for k in np.flatnonzero(np.isfinite(bounds[:, 0])):
        low_x, low_y, high_x, high_y = bounds[k]
        step = max(0.5, math.sqrt((high_x - low_x) * (high_y - low_y) / _GRID_POINTS))
        xs = np.arange(low_x + ((high_x - low_x) % step) / 2, high_x + _EPS, step)
        ys = np.arange(low_y + ((high_y - low_y) % step) / 2, high_y + _EPS, step)
        clouds.append(np.array(np.meshgrid(xs, ys)).reshape(2, -1).T)
        owners.append(np.full(len(xs) * len(ys), k))
        steps[k] = step
    if not clouds:
        return np.zeros((0, 2)), np.zeros(0, dtype=np.intp), steps
    points, turns = _snap(np.concatenate(clouds), np.concatenate(owners), safes)
    counts = np.bincount(turns, minlength=len(safes))
    sparse = [int(k) for k in np.flatnonzero(counts < _SPARSE) if np.isfinite(bounds[k, 0])]
    if sparse:
        poles = [_poles(safes[k], path) for k in sparse]
        extra = np.concatenate([points, *poles])
        owners_extra = np.concatenate(
            [turns, *[np.full(len(p), k) for k, p in zip(sparse, poles, strict=True)]]
        )
        points, turns = _snap(extra, owners_extra.astype(np.intp), safes)
    return points, turns, steps


def _search(path: _Path, stand: _Stand, safes: Array) -> list[tuple[Array, Array]]:
    """For each turn, offsets of its safe region (``None``: empty) best first by
    :func:`_margins`, deeper in the region first among equals, with those margins (mm): a
    grid, then a finer grid around the best of each turn."""
    points, turns, steps = _grids(safes, path)
    margins = _margins(path, stand, turns, points)
    order = np.lexsort((-margins, turns))
    best = order[_firsts(turns[order], 1)]
    if len(best):
        unit = np.arange(-4, 5) / 4.0
        offsets = np.array(np.meshgrid(unit, unit)).reshape(2, -1).T
        around = points[best, None, :] + offsets[None] * steps[turns[best], None, None]
        near, near_turns = _snap(around.reshape(-1, 2), np.repeat(turns[best], len(offsets)), safes)
        points = np.concatenate([points, near])
        turns = np.concatenate([turns, near_turns])
        margins = np.concatenate([margins, _margins(path, stand, near_turns, near)])
    margins = np.round(margins, 3)
    top = np.full(len(safes), -np.inf)
    np.maximum.at(top, turns, margins)
    depth = np.zeros(len(points))
    tied = np.flatnonzero(margins >= top[turns] - 1e-3)
    if len(tied):
        boundaries = shapely.boundary(safes[turns[tied]])
        depth[tied] = shapely.distance(boundaries, shapely.points(points[tied]))
    order = np.lexsort((-depth, -margins, turns))
    ranked = [(np.zeros((0, 2)), np.zeros(0)) for _ in safes]
    for k in np.unique(turns):
        chosen = order[turns[order] == k][:_CONFIRMED]
        ranked[int(k)] = (points[chosen], margins[chosen])
    return ranked


@dataclass(frozen=True, eq=False)
class _Ruling:
    """What the static ruling of a chosen pose needs besides the pose, and whether to ask
    it (``confirm``) or take the search's own margin."""

    model: TowerModel
    tower: Sequence[PieceRest]
    piece: str
    target: str
    confirm: bool


def _steadiest(
    ruling: _Ruling, face: _Face, turn: int, candidates: tuple[Array, Array]
) -> Steadiest | None:
    """The best of ``candidates`` that the static ruling accepts, with the margin it finds
    (without confirmation: the best, with the search's margin)."""
    points, margins = candidates
    if not ruling.confirm:
        if len(points) == 0 or not math.isfinite(margins[0]):
            return None
        x, y = points[0]
        return Steadiest(round(float(x), 1), round(float(y), 1), round(float(margins[0]), 3))
    for x, y in points:
        offset = (float(x) / 1000.0, float(y) / 1000.0)
        placement = Placement(ruling.piece, face.name, float(turn), offset, ruling.target)
        try:
            _, least = rule_with_margin(
                ruling.model, ruling.tower, placement, Tremor(), forced=False
            )
        except PlacementRefusedError:
            continue
        if math.isfinite(least):
            return Steadiest(round(float(x), 1), round(float(y), 1), round(least * 1000.0, 3))
    return None


def _rounded(geometries: Sequence[Any]) -> tuple[list[Polygons], Array]:
    """Regions on the grid of :data:`PRECISION_MM`: as :data:`Polygons` and as geometries
    (empty ones as ``None``)."""
    grid = np.array(geometries, dtype=object)
    snapped = shapely.transform(grid, lambda xy: np.round(xy / PRECISION_MM) * PRECISION_MM)
    invalid = ~shapely.is_valid(snapped)
    if invalid.any():
        snapped[invalid] = shapely.set_precision(grid[invalid], PRECISION_MM)
    parts, owners = shapely.get_parts(shapely.orient_polygons(snapped), return_index=True)
    keep = (shapely.get_type_id(parts) == 3) & (shapely.area(parts) > 0.0)
    parts, owners = parts[keep], owners[keep]
    rings, ring_owners = shapely.get_rings(parts, return_index=True)
    coords, index = shapely.get_coordinates(rings, return_index=True)
    ends = np.searchsorted(index, np.arange(len(rings)), side="right")
    starts = np.concatenate([[0], ends[:-1]]).astype(ends.dtype) if len(ends) else ends
    outlines = np.round(coords, 1).tolist()
    polygons: list[list[tuple[tuple[float, float], ...]]] = [[] for _ in parts]
    for ring, (start, end) in enumerate(zip(starts, ends, strict=True)):
        points = outlines[start : end - 1]
        polygons[int(ring_owners[ring])].append(tuple((x, y) for x, y in points))
    found: list[list[Polygon]] = [[] for _ in geometries]
    shapes: list[list[Any]] = [[] for _ in geometries]
    for part, owner, rings_of in zip(parts, owners, polygons, strict=True):
        found[int(owner)].append(tuple(rings_of))
        shapes[int(owner)].append(part)
    regions = np.array([shapely.MultiPolygon(p) if p else None for p in shapes], dtype=object)
    return [tuple(f) for f in found], regions


_maps: OrderedDict[tuple[object, ...], PlacementMap] = OrderedDict()


def placement_map(
    model: TowerModel,
    tower: Sequence[PieceRest],
    piece: str,
    target: str,
    *,
    forced: bool = False,
    confirm: bool = True,
) -> PlacementMap:
    """The placement map of ``piece`` on ``target`` (a piece of ``tower`` or the table)
    for the seat that must place it (module docs); ``forced`` (the gift has no pose
    anywhere that touches nothing else: :func:`splash.games.tower.rules.forced`) gives a
    map without faces.

    ``model`` answers the static ruling of the steadiest poses (it is left holding the
    tower); with ``confirm=False`` the steadiest poses keep the margin the search computed
    (the same terms as the static ruling's, without asking it: about half the time of an
    arch's map).  Maps are kept per tower, shape, target and ``confirm``.  Raises
    :class:`~splash.physics.errors.TowerStateError` for a tower that makes no sense and
    :class:`PlacementMapError` for an unknown piece or target.
    """
    catalogue = model.catalogue
    rests = check_tower(catalogue, tower)
    try:
        shape = catalogue.shape_of(piece)
    except SplashError as error:
        raise PlacementMapError(piece, target, error.text) from None
    if piece in rests:
        raise PlacementMapError(piece, target, message("the piece is already in the tower"))
    if target != TABLE and target not in rests:
        raise PlacementMapError(
            piece, target, message("the target is neither the table nor a piece of the tower")
        )
    if forced:
        return PlacementMap(target, True, {})
    key = (catalogue, tuple(tower), shape.name, target, confirm)
    found = _maps.get(key)
    if found is not None:
        _maps.move_to_end(key)
        return found
    try:
        faces = [_face(shape, name) for name in shape.faces]
    except ValueError as error:
        raise PlacementMapError(piece, target, message("{problem}", problem=str(error))) from None
    top = target_frame(catalogue, rests, target)
    scene = _scene(catalogue, rests, target, top, 2 * max(f.reach for f in faces) + 1.0)
    path = _path(catalogue, rests, target, top, shape.mass)
    ruling = _Ruling(model, tower, piece, target, confirm)
    result: dict[str, dict[int, FaceTurn]] = {}
    for face in faces:
        regions = _regions(face, scene, target == TABLE)
        polygons, _ = _rounded(regions)
        safe, safes = _rounded(
            shapely.buffer(np.array(regions, dtype=object), -SAFE_MM, quad_segs=4)
        )
        ranked = _search(path, _stand(path, face), safes)
        cells: dict[int, FaceTurn] = {}
        for k, turn in enumerate(face.turns):
            steadiest = _steadiest(ruling, face, turn, ranked[k]) if safe[k] else None
            cells[turn] = FaceTurn(polygons[k], safe[k], steadiest)
        result[face.name] = cells
    made = PlacementMap(target, False, result)
    _maps[key] = made
    if len(_maps) > _CACHE_SIZE:
        _maps.popitem(last=False)
    return made
