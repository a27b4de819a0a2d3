"""The state evaluations of the traces, on positions checked by hand, and the recorder."""

from __future__ import annotations

import pytest

from splash.games.bash import BashGame
from splash.games.bash.scenario import position
from splash.games.tower import TowerGame
from splash.games.tower.scenario import position as tower_position
from splash.sim import GameSpec, run_one
from splash.sim.traces import (
    bash_evaluation,
    bash_progress,
    bash_started,
    tower_evaluation,
    tower_progress,
    tower_started,
    utilities,
)


def test_bash_progress_counts_each_runner_in_its_own_lane_and_laps() -> None:
    # Default course: outer 40, centre 34, high tide 28 squares a lap; pawns run 2 laps,
    # the helmsman 1.
    state = position(BashGame(), pieces="A1:c17 A2:o40 A3:done AH:h14 B1:h28")
    # A: 17/68, 40/80, finished, 14/28 -> (0.25 + 0.5 + 1 + 0.5) / 4.
    # B: 28/56, two pawns on the start line, the helmsman not entered -> 0.5 / 4.
    assert bash_progress(state) == pytest.approx((0.5625, 0.125))
    assert bash_evaluation(state) == pytest.approx((0.125, -0.75))


def test_bash_progress_of_three_teams_with_a_pawn_on_its_second_lap() -> None:
    game = BashGame.from_settings([("options.teams", 3)])
    state = position(game, pieces="C2:c51 C3:o10")
    # C: 51/68 and 10/80 -> (0.75 + 0.125) / 4; A and B wait on the start line.
    assert bash_evaluation(state) == pytest.approx((-1.0, -1.0, 2 * 0.875 / 4 - 1))


def test_a_finished_bash_game_is_worth_the_utilities() -> None:
    state = position(BashGame(), pieces="A1:c17")
    state.board.winner, state.over = 1, True
    assert bash_evaluation(state) == (-1.0, 1.0)


def test_set_up_is_over_once_the_pawns_are_placed() -> None:
    assert not bash_started(BashGame().new_initial_state())
    assert bash_started(position(BashGame(), pieces="A1:c3"))


def test_tower_progress_takes_the_better_of_reserve_and_drops() -> None:
    game = TowerGame.from_settings([("options.players", 3)])
    state = tower_position(
        game,
        reserves={0: "red-cube orange-cube yellow-cube", 1: "red-beam orange-beam", 2: ""},
        drops=[2, 0, 1],
    )
    reserves = (6, 4, 5)
    # Seat 0: max(1 - 3/6, 2/3) = 2/3; seat 1: max(1 - 2/4, 0) = 1/2; seat 2: emptied, 1.
    assert tower_progress(state, reserves) == pytest.approx((2 / 3, 0.5, 1.0))
    assert tower_evaluation(state, reserves) == pytest.approx((1 / 3, 0.0, 1.0))


def test_a_reserve_grown_past_its_start_is_clipped_at_zero() -> None:
    game = TowerGame.from_settings([("options.players", 2)])
    state = tower_position(
        game, reserves={0: "red-cube orange-cube yellow-cube green-cube", 1: "red-beam"}
    )
    assert tower_progress(state, (2, 2)) == pytest.approx((0.0, 0.5))


def test_the_draft_is_set_up() -> None:
    game = TowerGame.from_settings([("options.players", 2)])
    assert not tower_started(game.new_initial_state())
    assert tower_started(tower_position(game, reserves={0: "red-cube", 1: "red-beam"}))


def test_utilities_from_the_ranks() -> None:
    assert utilities(3, (1,)) == pytest.approx((-0.5, 1.0, -0.5))
    assert utilities(4, (0, 2)) == pytest.approx((2 / 3, -2 / 3, 2 / 3, -2 / 3))
    assert utilities(2, ()) == (0.0, 0.0)


def test_a_bash_record_holds_the_trace_of_every_move() -> None:
    spec = GameSpec.of("bash", ["options.teams=3"], ["random"])
    record = run_one(spec, 4)
    trace = record["trace"]
    assert isinstance(trace, list)
    moves = record["moves"]
    assert isinstance(moves, int)
    assert len(trace) == moves + 1
    assert record["decisions"] == moves + 3 * 3  # three pawns placed per team (BD01)
    assert trace[0] == [-1.0, -1.0, -1.0]  # everyone on the start line at s_0
    winner = record["winner"]
    assert isinstance(winner, int)
    assert trace[-1] == pytest.approx(list(utilities(3, (winner,))))
    assert all(-1.0 <= v <= 1.0 for row in trace for v in row)
    assert run_one(spec, 4)["trace"] == trace


def test_a_capped_bash_game_ends_on_a_draw() -> None:
    record = run_one(GameSpec.of("bash", ["options.turn_cap=6"], ["random"]), 0)
    assert record["turn_cap"] is True
    trace = record["trace"]
    assert isinstance(trace, list)
    assert trace[-1] == [0.0, 0.0]
    assert max(trace[-2]) > -1.0  # someone moved in six turns
