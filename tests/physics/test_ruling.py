"""The ruling (TD07, TD12): verdicts, standing stacks, spontaneous falls, plain-data outcomes."""

from __future__ import annotations

import json

import numpy as np
import pytest

from splash.games.tower.geometry import rotation_about
from splash.physics.judge import Thresholds, motion, moved, relative_frames, standing
from splash.physics.model import TowerModel
from splash.physics.outcome import RulingOutcome
from splash.physics.placement import Placement, Tremor
from splash.physics.poses import PieceRest, Pose
from splash.physics.ruling import RulingSettings, hold, rule
from tests.physics.builders import Step, build, drift, shared_model


@pytest.fixture(scope="module")
def model() -> TowerModel:
    return shared_model()


@pytest.fixture(scope="module")
def cubes(model: TowerModel) -> list[PieceRest]:
    # Settled by the simulation (version 1: no statics first), so that a hair-trigger
    # threshold sees only what the placement does, not the tower settling by micrometres.
    steps = [Step("red-cube", "bottom"), Step("orange-cube", "bottom", 10.0)]
    tower, _ = build(model, steps, settings=RulingSettings(version=1))
    return tower


@pytest.mark.rule("TD07")
def test_TD07_centred_piece_stands(model: TowerModel, cubes: list[PieceRest]) -> None:
    outcome = rule(model, cubes, Placement("blue-beam", "flat", 30.0, (0.001, 0.0), "orange-cube"))
    assert outcome.result == "stood"
    assert outcome.stacks == (("red-cube", "orange-cube", "blue-beam"),)
    assert outcome.on_table == ()
    assert outcome.tower()[-1] == PieceRest(
        "blue-beam", "flat", "orange-cube", outcome.pieces[-1].pose
    )
    assert outcome.simulated_s < 0.5


@pytest.mark.rule("TD07", "T11")
def test_TD07_piece_off_its_target_falls_and_the_rest_stands(
    model: TowerModel, cubes: list[PieceRest]
) -> None:
    outcome = rule(model, cubes, Placement("blue-beam", "flat", 0.0, (0.02, 0.0), "orange-cube"))
    assert outcome.result == "fell"
    assert outcome.stacks == (("red-cube", "orange-cube"),)
    assert outcome.on_table == ("blue-beam",)
    beam = outcome.pieces[-1]
    assert beam.support is None and beam.face == "flat"
    assert beam.pose.position[2] == pytest.approx(0.0075, abs=5e-4)


@pytest.mark.rule("TD07")
def test_TD07_thresholds_are_parameters(model: TowerModel, cubes: list[PieceRest]) -> None:
    placement = Placement("blue-cube", "bottom", 0.0, (0.0, 0.0), "orange-cube")
    shaky = Tremor(0.0, 0.0, 0.0, 0.003)
    assert rule(model, cubes, placement, shaky).result == "stood"
    strict = RulingSettings(thresholds=Thresholds(distance_mm=0.0001, angle_deg=0.0001))
    assert rule(model, cubes, placement, shaky, strict).result == "fell"


@pytest.mark.rule("TD12")
def test_TD12_tower_falling_before_the_piece_touches_it_is_spontaneous(
    model: TowerModel,
) -> None:
    cube = PieceRest("red-cube", "bottom", None, Pose((0.0, 0.0, 0.0125), (1.0, 0.0, 0.0, 0.0)))
    overhanging = PieceRest(
        "blue-beam", "flat", "red-cube", Pose((0.02, 0.0, 0.0325), (1.0, 0.0, 0.0, 0.0))
    )
    far = Placement("green-cube", "bottom", 0.0, (0.2, 0.0))
    outcome = rule(model, [cube, overhanging], far, Tremor(0.0, 0.0, 0.0, 0.15))
    assert outcome.result == "spontaneous"
    assert "blue-beam" in outcome.on_table


def test_whole_tower_sliding_has_not_moved() -> None:
    rng = np.random.default_rng(0)
    com = rng.normal(size=(4, 3)) * 0.02
    rotations = np.stack([rotation_about(rng.normal(size=3), rng.uniform()) for _ in range(4)])
    supports = np.array([-1, 0, 1, 1])
    before = relative_frames(com, rotations, supports)
    turn = rotation_about((0, 0, 1), 0.02)
    slid = (com @ turn.T + [0.003, -0.002, 0.0], np.einsum("ij,njk->nik", turn, rotations))
    distance, angle = motion(*before, *relative_frames(*slid, supports))
    assert distance[1:] == pytest.approx(0.0, abs=1e-12)
    assert angle[1:] == pytest.approx(0.0, abs=1e-7)
    assert not moved(distance, angle, Thresholds()).any()


def test_standing_stacks_need_unmoved_supports() -> None:
    supports = np.array([-1, 0, 1, 2, 1])
    gone = np.array([False, False, True, False, False])
    on_table = np.array([False, False, False, False, True])
    assert standing(supports, gone, on_table).tolist() == [True, True, False, False, False]


def test_outcome_is_plain_json(model: TowerModel, cubes: list[PieceRest]) -> None:
    outcome = rule(
        model,
        cubes,
        Placement("blue-beam", "flat", 0.0, (0.015, 0.0), "orange-cube"),
        Tremor(0.0001, 0.0, 1.0, 0.001),
    )
    text = json.dumps(outcome.to_json())
    again = RulingOutcome.from_json(json.loads(text))
    assert again == outcome
    assert again.to_json()["format"] == "splash/tower-ruling/1"


def test_long_mode_simulates_three_seconds(model: TowerModel, cubes: list[PieceRest]) -> None:
    placement = Placement("blue-beam", "flat", 0.0, (0.001, 0.0), "orange-cube")
    long = rule(model, cubes, placement, settings=RulingSettings(mode="long"))
    assert long.simulated_s == pytest.approx(3.0)
    assert long.result == rule(model, cubes, placement).result == "stood"


def test_hold_keeps_a_settled_tower_in_place(model: TowerModel, cubes: list[PieceRest]) -> None:
    after = hold(model, cubes, 1.0)
    assert [r.piece for r in after] == [r.piece for r in cubes]
    distance_mm, angle_deg = drift(cubes, after)
    assert distance_mm < 0.05 and angle_deg < 0.05
