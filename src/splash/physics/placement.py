"""Placements (TD13), the T06 check before any simulation, and the placer's tremor (TD14).

A placement puts a piece on one of its resting faces, turned ``rotation_deg`` about the
vertical, with the centre of its resting frame (under its centre of mass) at ``offset``
(metres) from the centre of its target's top, in the target's resting frame; the piece's
base lies flush on the plane of the target's top.  The target is a piece of the tower or
the table (:data:`~splash.physics.poses.TABLE`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from splash.core.errors import DocumentError, OptionError
from splash.core.i18n import message
from splash.games.tower.catalogue import Catalogue, UnknownEntryError
from splash.games.tower.geometry import Transform
from splash.physics.errors import InvalidPlacementError, PlacementRefusedError, TowerStateError
from splash.physics.model import TABLE_SLOT, TowerModel
from splash.physics.poses import TABLE, PieceRest, Pose

TOUCH_TOLERANCE = 1e-4
"""Two bodies closer than this (metres) touch, for T06."""
RAISE_CLEARANCE = 1e-6
"""How far (metres) above an overlap a raised noisy pose is released."""


@dataclass(frozen=True)
class Placement:
    """Put ``piece`` on ``face``, turned ``rotation_deg`` about the vertical, at ``offset``
    (x, y in metres, in the target's frame) from the centre of the top of ``target``."""

    piece: str
    face: str
    rotation_deg: float = 0.0
    offset: tuple[float, float] = (0.0, 0.0)
    target: str = TABLE

    def __str__(self) -> str:
        return (
            f"{self.piece} on {self.face}, turned {self.rotation_deg:g} deg, at "
            f"({self.offset[0] * 1000:g}, {self.offset[1] * 1000:g}) mm on {self.target}"
        )

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "piece": self.piece,
            "face": self.face,
            "rotation_deg": self.rotation_deg,
            "offset": list(self.offset),
            "target": self.target,
        }

    @staticmethod
    def from_json(doc: Mapping[str, Any]) -> Placement:
        """The inverse of :meth:`to_json`."""
        try:
            offset = doc["offset"]
            placement = Placement(
                piece=str(doc["piece"]),
                face=str(doc["face"]),
                rotation_deg=float(doc["rotation_deg"]),
                offset=(float(offset[0]), float(offset[1])),
                target=str(doc["target"]),
            )
        except (KeyError, IndexError, TypeError, ValueError) as error:
            raise DocumentError(
                message("malformed placement: {error}", error=repr(error)), dict(doc)
            ) from None
        return placement


@dataclass(frozen=True)
class Tremor:
    """One sample of a placer's tremor: a shift (metres), a turn (degrees) and a lift of
    the release above the chosen pose (metres, never negative)."""

    dx: float = 0.0
    dy: float = 0.0
    rotation_deg: float = 0.0
    lift: float = 0.0

    def to_json(self) -> dict[str, float]:
        """A JSON-ready dict."""
        return {"dx": self.dx, "dy": self.dy, "rotation_deg": self.rotation_deg, "lift": self.lift}

    @staticmethod
    def from_json(doc: Mapping[str, Any]) -> Tremor:
        """The inverse of :meth:`to_json`."""
        try:
            return Tremor(
                float(doc["dx"]), float(doc["dy"]), float(doc["rotation_deg"]), float(doc["lift"])
            )
        except (KeyError, TypeError, ValueError) as error:
            raise DocumentError(
                message("malformed tremor: {error}", error=repr(error)), dict(doc)
            ) from None


@dataclass(frozen=True)
class Steadiness:
    """A placer's hand (TD14): standard deviations of the position (mm, each horizontal
    axis), of the turn about the vertical (degrees) and of the release height (mm)."""

    position_mm: float = 0.0
    angle_deg: float = 0.0
    height_mm: float = 0.0

    def __post_init__(self) -> None:
        for key in ("position_mm", "angle_deg", "height_mm"):
            value = getattr(self, key)
            if not math.isfinite(value) or value < 0:
                raise OptionError(
                    f"steadiness.{key}", value, message("must be a finite number >= 0")
                )

    def sample(self, rng: np.random.Generator) -> Tremor:
        """A tremor drawn from ``rng`` (always four draws, whatever the sizes)."""
        dx, dy, turn, lift = rng.normal(0.0, 1.0, 4)
        return Tremor(
            dx=float(dx) * self.position_mm / 1000,
            dy=float(dy) * self.position_mm / 1000,
            rotation_deg=float(turn) * self.angle_deg,
            lift=abs(float(lift)) * self.height_mm / 1000,
        )


