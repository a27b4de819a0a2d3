"""A placed piece that drops past its target without touching it: an ordinary fall (TD07,
T10), never a spontaneous one (TD12); version 2 and the first long mode kept as they were.

Each case releases a piece at a pose T06 accepts, at the edge of its target, with a tremor
that takes it off: the piece drops past its target to the table without touching anything.
"""

from __future__ import annotations

import pytest

from splash.games.tower import TowerGame
from splash.games.tower.scenario import position
from splash.physics.judge import Thresholds
from splash.physics.model import TowerModel
from splash.physics.outcome import RulingOutcome
from splash.physics.placement import Placement, PoseProbe, Tremor
from splash.physics.poses import PieceRest
from splash.physics.provider import (
    PhysicsOutcomes,
    outcome_document,
    physics_game,
    placement_of,
    rests_of,
)
from splash.physics.ruling import RulingSettings, rule
from splash.physics.static_ruling import rule_with_margin
from tests.physics.builders import Step, build, shared_model

EDGE_M = 0.0249
"""A cube's centre this far off the centre of the cube under it: accepted by T06 (its limit
is 25.1 mm), with 0.1 mm of the footprints overlapping."""
OFF = Tremor(dx=0.0005)
"""A tremor that takes it off its target: 0.5 mm further out."""
MODES = pytest.mark.parametrize(
    "settings", [RulingSettings(), RulingSettings(mode="long")], ids=["quick", "long"]
)


@pytest.fixture(scope="module")
def model() -> TowerModel:
    return shared_model()


@pytest.fixture(scope="module")
def two_cubes(model: TowerModel) -> list[PieceRest]:
    steps = [Step("red-cube", "bottom"), Step("orange-cube", "bottom")]
    tower, _ = build(model, steps, settings=RulingSettings(version=1))
    return tower


@pytest.fixture(scope="module")
def three_cubes(model: TowerModel) -> list[PieceRest]:
    steps = [
        Step("red-cube", "bottom"),
        Step("green-cube", "bottom"),
        Step("orange-cube", "bottom"),
    ]
    tower, _ = build(model, steps, settings=RulingSettings(version=1))
    return tower


def _edge(model: TowerModel, two_cubes: list[PieceRest]) -> Placement:
    placement = Placement("blue-cube", "bottom", 0.0, (EDGE_M, 0.0), "orange-cube")
    PoseProbe(model, two_cubes).check(placement)  # T06 accepts it: no error
    return placement


def _dropped_past(outcome: RulingOutcome) -> None:
    assert outcome.on_table == ("blue-cube",)
    assert outcome.stacks == (("red-cube", "orange-cube"),)
    dropped = outcome.pieces[-1]
    assert dropped.support is None
    assert dropped.pose.position[2] < 0.02  # it lies on the table


@pytest.mark.rule("TD07", "TD12")
@MODES
def test_TD07_a_piece_dropping_past_its_target_has_fallen(
    model: TowerModel, two_cubes: list[PieceRest], settings: RulingSettings
) -> None:
    outcome = rule(model, two_cubes, _edge(model, two_cubes), OFF, settings)
    assert outcome.result == "fell"
    _dropped_past(outcome)
    assert outcome.method == (
        "simulation-long/2:3s" if settings.mode == "long" else "simulation-quick/3"
    )


@pytest.mark.rule("TD12")
@pytest.mark.parametrize(
    ("offset", "turn", "tremor"),
    [
        ((-EDGE_M, 0.0), 0.0, Tremor(dx=-0.0005)),
        ((EDGE_M, 0.0), 0.0, Tremor(dx=0.006, lift=0.001)),
        ((-EDGE_M, -EDGE_M), 0.0, Tremor(dx=-0.0004, dy=-0.0004)),
        ((0.0, 0.0294), 30.0, Tremor(dy=0.0005, rotation_deg=0.5)),  # turned: T06's limit 29.7 mm
    ],
)
def test_TD12_the_placed_piece_falling_untouched_is_not_spontaneous(
    model: TowerModel,
    three_cubes: list[PieceRest],
    offset: tuple[float, float],
    turn: float,
    tremor: Tremor,
) -> None:
    placement = Placement("blue-cube", "bottom", turn, offset, "orange-cube")
    PoseProbe(model, three_cubes).check(placement)
    outcome = rule(model, three_cubes, placement, tremor)
    assert outcome.result == "fell"
    assert outcome.on_table == ("blue-cube",)
    assert outcome.stacks == (("red-cube", "green-cube", "orange-cube"),)


