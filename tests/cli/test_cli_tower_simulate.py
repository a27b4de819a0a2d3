"""``splash tower simulate``: a shortcut to ``splash simulate tower``."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import Result

Splash = Callable[..., Result]


@pytest.mark.slow
def test_two_games_of_two_players(splash: Splash, tmp_path: Path) -> None:
    out = tmp_path / "r.parquet"
    result = splash(
        "tower",
        "simulate",
        "--games",
        "2",
        "--players",
        "2",
        "--seed",
        "3",
        "--spread",
        "0.5",
        "--workers",
        "1",
        "--out",
        str(out),
    )
    assert result.exit_code == 0
    text = result.output
    assert "2 games, seeds 3 to 4" in text
    for row in (
        "Wins of seat 0 (random:spread=0.5)",
        "Wins of seat 1 (random:spread=0.5)",
        "Wins by the last piece (T14)",
        "Wins by three drops (T15)",
        "Falls per game (mean ± sd)",
        "Placements per game (mean ± sd)",
        "Pieces in the box at the end (mean ± sd)",
    ):
        assert row in text
    frame = pd.read_parquet(out)
    assert sorted(frame["seed"]) == [3, 4]
    assert json.loads(frame["options"][0]) == {"options.players": 2}
    assert json.loads(frame["bots"][0]) == ["random:spread=0.5"] * 2


def test_bots_and_spread_are_checked(splash: Splash, tmp_path: Path) -> None:
    out = str(tmp_path / "r.parquet")
    result = splash(
        "tower", "simulate", "--games", "1", "--players", "2", "--bots", "unicorn", "--out", out
    )
    assert result.exit_code == 2
    assert "unknown bot 'unicorn'" in result.output
    result = splash("tower", "simulate", "--games", "1", "--spread", "-1", "--out", out)
    assert result.exit_code == 2
