"""Placements: the chosen pose, the T06/TD13 check before simulating, and the tremor (TD14)."""

from __future__ import annotations

import numpy as np
import pytest

from splash.core.errors import OptionError
from splash.physics.errors import InvalidPlacementError, PlacementRefusedError
from splash.physics.model import TowerModel
from splash.physics.placement import Placement, Steadiness, Tremor, release
from splash.physics.poses import PieceRest
from tests.physics.builders import Step, build, shared_model


@pytest.fixture(scope="module")
def model() -> TowerModel:
    return shared_model()


@pytest.fixture(scope="module")
def tower(model: TowerModel) -> list[PieceRest]:
    """A cube with a beam across it, turned 90 degrees."""
    built, _ = build(model, [Step("red-cube", "bottom"), Step("blue-beam", "flat", 90.0)])
    return built


def test_TD13_chosen_pose_rests_on_the_top_of_the_target(
    model: TowerModel, tower: list[PieceRest]
) -> None:
    pose = release(model, tower, Placement("green-cube", "bottom", 0.0, (0.01, 0.0), "blue-beam"))
    beam = tower[1].pose
    # the beam is turned 90 degrees, so its x axis points along the world's y
    assert pose.position[0] == pytest.approx(beam.position[0], abs=1e-4)
    assert pose.position[1] == pytest.approx(beam.position[1] + 0.01, abs=1e-4)
    assert pose.position[2] == pytest.approx(0.025 + 0.015 + 0.0125, abs=1e-4)
    assert model.time == 0.0


@pytest.mark.rule("T06", "TD13")
def test_T06_pose_touching_another_piece_is_refused_naming_it(
    model: TowerModel, tower: list[PieceRest]
) -> None:
    with pytest.raises(PlacementRefusedError) as caught:
        release(model, tower, Placement("green-cube", "bottom", 0.0, (0.0, 0.0), "red-cube"))
    assert caught.value.touching == ("blue-beam",)
    assert "blue-beam" in str(caught.value)
    assert model.time == 0.0


@pytest.mark.rule("T06", "TD13")
def test_T06_table_placement_touching_the_tower_is_refused(
    model: TowerModel, tower: list[PieceRest]
) -> None:
    with pytest.raises(PlacementRefusedError, match="red-cube"):
        release(model, tower, Placement("green-cube", "bottom", 0.0, (0.025, 0.0)))
    # 1 mm away from the cube's side is fine
    release(model, tower, Placement("green-cube", "bottom", 0.0, (0.026, 0.0)))


@pytest.mark.rule("TD13")
def test_TD13_pose_that_misses_its_target_is_refused(
    model: TowerModel, tower: list[PieceRest]
) -> None:
    with pytest.raises(PlacementRefusedError) as caught:
        release(model, tower, Placement("green-cube", "bottom", 0.0, (0.06, 0.0), "blue-beam"))
    assert caught.value.touching == () and not caught.value.on_target


@pytest.mark.parametrize(
    ("placement", "needle"),
    [
        (Placement("pink-cube", "bottom", target="red-cube"), "unknown piece"),
        (Placement("green-cube", "lid", target="red-cube"), "unknown face"),
        (Placement("green-cube", "bottom", target="green-beam"), "neither the table"),
        (Placement("red-cube", "bottom"), "already in the tower"),
        (Placement("green-cube", "bottom", float("nan"), target="blue-beam"), "finite"),
    ],
)
def test_invalid_placements_name_the_problem(
    model: TowerModel, tower: list[PieceRest], placement: Placement, needle: str
) -> None:
    with pytest.raises(InvalidPlacementError, match=needle) as caught:
        release(model, tower, placement)
    assert caught.value.placement == placement


@pytest.mark.rule("TD14")
def test_TD14_tremor_comes_from_the_generator_passed_in() -> None:
    hand = Steadiness(position_mm=1.0, angle_deg=5.0, height_mm=2.0)
    a = [hand.sample(np.random.default_rng(3)) for _ in range(2)]
    assert a[0] == a[1]
    rng = np.random.default_rng(4)
    samples = [hand.sample(rng) for _ in range(2000)]
    assert np.std([s.dx for s in samples]) == pytest.approx(0.001, rel=0.1)
    assert np.std([s.rotation_deg for s in samples]) == pytest.approx(5.0, rel=0.1)
    assert min(s.lift for s in samples) >= 0.0
    assert Steadiness().sample(np.random.default_rng(0)) == Tremor()
    with pytest.raises(OptionError, match=r"steadiness\.angle_deg"):
        Steadiness(angle_deg=-1.0)


@pytest.mark.rule("TD14")
def test_TD14_noisy_pose_that_overlaps_is_raised_until_it_touches_nothing(
    model: TowerModel, tower: list[PieceRest]
) -> None:
    # a beam standing on the table beside the end of the beam that lies across the cube
    placement = Placement("green-beam", "end", 0.0, (0.0, 0.04))
    chosen = release(model, tower, placement)
    assert chosen.position[2] == pytest.approx(0.025)
    # a shaky hand moves it 12 mm under the lying beam: it is let go above that beam
    shaken = release(model, tower, placement, Tremor(0.0, -0.012, 0.0, 0.0))
    top_of_lying_beam = 0.025 + 0.015
    assert shaken.position[1] == pytest.approx(0.028)
    assert shaken.position[2] - 0.025 == pytest.approx(top_of_lying_beam, abs=1e-4)
    assert min(model.distances("green-beam", 1e-3).values()) >= 0.0
    # a small shake that overlaps nothing is kept as it is, lift included
    lifted = release(model, tower, placement, Tremor(0.001, 0.0, 5.0, 0.003))
    assert lifted.position[2] == pytest.approx(0.028)
    assert lifted.position[0] == pytest.approx(0.001)


def test_placement_and_tremor_json_round_trip() -> None:
    placement = Placement("red-cube", "bottom", 12.5, (0.001, -0.002), "blue-beam")
    assert Placement.from_json(placement.to_json()) == placement
    tremor = Tremor(0.1, -0.2, 3.0, 0.004)
    assert Tremor.from_json(tremor.to_json()) == tremor
