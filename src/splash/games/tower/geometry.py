"""Rigid transforms, quaternions and planar polygons in numpy (no physics engine).

Conventions: quaternions are ``(w, x, y, z)`` (MuJoCo's order); a :class:`Transform` maps
points of a child frame into its parent frame, ``parent = rotation @ child + translation``;
polygons are ``(n, 2)`` arrays of vertices in counter-clockwise order, and a "polygon" of one
or two points is a degenerate one (a point, a segment).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from splash.core.i18n import Message, message

Array = NDArray[np.float64]

_EPS = 1e-12


def as_array(values: ArrayLike) -> Array:
    """``values`` as a float64 array."""
    return np.asarray(values, dtype=np.float64)


def normalise(vector: ArrayLike) -> Array:
    """``vector`` scaled to unit length (unchanged if it is zero)."""
    v = as_array(vector)
    norm = float(np.linalg.norm(v))
    return v / norm if norm > _EPS else v


def quat_to_matrix(quat: ArrayLike) -> Array:
    """The rotation matrix of the quaternion ``(w, x, y, z)`` (normalised first)."""
    w, x, y, z = normalise(quat)
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
        ]
    )


def matrix_to_quat(matrix: ArrayLike) -> Array:
    """The unit quaternion ``(w, x, y, z)`` of a rotation matrix, with ``w >= 0``."""
    m = as_array(matrix)
    trace = float(np.trace(m))
    if trace > 0:
        s = 2.0 * np.sqrt(trace + 1.0)
        q = np.array(
            [0.25 * s, (m[2, 1] - m[1, 2]) / s, (m[0, 2] - m[2, 0]) / s, (m[1, 0] - m[0, 1]) / s]
        )
    elif m[0, 0] > m[1, 1] and m[0, 0] > m[2, 2]:
        s = 2.0 * np.sqrt(1.0 + m[0, 0] - m[1, 1] - m[2, 2])
        q = np.array(
            [(m[2, 1] - m[1, 2]) / s, 0.25 * s, (m[0, 1] + m[1, 0]) / s, (m[0, 2] + m[2, 0]) / s]
        )
    elif m[1, 1] > m[2, 2]:
        s = 2.0 * np.sqrt(1.0 + m[1, 1] - m[0, 0] - m[2, 2])
        q = np.array(
            [(m[0, 2] - m[2, 0]) / s, (m[0, 1] + m[1, 0]) / s, 0.25 * s, (m[1, 2] + m[2, 1]) / s]
        )
    else:
        s = 2.0 * np.sqrt(1.0 + m[2, 2] - m[0, 0] - m[1, 1])
        q = np.array(
            [(m[1, 0] - m[0, 1]) / s, (m[0, 2] + m[2, 0]) / s, (m[1, 2] + m[2, 1]) / s, 0.25 * s]
        )
    q = normalise(q)
    return -q if q[0] < 0 else q


def rotation_about(axis: ArrayLike, angle_rad: float) -> Array:
    """The rotation matrix of ``angle_rad`` about ``axis`` (right-handed)."""
    x, y, z = normalise(axis)
    c, s = np.cos(angle_rad), np.sin(angle_rad)
    t = 1.0 - c
    return np.array(
        [
            [t * x * x + c, t * x * y - s * z, t * x * z + s * y],
            [t * x * y + s * z, t * y * y + c, t * y * z - s * x],
            [t * x * z - s * y, t * y * z + s * x, t * z * z + c],
        ]
    )


def rotation_angle(matrix: ArrayLike) -> float:
    """The angle in radians of a rotation matrix (0 to pi)."""
    cosine = (float(np.trace(as_array(matrix))) - 1.0) / 2.0
    return float(np.arccos(np.clip(cosine, -1.0, 1.0)))


@dataclass(frozen=True, eq=False)
class Transform:
    """A rigid transform: ``parent_point = rotation @ child_point + translation``."""

    rotation: Array
    translation: Array

    @staticmethod
    def identity() -> Transform:
        """The transform that changes nothing."""
        return Transform(np.eye(3), np.zeros(3))

    @staticmethod
    def from_pose(position: ArrayLike, quaternion: ArrayLike) -> Transform:
        """The transform of a body at ``position`` with orientation ``quaternion``."""
        return Transform(quat_to_matrix(quaternion), as_array(position).copy())

    @staticmethod
    def translation_of(x: float, y: float, z: float) -> Transform:
        """A pure translation."""
        return Transform(np.eye(3), np.array([x, y, z], dtype=np.float64))

    @staticmethod
    def yaw(angle_deg: float) -> Transform:
        """A rotation of ``angle_deg`` degrees about the z axis."""
        return Transform(rotation_about((0.0, 0.0, 1.0), np.radians(angle_deg)), np.zeros(3))

    def compose(self, child: Transform) -> Transform:
        """``self`` after ``child``: maps ``child``'s child frame into ``self``'s parent."""
        return Transform(
            self.rotation @ child.rotation, self.rotation @ child.translation + self.translation
        )

    def inverse(self) -> Transform:
        """The transform back from the parent frame to the child frame."""
        rot_t = self.rotation.T
        return Transform(rot_t, -(rot_t @ self.translation))

    def apply(self, points: ArrayLike) -> Array:
        """``points`` (``(3,)`` or ``(n, 3)``) mapped into the parent frame."""
        p = as_array(points)
        return p @ self.rotation.T + self.translation

    def quaternion(self) -> Array:
        """The rotation as a unit quaternion ``(w, x, y, z)``."""
        return matrix_to_quat(self.rotation)


def _cross(o: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def convex_hull_2d(points: ArrayLike) -> Array:
    """The convex hull of 2-D ``points``, counter-clockwise, without collinear vertices.

    Degenerate inputs give degenerate hulls: one point, or the two ends of a segment.
    """
    pts: list[tuple[float, float]] = sorted(
        {(float(x), float(y)) for x, y in as_array(points).reshape(-1, 2).tolist()}
    )
    if len(pts) <= 2:
        return np.array(pts, dtype=np.float64).reshape(-1, 2)
    lower: list[tuple[float, float]] = []
    for p in pts:
        while len(lower) >= 2 and _cross(lower[-2], lower[-1], p) <= 1e-18:
            lower.pop()
        lower.append(p)
    upper: list[tuple[float, float]] = []
    for p in reversed(pts):
        while len(upper) >= 2 and _cross(upper[-2], upper[-1], p) <= 1e-18:
            upper.pop()
        upper.append(p)
    hull = lower[:-1] + upper[:-1]
    if len(hull) < 2:
        hull = [pts[0], pts[-1]]
    return np.array(hull, dtype=np.float64)


def polygon_area(polygon: ArrayLike) -> float:
    """The area of a simple polygon (positive when counter-clockwise)."""
    p = as_array(polygon).reshape(-1, 2)
    if len(p) < 3:
        return 0.0
    x, y = p[:, 0], p[:, 1]
    return 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))


def _distance_to_segment(
    point: tuple[float, float], a: tuple[float, float], b: tuple[float, float]
) -> float:
    abx, aby = b[0] - a[0], b[1] - a[1]
    length2 = abx * abx + aby * aby
    t = 0.0
    if length2 > _EPS**2:
        t = min(1.0, max(0.0, ((point[0] - a[0]) * abx + (point[1] - a[1]) * aby) / length2))
    return math.hypot(point[0] - a[0] - t * abx, point[1] - a[1] - t * aby)


def inside_distance(point: ArrayLike, hull: ArrayLike) -> float:
    """How far ``point`` lies inside the convex ``hull``: its distance to the boundary,
    negative outside (and never positive for a degenerate hull)."""
    x, y = (float(v) for v in as_array(point)[:2])
    h = [(float(a), float(b)) for a, b in as_array(hull).reshape(-1, 2).tolist()]
    if not h:
        return -math.inf
    if len(h) == 1:
        return -math.hypot(x - h[0][0], y - h[0][1])
    if len(h) == 2:
        return -_distance_to_segment((x, y), h[0], h[1])
    inside = math.inf
    outside = False
    for i, a in enumerate(h):
        b = h[(i + 1) % len(h)]
        length = math.hypot(b[0] - a[0], b[1] - a[1])
        if length < _EPS:
            continue
        beyond = ((x - a[0]) * (b[1] - a[1]) - (y - a[1]) * (b[0] - a[0])) / length
        outside = outside or beyond > 0
        inside = min(inside, -beyond)
    if outside:
        return -min(_distance_to_segment((x, y), a, h[(i + 1) % len(h)]) for i, a in enumerate(h))
    return inside


def convex_intersection(subject: ArrayLike, clip: ArrayLike) -> Array:
    """The intersection of a convex polygon (or segment) ``subject`` with the convex,
    counter-clockwise polygon ``clip``, as a convex hull (possibly empty or degenerate).

    Sutherland-Hodgman clipping on plain floats: the polygons have a handful of vertices,
    where array operations cost more than they save."""
    output = [(x, y) for x, y in as_array(subject).reshape(-1, 2).tolist()]
    c = [(x, y) for x, y in as_array(clip).reshape(-1, 2).tolist()]
    if len(c) < 3:
        return np.zeros((0, 2))
    if len(c) > len(output) >= 3:
        output, c = c, output
    for i, (ax, ay) in enumerate(c):
        if not output:
            return np.zeros((0, 2))
        bx, by = c[(i + 1) % len(c)]
        ex, ey = bx - ax, by - ay
        side = [ex * (y - ay) - ey * (x - ax) for x, y in output]
        kept: list[tuple[float, float]] = []
        for j, point in enumerate(output):
            s_cur, s_prev = side[j], side[j - 1]
            if (s_cur >= 0) != (s_prev >= 0):
                (px, py), (ox, oy) = output[j - 1], point
                t = s_prev / (s_prev - s_cur)
                kept.append((px + (ox - px) * t, py + (oy - py) * t))
            if s_cur >= 0:
                kept.append(point)
        output = kept
    if not output:
        return np.zeros((0, 2))
    return convex_hull_2d(output)


def _rest_rotation(down: Array, forward: Array) -> Array:
    """Rows: the resting frame's x (forward), y and z (up) axes in body coordinates."""
    up = -down
    return np.stack([forward, np.cross(up, forward), up])


