"""``splash tower simulate``: random-bot games of Splash! with the physics, and a summary."""

from __future__ import annotations

from collections.abc import Callable

from typer.testing import Result

from splash.cli.tower_simulate import TowerResult, seat_specs, summary

Splash = Callable[..., Result]


def test_two_games_of_two_players(splash: Splash) -> None:
    result = splash("tower", "simulate", "--games", "2", "--players", "2", "--seed", "3")
    assert result.exit_code == 0
    out = result.output
    assert "2 games, seeds 3 to 4" in out
    for row in (
        "Wins of seat 0 (random)",
        "Wins of seat 1 (random)",
        "Wins by the last piece (T14)",
        "Wins by three drops (T15)",
        "Falls per game (mean ± sd)",
        "Placements per game (mean ± sd)",
        "Pieces in the box at the end (mean ± sd)",
        "Time per game in seconds (mean ± sd)",
    ):
        assert row in out


def test_bots_and_spread_are_checked(splash: Splash) -> None:
    result = splash("tower", "simulate", "--games", "1", "--players", "2", "--bots", "unicorn")
    assert result.exit_code == 2
    assert "unknown bot 'unicorn'" in result.output
    result = splash("tower", "simulate", "--games", "1", "--spread", "-1")
    assert result.exit_code == 2


def test_the_summary_counts_wins_and_stops() -> None:
    results = [
        TowerResult(0, 1, "drops", 12, 5, 0, 2, 0.5),
        TowerResult(1, 0, "pieces", 20, 3, 1, 0, 1.5),
        TowerResult(2, None, None, 4, 1, 0, 0, 0.2, stopped=True),
    ]
    specs = seat_specs(["random"], 2)
    assert specs == ["random", "random"]
    table = summary(results, specs, 0)
    rows = dict(zip(table.columns[0].cells, table.columns[1].cells, strict=True))
    assert rows["Wins of seat 0 (random)"] == "1 (33.3 %)"
    assert rows["Wins by the last piece (T14)"] == "1 (33.3 %)"
    assert rows["Turn cap hit (no winner)"] == "0 (0.0 %)"
    assert rows["Stopped: no pose of a gift accepted (T06)"] == "1 (33.3 %)"
    assert rows["Falls per game (mean ± sd)"] == "3.0 ± 2.0"