def check_tower(catalogue: Catalogue, tower: Sequence[PieceRest]) -> dict[str, PieceRest]:
    """The tower keyed by piece id, after checking its pieces, faces, supports and poses."""
    seen: dict[str, PieceRest] = {}
    for rest in tower:
        try:
            catalogue.shape_of(rest.piece).resting(rest.face)
        except UnknownEntryError as error:
            raise TowerStateError(rest.piece, error.text) from None
        if rest.piece in seen:
            raise TowerStateError(rest.piece, message("listed twice"))
        if rest.support is not None and rest.support not in seen:
            raise TowerStateError(
                rest.piece,
                message("its support {support!r} is not listed before it", support=rest.support),
            )
        if not rest.pose.is_finite():
            raise TowerStateError(rest.piece, message("its pose is not finite"))
        seen[rest.piece] = rest
    return seen


def target_frame(catalogue: Catalogue, rests: Mapping[str, PieceRest], target: str) -> Transform:
    """The frame of the centre of ``target``'s top: origin at the top's height straight over
    the target's centre of mass, z up the target, x along its face's forward direction."""
    if target == TABLE:
        return Transform.identity()
    rest = rests[target]
    shape = catalogue.shape_of(target)
    frame = shape.resting_frame(rest.face, rest.pose.position, rest.pose.quaternion)
    return frame.compose(Transform.translation_of(0.0, 0.0, shape.resting(rest.face).height))


def placed_pose(
    catalogue: Catalogue,
    rests: Mapping[str, PieceRest],
    placement: Placement,
    tremor: Tremor | None = None,
) -> Pose:
    """The body pose of the placed piece: the chosen pose, shifted by ``tremor`` if given."""
    return _placed_on(
        catalogue, target_frame(catalogue, rests, placement.target), placement, tremor
    )


def _placed_on(
    catalogue: Catalogue, top: Transform, placement: Placement, tremor: Tremor | None = None
) -> Pose:
    t = tremor or Tremor()
    local = Transform.translation_of(
        placement.offset[0] + t.dx, placement.offset[1] + t.dy, t.lift
    ).compose(Transform.yaw(placement.rotation_deg + t.rotation_deg))
    shape = catalogue.shape_of(placement.piece)
    return Pose.from_transform(shape.body_in(placement.face, top.compose(local)))


def _validate(
    catalogue: Catalogue, rests: Mapping[str, PieceRest], placement: Placement, tremor: Tremor
) -> None:
    def refuse(problem: Any) -> InvalidPlacementError:
        return InvalidPlacementError(placement, problem)

    try:
        catalogue.shape_of(placement.piece).resting(placement.face)
    except UnknownEntryError as error:
        raise refuse(error.text) from None
    if placement.piece in rests:
        raise refuse(message("the piece is already in the tower"))
    if placement.target != TABLE and placement.target not in rests:
        raise refuse(message("the target is neither the table nor a piece of the tower"))
    values = (*placement.offset, placement.rotation_deg)
    if not all(math.isfinite(v) for v in values):
        raise refuse(message("the offset and rotation must be finite"))
    if not all(math.isfinite(v) for v in tremor.to_json().values()):
        raise refuse(message("the tremor must be finite"))


def _name(model: TowerModel, slot: int) -> str:
    return TABLE if slot == TABLE_SLOT else model.piece_ids[slot]


