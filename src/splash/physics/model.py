"""One MuJoCo model that holds every piece of a catalogue, reused for every ruling.

The settings are the ones measured to hold a 30-piece tower (see the project's physics
notes): 1 ms steps, ``solref="0.002 1"``, ``solimp="0.99 0.999 0.001 0.5 2"``, a pyramidal
friction cone, the Euler integrator and multi-point convex collisions (``multiccd``).  Every
box part (cube, beam, the arch's three boxes) is an 8-vertex convex mesh, because MuJoCo's
box-box collision lets yawed boxes jitter and creep; the prism is a 6-vertex mesh and the
cylinder a primitive.

One setting goes beyond the notes: every geom has a 10 micrometre contact ``margin``, so that
pieces rest that far apart and resting contacts are found between separate shapes (GJK)
rather than by penetration (EPA).  At zero margin, MuJoCo 4.0's EPA now and then returns a
wrong contact (measured: a horizontal normal 4 mm deep between a prism and the cube under
it, which threw a settled 30-piece tower down: 1 of 50 random towers); with the margin,
50 of 50 stood.

Pieces not in play are *parked*: their collisions are switched off, so they fall freely
out of the way and touch nothing.  :meth:`TowerModel.reset` restores a complete state (no
rebuild), so a ruling depends only on its inputs.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping
from dataclasses import dataclass

import mujoco
import numpy as np

from splash.games.tower.catalogue import Catalogue, CylinderPart
from splash.games.tower.geometry import Array
from splash.physics.poses import TABLE, Pose

TABLE_SLOT = -1
"""The slot number that stands for the table in contact pairs."""


@dataclass(frozen=True)
class ModelSettings:
    """The simulation settings (defaults: the ones measured to hold a 30-piece tower)."""

    timestep: float = 0.001
    solref: tuple[float, float] = (0.002, 1.0)
    solimp: tuple[float, float, float, float, float] = (0.99, 0.999, 0.001, 0.5, 2.0)
    cone: str = "pyramidal"
    integrator: str = "Euler"
    multiccd: bool = True
    nativeccd: bool = True
    margin: float = 1e-5
    sleep_tolerance: float = 0.0
    """When positive, MuJoCo's sleeping islands: a contact island whose velocities stay
    under this tolerance stops being simulated until something touches it (off by default:
    measured in ``bench/tower_tail.py``, not used by any ruling)."""


def _numbers(values: object) -> str:
    return " ".join(repr(float(v)) for v in np.asarray(values, dtype=np.float64).ravel())


def model_xml(catalogue: Catalogue, settings: ModelSettings | None = None) -> str:
    """The MJCF text of the model of ``catalogue`` (one free body per piece)."""
    s = settings or ModelSettings()
    root = ET.Element("mujoco", model="splash-tower")
    ET.SubElement(root, "compiler", angle="radian")
    option = ET.SubElement(
        root, "option", timestep=repr(s.timestep), cone=s.cone, integrator=s.integrator
    )
    flags = ET.SubElement(
        option,
        "flag",
        multiccd="enable" if s.multiccd else "disable",
        nativeccd="enable" if s.nativeccd else "disable",
    )
    if s.sleep_tolerance > 0.0:
        flags.set("sleep", "enable")
        option.set("sleep_tolerance", repr(s.sleep_tolerance))
    default = ET.SubElement(root, "default")
    ET.SubElement(
        default,
        "geom",
        condim="3",
        solref=_numbers(s.solref),
        solimp=_numbers(s.solimp),
        margin=repr(s.margin),
    )
    asset = ET.SubElement(root, "asset")
    for shape in catalogue.shapes.values():
        for index, part in enumerate(shape.parts):
            if not isinstance(part, CylinderPart):
                ET.SubElement(
                    asset, "mesh", name=f"{shape.name}-{index}", vertex=_numbers(part.points())
                )
    world = ET.SubElement(root, "worldbody")
    friction = min(shape.friction for shape in catalogue.shapes.values())
    ET.SubElement(
        world,
        "geom",
        name=TABLE,
        type="plane",
        size="0 0 0.05",
        friction=f"{friction!r} 0.005 0.0001",
    )
    for slot, piece in enumerate(catalogue.pieces):
        shape = catalogue.shapes[piece.shape]
        body = ET.SubElement(world, "body", name=piece.id, pos=_numbers(parking_spot(slot)))
        ET.SubElement(body, "freejoint", name=piece.id)
        rgba = _numbers((*catalogue.rgb(piece.id), 1.0))
        common = {
            "density": repr(shape.density),
            "friction": f"{shape.friction!r} 0.005 0.0001",
            "rgba": rgba,
        }
        for index, part in enumerate(shape.parts):
            attrib = {**common, "name": f"{piece.id}/{index}"}
            if isinstance(part, CylinderPart):
                attrib |= {
                    "type": "cylinder",
                    "size": _numbers((part.radius, part.length / 2)),
                    "pos": _numbers(part.centre),
                }
            else:
                attrib |= {"type": "mesh", "mesh": f"{shape.name}-{index}"}
            ET.SubElement(body, "geom", attrib)
    return ET.tostring(root, encoding="unicode")


def _reach(catalogue: Catalogue, piece: str) -> float:
    shape = catalogue.shape_of(piece)
    return float(np.linalg.norm(shape.points() - shape.centre_of_mass, axis=1).max())


def parking_spot(slot: int) -> Array:
    """Where the piece in ``slot`` waits while it is not in play (far from the tower)."""
    return np.array([10.0 + 0.2 * slot, 10.0, 1.0])


class TowerModel:
    """The compiled model of a catalogue and its one ``MjData``.

    Slots number the pieces in catalogue order; contact pairs use :data:`TABLE_SLOT` for the
    table.  Not thread-safe: one ruling at a time per instance.
    """

    def __init__(self, catalogue: Catalogue, settings: ModelSettings | None = None) -> None:
        self.catalogue = catalogue
        self.settings = settings or ModelSettings()
        self.model = mujoco.MjModel.from_xml_string(model_xml(catalogue, self.settings))
        self.data = mujoco.MjData(self.model)
        self.piece_ids = catalogue.piece_ids
        self.slot = {piece: index for index, piece in enumerate(self.piece_ids)}
        count = len(self.piece_ids)
        self.body_ids = np.array(
            [mujoco.mj_name2id(self.model, mujoco.mjtObj.mjOBJ_BODY, p) for p in self.piece_ids]
        )
        self.table_geom = mujoco.mj_name2id(self.model, mujoco.mjtObj.mjOBJ_GEOM, TABLE)
        body_slot = np.full(self.model.nbody, TABLE_SLOT - 1)
        body_slot[self.body_ids] = np.arange(count)
        self.geom_slot = body_slot[self.model.geom_bodyid]
        self.geom_slot[self.table_geom] = TABLE_SLOT
        self.slot_geoms = [np.flatnonzero(self.geom_slot == s) for s in range(count)]
        self.masses = np.array(self.model.body_mass[self.body_ids], dtype=np.float64)
        self.radii = np.array(
            [_reach(catalogue, piece) for piece in self.piece_ids], dtype=np.float64
        )
        """How far each piece reaches from its centre of mass (metres)."""
        if self.model.nq != 7 * count or self.model.nv != 6 * count:
            raise RuntimeError("every body of the tower model must have exactly a free joint")
        self.active = np.zeros(count, dtype=bool)

    @property
    def time(self) -> float:
        """Simulated seconds since the last :meth:`reset`."""
        return float(self.data.time)

    def reset(self, poses: Mapping[str, Pose]) -> None:
        """Restore the state: the pieces of ``poses`` at rest where given, colliding; every
        other piece parked, colliding with nothing."""
        mujoco.mj_resetData(self.model, self.data)
        self.active[:] = False
        qpos = self.data.qpos.reshape(-1, 7)
        for slot in range(len(self.piece_ids)):
            qpos[slot, :3] = parking_spot(slot)
            qpos[slot, 3:] = (1.0, 0.0, 0.0, 0.0)
        for piece, pose in poses.items():
            slot = self.slot[piece]
            self.active[slot] = True
            qpos[slot, :3] = pose.position
            qpos[slot, 3:] = pose.quaternion
        on = np.isin(self.geom_slot, np.flatnonzero(self.active)) | (self.geom_slot == TABLE_SLOT)
        self.model.geom_contype[:] = on
        self.model.geom_conaffinity[:] = on
        mujoco.mj_forward(self.model, self.data)

    def set_pose(self, piece: str, pose: Pose) -> None:
        """Move ``piece`` (already active) to ``pose``, at rest, and update positions."""
        slot = self.slot[piece]
        qpos = self.data.qpos.reshape(-1, 7)
        qpos[slot, :3] = pose.position
        qpos[slot, 3:] = pose.quaternion
        self.data.qvel.reshape(-1, 6)[slot] = 0.0
        mujoco.mj_kinematics(self.model, self.data)

    def step(self, steps: int) -> None:
        """Advance ``steps`` time steps."""
        mujoco.mj_step(self.model, self.data, nstep=steps)

    def pose(self, piece: str) -> Pose:
        """The current pose of ``piece`` (its body frame)."""
        q = self.data.qpos.reshape(-1, 7)[self.slot[piece]]
        return Pose.of(q[:3], q[3:])

    def poses(self, slots: Array) -> tuple[Array, Array]:
        """Positions ``(n, 3)`` and quaternions ``(n, 4)`` of the pieces in ``slots``."""
        q = np.array(self.data.qpos.reshape(-1, 7)[slots])
        return q[:, :3], q[:, 3:]

    def com(self, slots: Array) -> Array:
        """Centres of mass (world) of the pieces in ``slots``, ``(n, 3)``."""
        return np.array(self.data.xipos[self.body_ids[slots]])

    def rotations(self, slots: Array) -> Array:
        """Orientation matrices of the pieces in ``slots``, ``(n, 3, 3)``."""
        return np.array(self.data.xmat[self.body_ids[slots]]).reshape(-1, 3, 3)

    def speeds(self, slots: Array, lever: float) -> Array:
        """``|v| + lever * |w|`` of the pieces in ``slots`` (m/s; ``lever`` in metres)."""
        qvel = self.data.qvel.reshape(-1, 6)[slots]
        linear = np.linalg.norm(qvel[:, :3], axis=1)
        angular = np.linalg.norm(qvel[:, 3:], axis=1)
        return np.asarray(linear + lever * angular, dtype=np.float64)

    def velocities(self, slots: Array) -> Array:
        """Linear velocities (world) of the pieces in ``slots``, ``(n, 3)``."""
        return np.array(self.data.qvel.reshape(-1, 6)[slots, :3])

    def contacts(self) -> tuple[Array, Array]:
        """The current contacts: slot pairs ``(k, 2)`` (table = :data:`TABLE_SLOT`) and
        contact points ``(k, 3)``."""
        count = self.data.ncon
        if count == 0:
            return np.zeros((0, 2), dtype=np.int64), np.zeros((0, 3))
        geoms = np.array(self.data.contact.geom[:count])
        return self.geom_slot[geoms], np.array(self.data.contact.pos[:count])

    def distances(self, piece: str, within: float) -> dict[int, float]:
        """The signed distance (negative: overlap) from ``piece`` to every active piece and
        the table closer than ``within``, keyed by slot (table = :data:`TABLE_SLOT`)."""
        own = self.slot[piece]
        result: dict[int, float] = {}
        others = [self.table_geom] + [
            int(g) for s in np.flatnonzero(self.active) if s != own for g in self.slot_geoms[s]
        ]
        for mine in self.slot_geoms[own]:
            for other in others:
                distance = float(
                    mujoco.mj_geomDistance(self.model, self.data, int(mine), other, within, None)
                )
                if distance < within:
                    key = int(self.geom_slot[other])
                    result[key] = min(distance, result.get(key, within))
        return result
