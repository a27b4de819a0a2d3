"""The summary: Wilson intervals, wins per seat and team, the turn cap share."""

from __future__ import annotations

import pytest

from splash.sim import Record
from splash.sim.stats import Rate, wilson
from splash.sim.summary import summarise


def test_wilson_interval_of_known_values() -> None:
    low, high = wilson(6, 8)
    assert low == pytest.approx(0.4093, abs=1e-4)
    assert high == pytest.approx(0.9285, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0
    assert wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_summary_counts_wins_and_the_turn_cap() -> None:
    records: list[Record] = [
        {"seed": 4, "winner": 0, "winner_team": 0, "turns": 10, "turn_cap": False},
        {"seed": 5, "winner": 3, "winner_team": 1, "turns": 20, "turn_cap": False},
        {"seed": 6, "winner": None, "winner_team": None, "turns": 30, "turn_cap": True},
    ]
    summary = summarise(records, seats=4, teams=2)
    assert [s.count for s in summary.seat_wins] == [1, 0, 0, 1]
    assert [s.count for s in summary.team_wins] == [1, 1]
    assert summary.turn_cap.count == 1
    assert summary.mean_turns == 20.0
    assert summary.sd_turns == 10.0
    assert (summary.first_seed, summary.last_seed, summary.games) == (4, 6, 3)


def test_the_summary_counts_with_the_reports_rate() -> None:
    records: list[Record] = [
        {"seed": 0, "winner": 1, "winner_team": 1, "turns": 5, "turn_cap": False},
        {"seed": 1, "winner": 1, "winner_team": 1, "turns": 7, "turn_cap": False},
    ]
    summary = summarise(records, seats=2, teams=2)
    assert summary.seat_wins == (Rate(0, 2), Rate(2, 2))
    assert summary.seat_wins[1].percent() == "100.0 %"
    assert summary.won_by == {} and summary.per_game == {}
    tower = summarise(records, seats=2, teams=2, measures=("won_by",))
    assert tower.won_by == {"pieces": Rate(0, 2), "drops": Rate(0, 2)}
