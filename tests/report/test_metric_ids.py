"""Every metric id on a table of four games, against values computed by hand."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from splash.core.errors import OptionError
from splash.report.metric_ids import (
    METRICS,
    TEAM_WIN_RATE,
    GamesTable,
    estimate,
    metric,
    table_metrics,
)

# Every game has the same trace of two teams over s_0, s_1 and the final s_2 (team A won):
# L_0 = {A, B}, L_1 = {B}: LeadChange = 2/2. Stability: Var(-1, -0.5) + Var(-1, 0)
# = 0.0625 + 0.25. θ = B's best before the end, 0; A never exceeds it: DecisivenessMoves
# = 2/2. Drama d = (0, 0 - (-0.5)) = (0, 0.5): mean 0.25, median 0.25, max 0.5, variance
# 0.0625, slope 0.5.
TRACE = np.asarray([[-1.0, -1.0], [-0.5, 0.0], [1.0, -1.0]])


def tiny(traced: bool = True) -> GamesTable:
    """Four games of two teams: A wins two, B one, the fourth hits the turn cap."""
    frame = pd.DataFrame(
        {
            "seed": [0, 1, 2, 3],
            "winner_team": pd.array([0, 0, 1, None], dtype="Int64"),
            "turn_cap": [False, False, False, True],
            "turns": [100, 120, 140, 200],
            "moves": [300, 320, 340, 400],
            "actions": [500, 520, 540, 600],
        }
    )
    if traced:
        frame["trace"] = pd.Series([TRACE] * 4, dtype=object)
    return GamesTable(frame, 2, ((0,), (1,)), 0)


# The utilities u = (1, -1), (1, -1), (-1, 1), (0, 0); partial wins of A (1, 1, 0, 1/2).
EXPECTED: dict[str, float] = {
    "first_seat_advantage": 2 / 4 - 1 / 2,
    "advantage_p1": (1 + 1 + 0 + 0.5) / 4,
    # r_A = 0.625, r_B = 0.375.
    "balance": 1 - (0.625 - 0.375),
    "completion": 3 / 4,
    # The only game with every u = 0 hit the turn cap: not a draw.
    "drawishness": 0.0,
    "timeouts": 1 / 4,
    # u_A = (1, 1, -1, 0): mean 1/4, squared deviations 0.5625·2 + 1.5625 + 0.0625 = 2.75,
    # sample variance 2.75/3; u_B the same.
    "outcome_uniformity": 1 - 2.75 / 3,
    "duration_turns": 140.0,
    "duration_moves": 340.0,
    "duration_actions": 540.0,
    "ideal_duration": 1.0,
    "lead_change": 1.0,
    "stability": 0.3125,
    "decisiveness_threshold": 0.0,
    "decisiveness_moves": 1.0,
    "drama_average": 0.25,
    "drama_median": 0.25,
    "drama_max": 0.5,
    "drama_variance": 0.0625,
    "drama_change_line_best_fit": 0.5,
}


def test_every_metric_has_a_hand_computed_case() -> None:
    assert set(EXPECTED) == set(METRICS)


@pytest.mark.parametrize("metric_id", list(EXPECTED))
def test_each_metric_on_the_tiny_table(metric_id: str) -> None:
    found = estimate(METRICS[metric_id], tiny())
    assert found.value == pytest.approx(EXPECTED[metric_id])
    assert found.games == 4
    assert math.isnan(found.low) or found.low <= found.value + 1e-12 <= found.high + 2e-12


def test_the_win_rate_of_each_team() -> None:
    table = tiny()
    assert [m.id for m in table_metrics(table)][-2:] == ["team_win_rate_0", "team_win_rate_1"]
    assert estimate(metric("team_win_rate_0"), table).value == pytest.approx(0.5)
    assert estimate(metric("team_win_rate_1"), table).value == pytest.approx(0.25)
    assert not estimate(metric("team_win_rate_2"), table).available


def test_a_rate_has_its_wilson_interval_less_the_fair_share() -> None:
    # Wilson for 2 of 4: centre 0.5, half 1.96·√(0.0625 + 3.8415/64)/1.96037 = 0.349966.
    found = estimate(METRICS["first_seat_advantage"], tiny())
    assert (found.low, found.high) == pytest.approx((-0.349966, 0.349966), abs=1e-5)


def test_a_mean_has_its_t_interval() -> None:
    # Turns 100, 120, 140, 200: sd √(5600/3) = 43.205, t(0.975, 3) = 3.182446,
    # half 3.182446·43.205/2 = 68.75.
    found = estimate(METRICS["duration_turns"], tiny())
    assert (found.low, found.high) == pytest.approx((71.25, 208.75), abs=0.01)


def test_a_statistic_has_a_seeded_bootstrap_interval() -> None:
    table = tiny()
    first = estimate(METRICS["balance"], table, seed=3)
    assert first == estimate(METRICS["balance"], table, seed=3)
    assert 0.0 <= first.low <= first.value <= first.high <= 1.0


def test_three_teams_have_a_fair_share_of_a_third() -> None:
    frame = pd.DataFrame(
        {"winner_team": pd.array([2, 0, 0], dtype="Int64"), "turn_cap": [False] * 3}
    )
    table = GamesTable(frame, 3, ((0,), (1,), (2,)), 0)
    assert estimate(METRICS["first_seat_advantage"], table).value == pytest.approx(2 / 3 - 1 / 3)


def test_the_first_seat_of_a_team_game_counts_for_its_team() -> None:
    # Four seats in two teams (0, 2) and (1, 3); seat 1 moves first: its team is team 1.
    frame = pd.DataFrame(
        {"winner_team": pd.array([1, 1, 0, 1], dtype="Int64"), "turn_cap": [False] * 4}
    )
    table = GamesTable(frame, 4, ((0, 2), (1, 3)), 1)
    assert estimate(METRICS["first_seat_advantage"], table).value == pytest.approx(0.25)
    # Teammates share ranks: the winners 1.5, the losers 3.5 of 4, so u = 1 - 2·0.5/3 = 2/3
    # and -2/3, w = 5/6 and 1/6; seat 1 won three games: (3·5/6 + 1/6)/4 = 2/3.
    assert estimate(METRICS["advantage_p1"], table).value == pytest.approx(2 / 3)


def test_what_a_table_lacks_gives_no_value() -> None:
    table = tiny(traced=False)
    assert not estimate(METRICS["lead_change"], table).available
    old = GamesTable(table.frame.drop(columns=["moves"]), 2, ((0,), (1,)), 0)
    assert not estimate(METRICS["duration_moves"], old).available
    assert estimate(METRICS["duration_turns"], old).available


def test_an_unknown_id_is_refused_with_the_list() -> None:
    with pytest.raises(OptionError) as error:
        metric("fun")
    assert error.value.value == "fun"
    assert "first_seat_advantage" in str(error.value) and TEAM_WIN_RATE in str(error.value)
