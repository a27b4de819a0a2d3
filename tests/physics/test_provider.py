"""The physics as the outcome provider of the rules engine (TD04, TD07, TD08, TD13-TD15, T06)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from splash.core import IllegalActionError
from splash.games.tower import TowerGame, TowerState
from splash.games.tower.scenario import position
from splash.physics.model import TowerModel
from splash.physics.outcome import RulingOutcome
from splash.physics.placement import Placement, Tremor
from splash.physics.poses import PieceRest
from splash.physics.provider import PhysicsOutcomes, physics_game
from splash.physics.ruling import RulingSettings


@pytest.fixture(scope="module")
def game() -> TowerGame:
    return physics_game([("options.players", 2)])


def _place(state: TowerState, provider: PhysicsOutcomes, piece: str, **pose: object) -> str:
    state.apply({"kind": "give", "piece": piece})
    state.apply({"kind": "place", **pose} if pose else {"kind": "place"})
    result = provider.outcome(state)
    state.apply(result)
    return str(result.param("outcome")["result"])


def _branch(game: TowerGame) -> tuple[TowerState, PhysicsOutcomes]:
    state = position(
        game,
        reserves={0: "red-beam green-beam purple-arch", 1: "red-cube red-prism yellow-cylinder"},
    )
    provider = PhysicsOutcomes(7)
    assert (
        _place(state, provider, "red-beam", face="flat", rotation_deg=0, x_mm=0, y_mm=0) == "stood"
    )
    assert (
        _place(state, provider, "red-cube", face="bottom", rotation_deg=0, x_mm=12, y_mm=0)
        == "stood"
    )
    return state, provider


@pytest.mark.rule("TD08", "TD04")
def test_TD08_the_physics_supplies_outcomes_the_rules_accept(game: TowerGame) -> None:
    state, _ = _branch(game)
    beam, cube = state.tower.get("red-beam"), state.tower.get("red-cube")
    assert cube.support == "red-beam"
    assert beam.height_mm == pytest.approx(15.0, abs=0.1)
    assert cube.height_mm == pytest.approx(40.0, abs=0.1)
    assert beam.uncovered  # the left end of the beam is still free: the tower may branch
    assert cube.pose is not None


def test_T06_a_pose_that_would_touch_another_piece_is_refused(game: TowerGame) -> None:
    state, _ = _branch(game)
    state.apply({"kind": "give", "piece": "green-beam"})  # a beam: its target is red-beam
    before = state.to_json()
    with pytest.raises(IllegalActionError) as error:
        state.apply({"kind": "place", "face": "flat", "rotation_deg": 0, "x_mm": 0, "y_mm": 0})
    assert "red-cube" in str(error.value)
    assert state.to_json() == before
    state.apply({"kind": "place", "face": "flat", "rotation_deg": 90, "x_mm": -13, "y_mm": 0})
    assert state.phase == "result"


@pytest.mark.rule("TD07", "T10")
def test_TD07_a_piece_far_off_centre_falls_and_the_giver_takes_a_drop(game: TowerGame) -> None:
    state = position(game, reserves={0: "red-cube blue-cube", 1: "green-cube orange-cube"})
    provider = PhysicsOutcomes(3)
    assert (
        _place(state, provider, "red-cube", face="bottom", rotation_deg=0, x_mm=0, y_mm=0)
        == "stood"
    )
    assert (
        _place(state, provider, "green-cube", face="bottom", rotation_deg=0, x_mm=18, y_mm=0)
        == "fell"
    )
    assert state.drops == [0, 1]
    # Only single pieces are left: the placer chooses the new base among all of them (T11).
    assert state.phase == "base" and state.to_act() == 0
    state.apply({"kind": "base", "piece": "red-cube"})
    assert state.tower.ids() == ("red-cube",)
    assert "green-cube" in state.reserves[0]


@pytest.mark.rule("TD15", "TD14")
def test_TD15_the_same_seed_gives_the_same_outcome(game: TowerGame) -> None:
    first, _ = _branch(game)
    second, _ = _branch(game)
    assert first.to_json() == second.to_json()
    for state in (first, second):
        state.apply({"kind": "give", "piece": "green-beam"})
        state.apply({"kind": "place", "face": "flat", "rotation_deg": 90, "x_mm": -13, "y_mm": 0})
    one = PhysicsOutcomes(11).outcome(first)
    two = PhysicsOutcomes(11).outcome(second)
    other = PhysicsOutcomes(12).outcome(first)
    assert one == two
    assert one.param("outcome")["details"]["tremor"] != other.param("outcome")["details"]["tremor"]


def test_TD14_a_steady_hand_has_no_tremor() -> None:
    still = physics_game(
        [
            ("options.players", 2),
            ("options.steadiness.position_mm", 0.0),
            ("options.steadiness.angle_deg", 0.0),
            ("options.steadiness.height_mm", 0.0),
        ]
    )
    state = position(still, reserves={0: "red-cube blue-cube", 1: "green-cube"})
    state.apply({"kind": "give", "piece": "red-cube"})
    state.apply({"kind": "place"})
    tremor = PhysicsOutcomes(5).outcome(state).param("outcome")["details"]["tremor"]
    assert all(value == 0.0 for value in tremor.values())


@pytest.mark.rule("TD07")
def test_TD07_the_fall_thresholds_are_options(monkeypatch: pytest.MonkeyPatch) -> None:
    from splash.physics import provider as module
    from splash.physics import ruling

    seen: list[RulingSettings] = []
    real = ruling.rule

    def spy(
        model: TowerModel,
        tower: Sequence[PieceRest],
        placement: Placement,
        tremor: Tremor | None = None,
        settings: RulingSettings | None = None,
        *,
        forced: bool = False,
    ) -> RulingOutcome:
        assert settings is not None
        seen.append(settings)
        return real(model, tower, placement, tremor, settings, forced=forced)

    monkeypatch.setattr(module, "rule", spy)
    game = physics_game(
        [("options.players", 2), ("options.fall_distance_mm", 2.5), ("options.fall_angle_deg", 4.0)]
    )
    state = position(game, reserves={0: "red-cube blue-cube", 1: "green-cube"})
    _place(state, PhysicsOutcomes(3), "red-cube")
    assert (seen[0].thresholds.distance_mm, seen[0].thresholds.angle_deg) == (2.5, 4.0)


@pytest.mark.rule("T06", "TD04")
def test_T06_a_gift_with_no_pose_anywhere_is_placed_all_the_same(game: TowerGame) -> None:
    from splash.games.tower.rules import forced, target_of

    state = position(game, reserves={0: "red-prism blue-cube", 1: "red-cube green-cube"})
    provider = PhysicsOutcomes(4)
    assert (
        _place(state, provider, "red-prism", face="rect", rotation_deg=0, x_mm=0, y_mm=0) == "stood"
    )
    assert not state.tower.get("red-prism").uncovered  # a ridge: no free top
    state.apply({"kind": "give", "piece": "red-cube"})
    assert forced(state, "red-cube")
    target = target_of(state, "red-cube")
    assert target is not None and target.piece == "red-prism"
    state.apply({"kind": "place", "face": "bottom", "rotation_deg": 0, "x_mm": 0, "y_mm": 0})
    state.apply(provider.outcome(state))
    assert state.phase != "result"
