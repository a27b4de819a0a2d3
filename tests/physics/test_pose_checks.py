"""The T06 check of many poses at once (``pose_checks``) against one pose at a time."""

from __future__ import annotations

import numpy as np
import pytest

from splash.bots.tower_random import RandomTowerBot
from splash.core import RandomOutcomes
from splash.core.actions import Action
from splash.core.outcomes import RoutedOutcomes
from splash.envs.tower_grid import PlacementGrid, accepted
from splash.games.bash import BashGame
from splash.games.tower import TowerGame, TowerState
from splash.games.tower.rules import forced
from splash.games.tower.scenario import position
from splash.physics.errors import InvalidPlacementError, PlacementRefusedError
from splash.physics.placement import Placement, PoseProbe, release
from splash.physics.provider import (
    PhysicsOutcomes,
    physics_game,
    pose_check,
    pose_checks,
    rests_of,
    shared_model,
)

OFF_GRID = (
    {"kind": "place"},
    {"kind": "place", "face": "nope", "rotation_deg": 0, "x_mm": 0, "y_mm": 0},
    {"kind": "place", "face": "bottom", "rotation_deg": 10, "x_mm": 55, "y_mm": -55},
)
"""Placements beside the grid: the game's own, an unknown face, far off the target."""


@pytest.fixture(scope="module")
def game() -> TowerGame:
    return physics_game([("options.players", 3)])


def place_states(game: TowerGame, seed: int, placements: int) -> list[TowerState]:
    """Every position of a random game (seeded) in which a gift waits to be placed."""
    children = np.random.SeedSequence(seed).spawn(2 + game.num_seats)
    outcomes = RoutedOutcomes(
        {"placement": PhysicsOutcomes(children[0])}, RandomOutcomes(children[1])
    )
    bots = [RandomTowerBot(children[2 + seat]) for seat in range(game.num_seats)]
    state = game.new_initial_state()
    found: list[TowerState] = []
    while not state.is_terminal() and state.placements < placements:
        if state.phase == "place":
            found.append(state.clone())
        if state.is_chance():
            state.apply(outcomes.outcome(state))
        else:
            state.apply(bots[state.to_act()].act(state))
    return found


@pytest.fixture(scope="module")
def random_positions(game: TowerGame) -> dict[int, list[TowerState]]:
    """Seed 2: a tower of 9 pieces; seed 3: gifts with no pose anywhere (forced)."""
    return {seed: place_states(game, seed, placements=16) for seed in (2, 3)}


def cell_actions(game: TowerGame, grid: PlacementGrid, state: TowerState) -> list[Action]:
    """Every cell of the placement grid that has a pose, then the off-grid placements."""
    docs = [p for p in grid.poses(state) if p is not None] + list(OFF_GRID)
    return [game.parse_action(doc) for doc in docs]


@pytest.mark.rule("T06")
def test_T06_pose_checks_equal_pose_check_on_every_cell_of_random_towers(
    game: TowerGame, random_positions: dict[int, list[TowerState]]
) -> None:
    grid = PlacementGrid(game)
    cells = accepted = refused = forced_positions = 0
    heights: set[int] = set()
    for positions in random_positions.values():
        for state in positions:
            actions = cell_actions(game, grid, state)
            one_by_one = [pose_check(state, action) for action in actions]
            assert pose_checks(state, actions) == one_by_one
            assert state.gift is not None
            forced_positions += forced(state, state.gift)
            heights.add(len(state.tower.pieces))
            cells += len(actions)
            accepted += sum(verdict is None for verdict in one_by_one)
            refused += sum(verdict is not None for verdict in one_by_one)
    assert cells >= 4000
    assert accepted >= 1000 and refused >= 1000
    assert forced_positions >= 1
    assert max(heights) >= 8


@pytest.mark.rule("T06")
def test_T06_the_grid_mask_is_what_the_game_says_of_each_cell(
    game: TowerGame, random_positions: dict[int, list[TowerState]]
) -> None:
    grid = PlacementGrid(game)
    refused = 0
    for state in random_positions[2][4:12:2]:
        poses = grid.poses(state)
        mask = accepted(state, poses)
        assert mask.tolist() == [p is not None and state.why_illegal(p) is None for p in poses]
        refused += int(sum(p is not None for p in poses) - mask.sum())
    assert refused >= 100


