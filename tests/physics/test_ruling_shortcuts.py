"""The shortcuts of the quick ruling's version 2: statics first, a fall stopped at its
verdict, and the method each outcome records (TD07, T11)."""

from __future__ import annotations

import pytest

from splash.physics.judge import Thresholds
from splash.physics.model import TowerModel
from splash.physics.outcome import RulingOutcome
from splash.physics.placement import Placement, Tremor
from splash.physics.poses import PieceRest
from splash.physics.provider import PhysicsOutcomes
from splash.physics.ruling import RulingSettings, Tail, rule
from splash.physics.static_outcomes import StaticOutcomes
from tests.physics.builders import Step, build, shared_model

V1 = RulingSettings(version=1)


@pytest.fixture(scope="module")
def model() -> TowerModel:
    return shared_model()


@pytest.fixture(scope="module")
def cubes(model: TowerModel) -> list[PieceRest]:
    steps = [Step("red-cube", "bottom"), Step("orange-cube", "bottom", 10.0)]
    tower, _ = build(model, steps, settings=V1)
    return tower


@pytest.mark.rule("TD07")
def test_TD07_a_wide_margin_stands_without_simulating(
    model: TowerModel, cubes: list[PieceRest]
) -> None:
    placement = Placement("blue-cube", "bottom", 20.0, (0.001, 0.0), "orange-cube")
    quick = rule(model, cubes, placement, Tremor(0.0002, 0.0, 1.0, 0.0005))
    assert quick.result == "stood" and quick.simulated_s == 0.0
    assert quick.method == "simulation-quick/3:statics"
    assert quick.stacks == (("red-cube", "orange-cube", "blue-cube"),)
    slow = rule(model, cubes, placement, Tremor(0.0002, 0.0, 1.0, 0.0005), V1)
    assert slow.result == "stood" and slow.simulated_s > 0.0
    assert slow.method == "simulation-quick/1"
    # Where the statics lay the piece is where the simulation lets it settle, to 0.1 mm.
    for axis in range(3):
        assert quick.pieces[-1].pose.position[axis] == pytest.approx(
            slow.pieces[-1].pose.position[axis], abs=1e-4
        )


@pytest.mark.rule("TD07")
def test_TD07_near_the_edge_or_dropped_from_high_it_is_simulated(
    model: TowerModel, cubes: list[PieceRest]
) -> None:
    edge = Placement("blue-cube", "bottom", 0.0, (0.012, 0.0), "orange-cube")
    assert rule(model, cubes, edge).simulated_s > 0.0
    centred = Placement("blue-cube", "bottom", 0.0, (0.0, 0.0), "orange-cube")
    assert rule(model, cubes, centred, Tremor(0.0, 0.0, 0.0, 0.003)).simulated_s > 0.0


@pytest.mark.rule("TD07", "T11")
def test_TD07_T11_a_fall_stops_early_with_the_same_pieces_standing(
    model: TowerModel, cubes: list[PieceRest]
) -> None:
    off = Placement("blue-beam", "flat", 0.0, (0.02, 0.0), "orange-cube")
    quick, slow = rule(model, cubes, off), rule(model, cubes, off, settings=V1)
    long = rule(model, cubes, off, settings=RulingSettings(mode="long"))
    for outcome in (quick, slow, long):
        assert outcome.result == "fell"
        assert outcome.stacks == (("red-cube", "orange-cube"),)
        assert outcome.on_table == ("blue-beam",)
    assert quick.simulated_s <= slow.simulated_s < long.simulated_s
    assert long.method == "simulation-long/2:3s"


def test_outcomes_written_before_methods_were_named_still_read(
    model: TowerModel, cubes: list[PieceRest]
) -> None:
    outcome = rule(model, cubes, Placement("blue-cube", "bottom", 0.0, (0.0, 0.0), "orange-cube"))
    doc = outcome.to_json()
    assert doc["method"] == outcome.method != ""
    del doc["method"]
    assert RulingOutcome.from_json(doc).method == ""


def test_each_provider_records_its_method_in_the_details(
    model: TowerModel, cubes: list[PieceRest]
) -> None:
    placement = Placement("blue-cube", "bottom", 0.0, (0.0, 0.0), "orange-cube")
    ruled, extra = PhysicsOutcomes(0).rule(
        model, cubes, placement, Tremor(), forced=False, thresholds=Thresholds()
    )
    assert extra == {"method": "simulation-quick/3:statics", "margin_mm": ruled.margin_mm}
    assert ruled.method == extra["method"]
    assert ruled.margin_mm == pytest.approx(12.5, abs=0.01)  # centred on a 25-mm cube
    _, extra = StaticOutcomes(0).rule(
        model, cubes, placement, Tremor(), forced=False, thresholds=Thresholds()
    )
    assert extra["method"] == "statics/1"


@pytest.mark.rule("TD07")
def test_TD07_a_ruling_for_the_verdict_only_stops_at_a_fall_with_the_same_verdict(
    model: TowerModel, cubes: list[PieceRest]
) -> None:
    # A cube 20 mm off the centre of a 25 mm cube: its centre of mass is 7.5 mm out.
    placement = Placement("blue-cube", "bottom", 0.0, (0.02, 0.0), "orange-cube")
    full = rule(model, cubes, placement)
    quick = rule(model, cubes, placement, settings=RulingSettings(verdict_only=True))
    assert full.result == quick.result == "fell"
    assert quick.simulated_s < full.simulated_s
    assert quick.method == "simulation-quick/3:verdict"
    assert full.method == "simulation-quick/3"


@pytest.mark.rule("TD07", "T11")
@pytest.mark.parametrize("tail", ["statics", "reach", "guard"])
def test_TD07_a_fall_cut_short_rules_the_standing_part_statically(
    model: TowerModel, cubes: list[PieceRest], tail: Tail
) -> None:
    off = Placement("blue-beam", "flat", 0.0, (0.02, 0.0), "orange-cube")
    settled = rule(model, cubes, off)
    cut = rule(model, cubes, off, settings=RulingSettings(tail=tail, tail_cap_s=0.05))
    assert cut.result == settled.result == "fell"
    assert cut.stacks == settled.stacks == (("red-cube", "orange-cube"),)
    assert cut.on_table == ("blue-beam",)
    assert cut.simulated_s < settled.simulated_s
    version_2 = RulingSettings(version=2, tail=tail)  # the tails are version 3's only
    assert rule(model, cubes, off, settings=version_2).simulated_s == settled.simulated_s


def test_a_tail_other_than_settling_is_named_in_the_method() -> None:
    assert RulingSettings(tail="guard").method == "simulation-quick/3+guard"
    assert RulingSettings(tail="statics", verdict_only=True).method == "simulation-quick/3:verdict"
    assert RulingSettings(version=2, tail="guard").method == "simulation-quick/2"
