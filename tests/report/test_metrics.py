"""The designer metrics on small traces and outcome tables computed by hand."""

from __future__ import annotations

import numpy as np
import pytest

from splash.report import metrics

# Two players, five moves (s_0 … s_4), then the final state s_5.
BEFORE = [[-1.0, -1.0], [0.0, -1.0], [0.5, -1.0], [0.5, 0.5], [0.5, 0.6]]


def trace(final: list[float]) -> np.ndarray:
    return np.asarray([*BEFORE, final], dtype=np.float64)


def test_lead_change_counts_the_first_state_and_every_change_of_the_leader_set() -> None:
    # Leaders: {0,1}, {0}, {0}, {0,1}, {1}: changes at s_0, s_1, s_3, s_4 -> 4 / 5.
    assert metrics.lead_change(trace([1.0, -1.0])) == pytest.approx(0.8)


def test_lead_change_of_a_game_led_by_one_player_throughout() -> None:
    steady = np.asarray([[0.1, 0.0], [0.2, 0.0], [0.3, 0.1], [1.0, -1.0]])
    assert metrics.lead_change(steady) == pytest.approx(1 / 3)


def test_stability_sums_the_population_variances_of_the_states_before_each_move() -> None:
    # v_0: -1, 0, .5, .5, .5 (mean .1): 1.7 / 5 = .34;
    # v_1: -1, -1, -1, .5, .6 (mean -.38): 2.888 / 5 = .5776.
    assert metrics.stability(trace([1.0, -1.0])) == pytest.approx(0.34 + 0.5776)


def test_decisiveness_when_the_late_leader_wins() -> None:
    winners = metrics.top_players([-1.0, 1.0])
    assert winners == (1,)
    # θ = the best of player 0 before the end: 0.5; player 1 first exceeds it at s_4.
    assert metrics.decisiveness_threshold(trace([-1.0, 1.0]), winners) == pytest.approx(0.5)
    assert metrics.decisiveness_moves(trace([-1.0, 1.0]), winners) == pytest.approx(4 / 5)


def test_decisiveness_moves_is_one_when_the_winner_never_passes_the_threshold() -> None:
    # Player 0 wins, but player 1 reached 0.6 and player 0 never got above it.
    assert metrics.decisiveness_threshold(trace([1.0, -1.0]), (0,)) == pytest.approx(0.6)
    assert metrics.decisiveness_moves(trace([1.0, -1.0]), (0,)) == 1.0


def test_drama_is_the_winners_distance_behind_the_leader() -> None:
    d = metrics.drama_sequence(trace([-1.0, 1.0]), (1,))
    assert d.tolist() == pytest.approx([0.0, 1.0, 1.5, 0.0, 0.0])
    values = metrics.trace_metrics(trace([-1.0, 1.0]), (1,))
    assert values["DramaAverage"] == pytest.approx(0.5)
    assert values["DramaMedian"] == pytest.approx(0.0)
    assert values["DramaMax"] == pytest.approx(1.5)
    assert values["DramaVariance"] == pytest.approx(0.4)
    # Least squares slope of d against i = 0..4: Σ(x - 2)(d - .5) / Σ(x - 2)² = -1 / 10.
    assert values["DramaChangeLineBestFit"] == pytest.approx(-0.1)


def test_a_game_without_moves_has_no_state_evaluation_metrics() -> None:
    single = np.asarray([[0.0, 0.0]])
    assert np.isnan(metrics.lead_change(single))
    assert np.isnan(metrics.trace_metrics(single, (0, 1))["DecisivenessMoves"])


def test_utilities_from_ranks() -> None:
    assert metrics.utilities(4, {2}) == pytest.approx((-1 / 3, -1 / 3, 1.0, -1 / 3))
    # Two winners of four share ranks 1 and 2 (1.5), the others 3 and 4 (3.5).
    assert metrics.utilities(4, {0, 2}) == pytest.approx((2 / 3, -2 / 3, 2 / 3, -2 / 3))
    assert metrics.utilities(3, ()) == (0.0, 0.0, 0.0)


def test_balance_uses_partial_wins() -> None:
    u = np.asarray([[1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
    assert metrics.partial_wins(u).tolist() == pytest.approx([2 / 3, 1 / 3])
    assert metrics.balance(u) == pytest.approx(2 / 3)
    # Three players, a draw counts half for everyone: r = (2.5, 1, 1)/3.
    three = np.asarray(
        [metrics.utilities(3, {0}), metrics.utilities(3, {0}), metrics.utilities(3, ())]
    )
    assert metrics.balance(three) == pytest.approx(0.5)
    assert metrics.advantage_p1(three) == pytest.approx(2.5 / 3)


def test_outcome_uniformity_uses_the_sample_variance() -> None:
    u = np.asarray([[1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
    # Var_{N-1} of (1, 1, -1) = (4/9 + 4/9 + 16/9) / 2 = 4/3 for both players.
    assert metrics.outcome_uniformity(u) == pytest.approx(1 - 4 / 3)
    assert metrics.outcome_uniformity(np.asarray([[1.0, -1.0]] * 5)) == pytest.approx(1.0)


def test_ideal_duration_scores_each_game() -> None:
    turns = np.asarray([500.0, 1500.0, 2500.0])
    assert metrics.ideal_duration(turns, 0.0, 1000.0) == pytest.approx((1 + 0.5 + 0) / 3)
    assert metrics.ideal_duration(np.asarray([50.0, 200.0]), 100.0, 1000.0) == pytest.approx(0.75)


def test_drawishness_leaves_out_the_timeouts_and_completion_counts_winners() -> None:
    u = np.asarray([[0.0, 0.0], [0.0, 0.0], [1.0, -1.0], [-1.0, 1.0]])
    capped = np.asarray([True, False, False, False])
    assert metrics.drawishness(u, capped) == pytest.approx(1 / 4)
    assert metrics.timeouts(capped) == pytest.approx(1 / 4)
    assert metrics.completion(np.asarray([False, False, True, True])) == pytest.approx(0.5)