def branch(game: TowerGame) -> TowerState:
    """Two pieces ruled by the physics (a cube on one end of a beam), a beam to place."""
    state = position(
        game,
        reserves={0: "red-beam purple-arch", 1: "red-cube red-prism", 2: "green-beam blue-cube"},
    )
    provider = PhysicsOutcomes(7)
    for piece, x_mm in (("red-beam", 0), ("red-cube", 12)):
        state.apply({"kind": "give", "piece": piece})
        face = "flat" if piece == "red-beam" else "bottom"
        state.apply({"kind": "place", "face": face, "rotation_deg": 0, "x_mm": x_mm, "y_mm": 0})
        state.apply(provider.outcome(state))
    state.apply({"kind": "give", "piece": "green-beam"})
    return state


@pytest.mark.rule("T06")
def test_T06_a_pose_over_the_cube_is_refused_and_one_beside_it_accepted(game: TowerGame) -> None:
    state = branch(game)
    # Along the lower beam, the new one would reach the cube; across its free end, not.
    over, beside = (
        game.parse_action(
            {"kind": "place", "face": "flat", "rotation_deg": turn, "x_mm": x, "y_mm": 0}
        )
        for turn, x in ((0, 0), (90, -25))
    )
    verdicts = pose_checks(state, [over, beside, over])
    assert verdicts[1] is None
    assert verdicts[0] is not None and "red-cube" in str(verdicts[0])
    assert verdicts[2] == verdicts[0]
    assert verdicts == [pose_check(state, a) for a in (over, beside, over)]


def test_pose_checks_of_no_action_is_empty(game: TowerGame) -> None:
    assert pose_checks(branch(game), []) == []


@pytest.mark.rule("T06")
def test_T06_a_forced_placement_accepts_every_pose(game: TowerGame) -> None:
    state = position(game, reserves={0: "red-prism blue-cube", 1: "red-cube", 2: "green-cube"})
    state.apply({"kind": "give", "piece": "red-prism"})
    state.apply({"kind": "place", "face": "rect", "rotation_deg": 0, "x_mm": 0, "y_mm": 0})
    state.apply(PhysicsOutcomes(4).outcome(state))
    state.apply({"kind": "give", "piece": "red-cube"})
    assert forced(state, "red-cube")  # the prism's ridge has no free top
    actions = cell_actions(game, PlacementGrid(game), state)
    assert pose_checks(state, actions) == [None] * len(actions)
    assert [pose_check(state, a) for a in actions] == [None] * len(actions)


def test_a_tower_without_recorded_poses_refuses_every_pose_alike(game: TowerGame) -> None:
    state = position(game, reserves={0: "red-cube", 1: "blue-cube"}, tower="green-cube")
    state.apply({"kind": "give", "piece": "red-cube"})
    actions = cell_actions(game, PlacementGrid(game), state)
    verdicts = pose_checks(state, actions)
    assert verdicts == [pose_check(state, a) for a in actions]
    assert all(v is not None and "no recorded pose" in str(v) for v in verdicts)


def test_a_state_of_another_game_is_answered_as_pose_check_does(game: TowerGame) -> None:
    other = BashGame.from_settings([]).new_initial_state()
    action = game.parse_action({"kind": "place"})
    assert pose_checks(other, [action]) == [pose_check(other, action)]
    assert pose_checks(other, [action])[0] is not None


def test_the_probe_moves_the_piece_and_raises_as_release_does(game: TowerGame) -> None:
    state = branch(game)
    model = shared_model(game.catalogue)
    tower = rests_of(state)
    probe = PoseProbe(model, tower)
    beside = Placement("green-beam", "flat", 90.0, (-0.025, 0.0), "red-beam")
    over = Placement("green-beam", "flat", 0.0, (0.0, 0.0), "red-beam")
    table = Placement("blue-cube", "bottom", 30.0, (0.12, 0.0), "table")
    chosen = probe.check(beside)
    assert model.pose("green-beam") == chosen
    assert chosen == release(model, tower, beside)
    with pytest.raises(PlacementRefusedError) as error:
        probe.check(over)
    assert error.value.touching == ("red-cube",)
    assert probe.check(table) == release(model, tower, table)  # another piece: reloaded
    with pytest.raises(InvalidPlacementError):
        probe.check(Placement("red-cube", "bottom", 0.0, (0.0, 0.0), "red-beam"))