@dataclass(frozen=True, eq=False)
class RestingPose:
    """A shape resting on one of its faces, in the face's *resting frame*: origin on the
    base plane straight under the centre of mass, z up, x along the face's forward direction.

    ``footprint`` and ``top_surfaces`` are convex polygons in the resting frame's x-y plane
    (a part touching the base along a line gives a two-point footprint); the top surfaces
    lie at ``height`` and face up: where another piece can rest (TD04).
    """

    face: str
    variants: tuple[Transform, ...]
    downs: Array
    axis: Array | None
    height: float
    centre_of_mass_height: float
    footprint: tuple[Array, ...]
    support: Array
    top_surfaces: tuple[Array, ...]

    @property
    def transform(self) -> Transform:
        """The canonical body-to-resting-frame transform."""
        return self.variants[0]

    def tilt(self, quaternion: ArrayLike) -> tuple[float, int]:
        """The angle (radians) between the world's down and the closest of this face's down
        directions for a body of orientation ``quaternion``, and that direction's index."""
        down = quat_to_matrix(quaternion).T @ np.array([0.0, 0.0, -1.0])
        if self.axis is not None:
            return float(np.arcsin(np.clip(abs(float(down @ self.axis)), 0.0, 1.0))), 0
        cosines = self.downs @ down
        index = int(np.argmax(cosines))
        return float(np.arccos(np.clip(cosines[index], -1.0, 1.0))), index

    def variant_for(self, quaternion: ArrayLike) -> Transform:
        """The body-to-resting-frame transform for a body of orientation ``quaternion``:
        the closest side of the face, rolled about the face's axis if it has one."""
        _, index = self.tilt(quaternion)
        variant = self.variants[index]
        if self.axis is None:
            return variant
        down = quat_to_matrix(quaternion).T @ np.array([0.0, 0.0, -1.0])
        across = down - (down @ self.axis) * self.axis
        ref = self.downs[index]
        angle = float(np.arctan2(self.axis @ np.cross(ref, across), ref @ across))
        roll = rotation_about(self.axis, angle)
        com = variant.inverse().apply(np.array([0.0, 0.0, self.centre_of_mass_height]))
        return Transform(
            variant.rotation @ roll.T,
            variant.rotation @ (com - roll.T @ com) + variant.translation,
        )


