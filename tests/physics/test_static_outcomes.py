"""The static ruling (no dynamics): golden tipping points, what falls, the same tremors as
the simulation, outcome documents the rules accept."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from splash.bots.tower_random import RandomTowerBot
from splash.core.outcomes import RandomOutcomes, RoutedOutcomes
from splash.core.play import play
from splash.games.tower import TowerState
from splash.games.tower.scenario import position
from splash.physics.errors import PlacementRefusedError
from splash.physics.model import TowerModel
from splash.physics.outcome import RulingOutcome
from splash.physics.placement import Placement, Steadiness, Tremor
from splash.physics.poses import TABLE, PieceRest
from splash.physics.provider import PhysicsOutcomes, physics_game
from splash.physics.ruling import rule
from splash.physics.static_outcomes import StaticOutcomes, rule_statically
from splash.physics.statics import line_margin
from tests.physics.builders import catalogue_with_colours, shared_model


def _column(model: TowerModel, steps: list[tuple[str, str, float]]) -> RulingOutcome:
    """Place each ``(piece, face, x offset in metres)`` on the previous piece (the first on
    the table), statically; the last ruling."""
    tower: list[PieceRest] = []
    target = TABLE
    outcome = None
    for piece, face, x in steps:
        outcome = rule_statically(model, tower, Placement(piece, face, 0.0, (x, 0.0), target))
        if outcome.result != "stood":
            break
        tower, target = list(outcome.tower()), piece
    assert outcome is not None
    return outcome


def _threshold(stands: object, low: float, high: float) -> float:
    assert callable(stands) and stands(low) and not stands(high)
    for _ in range(30):
        middle = (low + high) / 2
        low, high = (middle, high) if stands(middle) else (low, middle)
    return (low + high) / 2


@pytest.mark.rule("TD07")
def test_a_cube_centred_on_a_cube_stands_flush_on_it() -> None:
    outcome = _column(shared_model(), [("red-cube", "bottom", 0.0), ("blue-cube", "bottom", 0.0)])
    assert outcome.result == "stood"
    assert outcome.stacks == (("red-cube", "blue-cube"),)
    cube = outcome.pieces[-1]
    assert cube.support == "red-cube"
    assert cube.pose.position[2] == pytest.approx(0.0375, abs=2e-6)  # 25 mm + half of 25 mm
    assert outcome.simulated_s == 0.0


@pytest.mark.rule("TD07")
def test_a_beam_on_a_cube_tips_at_12_5_mm_and_falls_alone() -> None:
    model = shared_model()

    def stands(x: float) -> bool:
        steps = [("red-cube", "bottom", 0.0), ("red-beam", "flat", x)]
        return _column(model, steps).result == "stood"

    assert _threshold(stands, 0.0, 0.025) == pytest.approx(0.0125, abs=1e-6)
    fell = _column(model, [("red-cube", "bottom", 0.0), ("red-beam", "flat", 0.014)])
    assert fell.result == "fell"
    assert fell.stacks == (("red-cube",),) and fell.on_table == ("red-beam",)
    beam = fell.pieces[-1]
    assert beam.support is None and beam.face == "flat"
    assert beam.pose.position[2] == pytest.approx(0.0075, abs=1e-9)  # lying flat on the table
    assert beam.pose.position[0] > 0.025  # fallen on the side it overhung


@pytest.mark.slow
@pytest.mark.rule("TD07")
def test_a_stack_of_eight_cubes_tips_at_3_125_mm_per_cube(tmp_path: Path) -> None:
    catalogue = catalogue_with_colours(tmp_path, {"pink": "#ff66cc", "brown": "#8b5a2b"})
    model = TowerModel(catalogue)
    cubes = [piece for piece in catalogue.piece_ids if piece.endswith("-cube")]

    def leaning(step: float) -> RulingOutcome:
        return _column(model, [(c, "bottom", step if i else 0.0) for i, c in enumerate(cubes)])

    def stands(step: float) -> bool:
        outcome = leaning(step)
        return outcome.result == "stood" and len(outcome.pieces) == 8

    assert _threshold(stands, 0.0, 0.006) == pytest.approx(0.025 / 8, abs=1e-6)
    fell = leaning(0.0032)
    assert fell.result == "fell" and len(fell.pieces) == 8
    assert fell.stacks == ((cubes[0],),)  # everything over the base tipped together
    assert set(fell.on_table) == set(cubes[1:])


def test_a_lying_cylinder_stands_on_the_table_and_rolls_off_a_piece() -> None:
    segment = np.array([[-0.01, 0.0], [0.01, 0.0]])
    assert line_margin(np.array([0.004, 0.0]), segment) == pytest.approx(0.006)
    assert line_margin(np.array([0.004, 0.001]), segment) == pytest.approx(-0.001)
    model = shared_model()
    on_table = _column(model, [("red-cylinder", "side", 0.0)])
    assert on_table.result == "stood"
    assert on_table.pieces[0].pose.position[2] == pytest.approx(0.01, abs=2e-6)
    on_cube = _column(model, [("red-cube", "bottom", 0.0), ("red-cylinder", "side", 0.0)])
    assert on_cube.result == "fell" and on_cube.on_table == ("red-cylinder",)


def test_the_T06_check_refuses_what_the_simulation_refuses() -> None:
    model = shared_model()
    tower = list(_column(model, [("red-beam", "flat", 0.0), ("red-cube", "bottom", 0.012)]).tower())
    touching = Placement("green-beam", "flat", 0.0, (0.0, 0.0), "red-beam")
    for ruling in (rule_statically, rule):
        with pytest.raises(PlacementRefusedError) as error:
            ruling(model, tower, touching)
        assert error.value.touching == ("red-cube",)


def test_the_tremor_moves_the_piece_but_the_lift_is_ignored() -> None:
    model = shared_model()
    tower = list(_column(model, [("red-cube", "bottom", 0.0)]).tower())
    placement = Placement("blue-cube", "bottom", 0.0, (0.0, 0.0), "red-cube")
    moved = rule_statically(model, tower, placement, Tremor(dx=0.001, rotation_deg=5.0, lift=0.01))
    x, _, z = moved.pieces[-1].pose.position
    assert x == pytest.approx(0.001, abs=1e-9)
    assert z == pytest.approx(0.0375, abs=2e-6)
    assert moved.tremor.lift == 0.01


def _state() -> TowerState:
    game = physics_game([("options.players", 2)])
    return position(game, reserves={0: "red-cube red-beam", 1: "blue-cube"}, giver=0)


def test_the_tremor_is_drawn_as_the_simulation_draws_it() -> None:
    tremors = []
    for provider in (StaticOutcomes(11), PhysicsOutcomes(11)):
        state = _state()
        state.apply({"kind": "give", "piece": "red-cube"})
        state.apply({"kind": "place"})
        outcome = provider.outcome(state).param("outcome")
        tremors.append(outcome["details"]["tremor"])
        state.apply({"kind": "result", "outcome": outcome})
        assert state.tower.ids() == ("red-cube",)
        hand = state.tower_game.options.steadiness_of(0)
        tremors.append(
            Steadiness(hand.position_mm, hand.angle_deg, hand.height_mm).sample(provider.rng)
        )
    assert tremors[0] == tremors[2]
    assert tremors[1] == tremors[3]  # the generators were used alike


def _game(seed: int) -> TowerState:
    game = physics_game([("options.players", 3)])
    children = np.random.SeedSequence(seed).spawn(5)
    outcomes = RoutedOutcomes(
        {"placement": StaticOutcomes(children[0])}, RandomOutcomes(children[1])
    )
    bots = [RandomTowerBot(children[2 + seat]) for seat in range(3)]
    state = play(game.new_initial_state(), bots, outcomes)
    assert isinstance(state, TowerState)
    return state


@pytest.mark.slow
@pytest.mark.rule("TD08", "T11", "T12")
def test_whole_games_with_the_static_ruling_are_accepted_and_repeat() -> None:
    state = _game(5)
    assert state.is_terminal()
    results = [a.param("outcome") for a in state.history if a.kind == "result"]
    assert {r["result"] for r in results} == {"stood", "fell"}
    assert all(r["details"]["ruling"] == "statics" for r in results)
    for fall in (r for r in results if r["result"] == "fell"):
        lying = [p for p in fall["tower"] if p["piece"] in fall["on_table"]]
        assert lying and all(p["support"] is None for p in lying)
    again = _game(5)
    assert [a.to_json() for a in again.history] == [a.to_json() for a in state.history]
