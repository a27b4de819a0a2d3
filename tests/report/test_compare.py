"""Two designs compared on synthetic tables whose differences are known."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from splash.core.errors import DocumentError
from splash.report.compare import check_comparable, compare_metric, compare_page, compare_tables
from splash.report.metric_ids import METRICS, GamesTable
from splash.report.results import Results, Run


def design(seed: int, first_wins: float, turns: float, games: int = 600) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    winners = np.where(rng.random(games) < first_wins, 0, 1)
    return pd.DataFrame(
        {
            "seed": np.arange(games),
            "options": ["{}"] * games,
            "winner": pd.array(winners, dtype="Int64"),
            "winner_team": pd.array(winners, dtype="Int64"),
            "turns": rng.normal(turns, 12.0, games).round(),
            "turn_cap": [False] * games,
        }
    )


def table(frame: pd.DataFrame) -> GamesTable:
    return GamesTable(frame, 2, ((0,), (1,)), 0)


def test_a_real_change_of_the_first_seat_and_of_the_length_is_found() -> None:
    a, b = table(design(1, 0.62, 150.0)), table(design(2, 0.5, 160.0))
    found = {c.metric.id: c for c in compare_tables(a, b)}
    advantage = found["first_seat_advantage"]
    assert advantage.difference == pytest.approx(advantage.b.value - advantage.a.value)
    assert advantage.low < -0.12 < advantage.high < 0 and advantage.significant
    turns = found["duration_turns"]
    assert turns.low < 10.0 < turns.high and turns.significant
    assert not found["timeouts"].significant
    assert not found["lead_change"].a.available  # no traces: not compared
    assert np.isnan(found["lead_change"].p_value)


def test_the_same_design_twice_differs_in_nothing() -> None:
    a, b = table(design(3, 0.55, 150.0)), table(design(4, 0.55, 150.0))
    assert not any(c.significant for c in compare_tables(a, b))


def test_balance_is_compared_by_a_seeded_permutation_test() -> None:
    a, b = table(design(5, 0.7, 150.0, 300)), table(design(6, 0.5, 150.0, 300))
    first = compare_metric(METRICS["balance"], a, b, seed=1)
    assert first == compare_metric(METRICS["balance"], a, b, seed=1)
    assert first.difference > 0.2 and first.p_value < 0.01
    assert first.low < first.difference < first.high


def results(path: str, frame: pd.DataFrame, game: str = "bash", options: str = "{}") -> Results:
    run = Run(Path(path), game, options, ("random", "random"), len(frame))
    return Results(game, 2, (run,), frame)


def test_designs_of_two_games_or_team_counts_are_refused() -> None:
    bash = results("a.parquet", design(1, 0.5, 150.0, 20))
    tower = replace(bash, game="tower", runs=(replace(bash.runs[0], game="tower", path=Path("b")),))
    with pytest.raises(DocumentError, match="compare two designs of one game"):
        check_comparable(bash, tower)
    three = results("c.parquet", design(1, 0.5, 150.0, 20), options='{"options.teams": 3}')
    with pytest.raises(DocumentError, match="same number of teams"):
        check_comparable(bash, three)


def test_the_page_has_the_summary_the_designs_and_every_metric() -> None:
    a = results("a.parquet", design(1, 0.62, 150.0))
    b = results("b.parquet", design(2, 0.5, 160.0))
    page, found = compare_page(a, b, title="Outer lane")
    html = page.render()
    assert "<title>Outer lane</title>" in html
    assert "B differs from A in" in html and "first_seat_advantage" in html
    assert "A: First-seat advantage (team A): imbalanced" in html
    for anchor in ("summary", "designs", "metrics", "definitions"):
        assert f'<section id="{anchor}">' in html
    for c in found:
        assert f"<td>{c.metric.id}</td>" in html
    assert "Welch&#x27;s t-test" in html