def _hulls(parts: list[Array], mask_of: list[NDArray[np.bool_]]) -> list[Array]:
    return [
        convex_hull_2d(points[mask][:, :2])
        for points, mask in zip(parts, mask_of, strict=True)
        if mask.any()
    ]


def resting_poses(
    face: str,
    *,
    part_points: list[Array],
    centre_of_mass: Array,
    downs: list[list[float]],
    forwards: list[list[float]],
    axis: list[float] | None,
) -> tuple[RestingPose, tuple[str, Message] | None]:
    """The resting pose of a shape (given as the surface points of its convex parts, body
    frame) on the face whose sides have the body directions ``downs``/``forwards``, and a
    problem (the key at fault, ``""`` for the face itself, and what is wrong) when the
    face's sides differ or the shape cannot rest on it."""
    tol = 1e-7
    variants: list[Transform] = []
    heights: list[float] = []
    for down, forward in zip(downs, forwards, strict=True):
        rotation = _rest_rotation(normalise(down), normalise(forward))
        com = rotation @ centre_of_mass
        lowest = min(float((points @ rotation.T)[:, 2].min()) for points in part_points)
        transform = Transform(rotation, np.array([-com[0], -com[1], -lowest]))
        variants.append(transform)
        heights.append(max(float(transform.apply(points)[:, 2].max()) for points in part_points))
    rest = [variants[0].apply(points) for points in part_points]
    height = heights[0]
    footprint = _hulls(rest, [points[:, 2] <= tol for points in rest])
    tops = [
        hull
        for hull in _hulls(rest, [points[:, 2] >= height - tol for points in rest])
        if len(hull) >= 3 and polygon_area(hull) > 1e-10
    ]
    support = convex_hull_2d(np.concatenate(footprint))
    pose = RestingPose(
        face=face,
        variants=tuple(variants),
        downs=np.array([normalise(d) for d in downs]),
        axis=None if axis is None else normalise(axis),
        height=height,
        centre_of_mass_height=float(variants[0].apply(centre_of_mass)[2]),
        footprint=tuple(footprint),
        support=support,
        top_surfaces=tuple(tops),
    )
    if max(heights) - min(heights) > 1e-9:
        text = message("the sides listed for one face must be alike (their heights differ)")
        return pose, ("down", text)
    if inside_distance(np.zeros(2), support) < -1e-9:
        text = message("the piece cannot rest on this face (its centre of mass overhangs)")
        return pose, ("", text)
    return pose, None