@pytest.mark.rule("TD12")
def test_TD12_version_2_and_the_first_long_mode_rule_as_they_did(
    model: TowerModel, two_cubes: list[PieceRest]
) -> None:
    placement = _edge(model, two_cubes)
    for settings in (RulingSettings(version=2), RulingSettings(mode="long", version=2)):
        outcome = rule(model, two_cubes, placement, OFF, settings)
        assert outcome.result == "spontaneous"
        _dropped_past(outcome)
    assert RulingSettings(mode="long", version=2).method == "simulation-long/1:3s"
    assert RulingSettings(version=2).method == "simulation-quick/2"


@pytest.mark.rule("T10", "TD07")
def test_T10_the_giver_of_a_piece_that_dropped_past_takes_a_drop() -> None:
    steady = [
        (f"options.steadiness.{key}", 0.0) for key in ("position_mm", "angle_deg", "height_mm")
    ]
    game: TowerGame = physics_game([("options.players", 2), *steady])
    state = position(game, reserves={0: "red-cube blue-cube", 1: "orange-cube green-cube"})
    provider = PhysicsOutcomes(3)
    for giver, piece in ((0, "red-cube"), (1, "orange-cube")):
        assert state.to_act() == giver
        state.apply({"kind": "give", "piece": piece})
        state.apply({"kind": "place", "face": "bottom", "rotation_deg": 0, "x_mm": 0, "y_mm": 0})
        state.apply(provider.outcome(state))
        assert state.tower.ids()[-1] == piece
    assert state.to_act() == 0
    state.apply({"kind": "give", "piece": "blue-cube"})
    state.apply({"kind": "place", "face": "bottom", "rotation_deg": 0, "x_mm": 24.9, "y_mm": 0})
    options = game.options
    ruling, extra = provider.rule(
        shared_model(),
        rests_of(state),
        placement_of(state),
        OFF,
        forced=False,
        thresholds=Thresholds(options.fall_distance_mm, options.fall_angle_deg),
    )
    assert ruling.result == "fell"
    doc = outcome_document(state, ruling, extra)
    state.apply(state.game.parse_action({"kind": "result", "outcome": doc}))
    assert state.drops == [1, 0]


@pytest.mark.rule("TD07", "TD14")
@MODES
def test_TD07_every_outcome_records_the_executed_pose_static_margin(
    model: TowerModel, two_cubes: list[PieceRest], settings: RulingSettings
) -> None:
    centred = Placement("blue-cube", "bottom", 0.0, (0.0, 0.0), "orange-cube")
    near = Placement("blue-cube", "bottom", 0.0, (0.011, 0.0), "orange-cube")
    shaken = Tremor(dx=0.0005, lift=0.003)  # the lift rules out the static shortcut
    expected = {centred: 12.5, near: 1.0}  # a cube is 25 mm wide; 0.5 mm of tremor
    for placement, tremor in ((centred, Tremor()), (near, shaken)):
        outcome = rule(model, two_cubes, placement, tremor, settings)
        _, margin = rule_with_margin(model, two_cubes, placement, tremor, forced=False)
        assert outcome.margin_mm == pytest.approx(margin * 1000.0, abs=1e-6)
        assert outcome.margin_mm == pytest.approx(expected[placement], abs=0.2)
        assert RulingOutcome.from_json(outcome.to_json()).margin_mm == outcome.margin_mm
    # Taken off its target altogether, the piece has no support region: no margin.
    off = rule(model, two_cubes, _edge(model, two_cubes), OFF, settings)
    assert off.margin_mm is None and "margin_mm" not in off.to_json()