def check_contacts(
    model: TowerModel, placement: Placement, touch_tolerance: float = TOUCH_TOLERANCE
) -> None:
    """The T06 test (TD13) of ``placement``'s piece where ``model`` holds it now: raises
    :class:`PlacementRefusedError` when it touches anything but its target (closer than
    ``touch_tolerance``), or does not touch its target."""
    near = model.distances(placement.piece, 10 * touch_tolerance)
    target_slot = TABLE_SLOT if placement.target == TABLE else model.slot[placement.target]
    touching = sorted(
        _name(model, slot)
        for slot, distance in near.items()
        if distance < touch_tolerance and slot != target_slot
    )
    if touching:
        raise PlacementRefusedError(placement, touching)
    if near.get(target_slot, np.inf) >= touch_tolerance:
        raise PlacementRefusedError(placement, [], on_target=False)


def release(
    model: TowerModel,
    tower: Sequence[PieceRest],
    placement: Placement,
    tremor: Tremor | None = None,
    *,
    touch_tolerance: float = TOUCH_TOLERANCE,
    forced: bool = False,
) -> Pose:
    """Check ``placement`` against T06/TD13 and return the pose the piece is released from.

    Leaves ``model`` reset to the tower with the piece at that pose.  Raises
    :class:`InvalidPlacementError` for an unknown piece, face or target and
    :class:`PlacementRefusedError` when the chosen pose touches anything but the target, or
    does not touch the target.  The ``tremor`` then shifts the pose; a shifted pose that
    overlaps anything is raised until it overlaps nothing (TD14).  A ``forced`` placement
    (the gift has no pose anywhere that touches nothing else) skips the T06 check: its pose
    is raised the same way.
    """
    catalogue = model.catalogue
    rests = check_tower(catalogue, tower)
    _validate(catalogue, rests, placement, tremor or Tremor())
    chosen = placed_pose(catalogue, rests, placement)
    model.reset({**{p: r.pose for p, r in rests.items()}, placement.piece: chosen})
    if not forced:
        check_contacts(model, placement, touch_tolerance)
        if tremor is None or tremor == Tremor():
            return chosen
    pose = placed_pose(catalogue, rests, placement, tremor)
    for _ in range(100):
        model.set_pose(placement.piece, pose)
        overlap = min(model.distances(placement.piece, 1e-3).values(), default=0.0)
        if overlap >= 0.0:
            break
        x, y, z = pose.position
        pose = Pose((x, y, z - overlap + RAISE_CLEARANCE), pose.quaternion)
    model.set_pose(placement.piece, pose)
    return pose


class PoseProbe:
    """The T06 check of many chosen poses on one tower, as :func:`release` makes it (no
    tremor, not forced), with the tower loaded into ``model`` once: each further pose of
    the same piece only moves that piece.

    ``model`` must serve nothing else between two :meth:`check` calls (it holds the tower).
    """

    def __init__(
        self,
        model: TowerModel,
        tower: Sequence[PieceRest],
        *,
        touch_tolerance: float = TOUCH_TOLERANCE,
    ) -> None:
        self.model = model
        self.touch_tolerance = touch_tolerance
        self.rests = check_tower(model.catalogue, tower)
        """The tower keyed by piece id (checked: :class:`TowerStateError` when it makes no
        sense)."""
        self._loaded: str | None = None
        self._tops: dict[str, Transform] = {}

    def check(self, placement: Placement) -> Pose:
        """The chosen pose of ``placement``, after the checks of :func:`release`: raises
        :class:`InvalidPlacementError` and :class:`PlacementRefusedError` as it does.
        Leaves the model with the tower and the piece at that pose."""
        catalogue = self.model.catalogue
        _validate(catalogue, self.rests, placement, Tremor())
        top = self._tops.get(placement.target)
        if top is None:
            top = self._tops[placement.target] = target_frame(
                catalogue, self.rests, placement.target
            )
        chosen = _placed_on(catalogue, top, placement)
        if self._loaded == placement.piece:
            self.model.set_pose(placement.piece, chosen)
        else:
            self.model.reset(
                {**{p: r.pose for p, r in self.rests.items()}, placement.piece: chosen}
            )
            self._loaded = placement.piece
        check_contacts(self.model, placement, self.touch_tolerance)
        return chosen
