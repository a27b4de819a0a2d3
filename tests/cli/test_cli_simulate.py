"""``splash bash simulate``: a shortcut to ``splash simulate bash``."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from importlib import resources
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import Result

Splash = Callable[..., Result]


def test_five_games_print_the_summary(splash: Splash, tmp_path: Path) -> None:
    out = tmp_path / "r.parquet"
    result = splash(
        "bash", "simulate", "--games", "5", "--seed", "7", "--workers", "1", "--out", str(out)
    )
    assert result.exit_code == 0
    text = result.output
    assert "5 games, seeds 7 to 11" in text
    assert "Wins of team A (random)" in text
    assert "Wins of team B (random)" in text
    assert "Turn cap hit (no winner)" in text
    assert "Game length in team turns (mean ± sd)" in text
    assert "Actions per game" in text
    assert "Decisions per game" in text
    frame = pd.read_parquet(out)
    assert sorted(frame["seed"]) == [7, 8, 9, 10, 11]


def test_same_games_as_splash_simulate_bash(splash: Splash, tmp_path: Path) -> None:
    short, full = tmp_path / "short.parquet", tmp_path / "full.parquet"
    args = ("--games", "3", "--seed", "4", "--workers", "1", "--bots", "random,greedy")
    assert splash("bash", "simulate", *args, "--teams", "3", "--out", str(short)).exit_code == 0
    assert (
        splash("simulate", "bash", *args, "--set", "options.teams=3", "--out", str(full)).exit_code
        == 0
    )
    a, b = pd.read_parquet(short), pd.read_parquet(full)
    assert list(a["seats"]) == [3, 3, 3]
    pd.testing.assert_frame_equal(a, b)


def test_turn_cap_is_counted(splash: Splash, tmp_path: Path) -> None:
    out = tmp_path / "r.parquet"
    result = splash(
        "bash",
        "simulate",
        "--games",
        "3",
        "--set",
        "options.turn_cap=4",
        "--workers",
        "1",
        "--out",
        str(out),
    )
    assert result.exit_code == 0
    assert "Turn cap hit (no winner)" in result.output
    assert "3 (100.0 %)" in result.output


def test_data_folder_is_played_and_recorded(splash: Splash, tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    shipped = resources.files("splash.games.bash") / "data"
    for name in ("board.toml", "low_tide.toml", "high_tide.toml"):
        shutil.copyfile(str(shipped / name), data / name)
    board = data / "board.toml"
    board.write_text(board.read_text().replace("outer = 40", "outer = 12"))
    out = tmp_path / "r.parquet"
    args = ("--games", "2", "--workers", "1", "--out", str(out))
    assert splash("bash", "simulate", *args, "--data", str(data)).exit_code == 0
    # The stored games were played on the folder's board: resuming without it is refused.
    result = splash("bash", "simulate", *args)
    assert result.exit_code == 2
    assert "other data files" in result.output


def test_unknown_bot_exits_2(splash: Splash, tmp_path: Path) -> None:
    result = splash(
        "bash",
        "simulate",
        "--games",
        "1",
        "--bots",
        "random,clever:depth=2",
        "--out",
        str(tmp_path / "r.parquet"),
    )
    assert result.exit_code == 2
    assert "unknown bot 'clever'" in result.output


def test_the_rows_are_also_written_as_csv(splash: Splash, tmp_path: Path) -> None:
    out, csv = tmp_path / "r.parquet", tmp_path / "r.csv"
    args = ("--games", "2", "--set", "options.turn_cap=10", "--workers", "1", "--out", str(out))
    result = splash("simulate", "bash", *args, "--csv", str(csv))
    assert result.exit_code == 0, result.output
    assert f"The same rows are in {csv} (CSV)." in " ".join(result.output.split())
    stored, written = pd.read_parquet(out), pd.read_csv(csv)
    assert list(written.columns) == list(stored.columns)
    assert list(written["seed"]) == list(stored["seed"])
    assert list(written["turns"]) == list(stored["turns"])
    assert written["turn_cap"].tolist() == stored["turn_cap"].tolist()
    for column in ("options", "bots", "events", "data"):
        assert written[column].map(json.loads).tolist() == stored[column].map(json.loads).tolist()
    traces = [json.loads(text) for text in written["trace"]]
    assert [len(t) for t in traces] == [len(t) for t in stored["trace"]]
    assert traces[0][-1] == pytest.approx(list(stored["trace"][0][-1]), abs=1e-4)


def test_a_csv_file_that_cannot_be_written_is_refused(splash: Splash, tmp_path: Path) -> None:
    csv = tmp_path / "missing" / "r.csv"
    args = ("--games", "1", "--set", "options.turn_cap=4", "--workers", "1")
    result = splash(
        "simulate", "bash", *args, "--out", str(tmp_path / "r.parquet"), "--csv", str(csv)
    )
    assert result.exit_code == 2
    assert f"cannot write {csv}" in " ".join(result.output.split())
