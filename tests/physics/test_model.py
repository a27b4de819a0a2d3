"""The one MuJoCo model of the catalogue: geometry, settings, parking and state restore."""

from __future__ import annotations

import mujoco
import numpy as np
import pytest

from splash.physics.model import TowerModel
from splash.physics.poses import Pose
from tests.physics.builders import shared_model


@pytest.fixture(scope="module")
def model() -> TowerModel:
    return shared_model()


def test_box_parts_are_eight_vertex_meshes_and_cylinder_a_primitive(model: TowerModel) -> None:
    m = model.model
    kinds = {}
    for geom in range(m.ngeom):
        name = mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_GEOM, geom)
        if name is None or not name.startswith("red-"):
            continue
        if m.geom_type[geom] == mujoco.mjtGeom.mjGEOM_MESH:
            kinds[name] = int(m.mesh_vertnum[m.geom_dataid[geom]])
        else:
            kinds[name] = int(m.geom_type[geom])
    assert kinds == {
        "red-cube/0": 8,
        "red-beam/0": 8,
        "red-prism/0": 6,
        "red-arch/0": 8,
        "red-arch/1": 8,
        "red-arch/2": 8,
        "red-cylinder/0": int(mujoco.mjtGeom.mjGEOM_CYLINDER),
    }


def test_settings_are_the_ones_that_hold_a_tower(model: TowerModel) -> None:
    opt = model.model.opt
    assert opt.timestep == 0.001
    assert opt.cone == mujoco.mjtCone.mjCONE_PYRAMIDAL
    assert opt.integrator == mujoco.mjtIntegrator.mjINT_EULER
    assert not opt.disableflags & mujoco.mjtDisableBit.mjDSBL_MULTICCD
    assert not opt.disableflags & mujoco.mjtDisableBit.mjDSBL_NATIVECCD
    assert model.model.geom_margin[1] == 1e-5
    assert model.model.geom_solref[1] == pytest.approx([0.002, 1.0])
    assert model.model.geom_solimp[1] == pytest.approx([0.99, 0.999, 0.001, 0.5, 2.0])


def test_masses_follow_the_catalogue(model: TowerModel) -> None:
    for slot, piece in enumerate(model.piece_ids):
        expected = model.catalogue.shape_of(piece).mass
        assert model.masses[slot] == pytest.approx(expected, rel=1e-6)
        centre = model.catalogue.shape_of(piece).centre_of_mass
        assert model.model.body_ipos[model.body_ids[slot]] == pytest.approx(centre, abs=1e-9)


def test_parked_pieces_touch_nothing(model: TowerModel) -> None:
    model.reset({"red-cube": Pose((0.0, 0.0, 0.0125), (1.0, 0.0, 0.0, 0.0))})
    model.step(200)
    pairs, _ = model.contacts()
    assert {int(s) for s in pairs.ravel()} <= {-1, model.slot["red-cube"]}
    assert model.pose("red-cube").position[2] == pytest.approx(0.0125, abs=1e-4)
    assert model.active.sum() == 1


def test_reset_restores_the_whole_state(model: TowerModel) -> None:
    poses = {
        "red-cube": Pose((0.0, 0.0, 0.0125), (1.0, 0.0, 0.0, 0.0)),
        "blue-beam": Pose((0.004, 0.0, 0.0325), (1.0, 0.0, 0.0, 0.0)),
    }
    model.reset(poses)
    model.step(300)
    first = np.array(model.data.qpos).copy()
    model.reset({"green-arch": Pose((0.0, 0.0, 0.0125), (1.0, 0.0, 0.0, 0.0))})
    model.step(50)
    model.reset(poses)
    model.step(300)
    assert np.array_equal(first, model.data.qpos)
