"""``splash sweep``: a small sweep end to end, resuming, and every refused input."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest
import typer
from typer.testing import CliRunner, Result

from splash.cli import sweep as sweep_module
from splash.cli.sweep import sweep_command
from tests.cli.test_cli_report import new_card_data
from tests.sim.conftest import CountingBackend

app = typer.Typer()
app.command("sweep")(sweep_command)


@app.callback()
def _root() -> None:
    """A group, so that the command is called by its name as under ``splash``."""


def sweep(*args: str) -> Result:
    runner = CliRunner(env={"COLUMNS": "160", "LANG": "en_GB.UTF-8"})
    return runner.invoke(app, ["sweep", "bash", *args], catch_exceptions=False)


def test_a_small_sweep_writes_its_files_tables_and_report(tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    report = tmp_path / "sweep.html"
    args = ["--vary", "board.lanes.outer=36,44", "--bots", "random", "--games", "6"]
    args += ["--seed", "4", "--workers", "1", "--out", str(out), "-o", str(report)]
    result = sweep(*args)
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.glob("*.parquet")) == [
        "board.lanes.outer=36.parquet",
        "board.lanes.outer=44.parquet",
    ]
    assert list(pd.read_parquet(out / "board.lanes.outer=44.parquet")["seed"]) == list(range(4, 10))
    for text in (
        "Combinations",
        "Effects of the changes",
        "board.lanes.outer 36 → 44",
        "AdvantageP1",
    ):
        assert text in result.output
    html = report.read_text(encoding="utf-8")
    for heading in ("Combinations", "Effects of the changes", "Definitions"):
        assert f"<h2>{heading}</h2>" in html
    assert len(re.findall(r'<img src="data:image/png;base64,', html)) == 3
    assert "seeds 4 to 9 (6 games each)" in html
    assert "12/12" in result.output
    assert "Detectable" in result.output and "<th>Detectable (80 %)</th>" in html
    assert "win rate differs from its fair share in every combination" in html
    again = sweep(*args)
    assert again.exit_code == 0, again.output
    assert "Every game of the sweep is already stored." in again.output


def test_the_fixed_settings_apply_to_every_combination(tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    args = ["--vary", "options.tail_wind=0,1", "--set", "options.turn_cap=5", "--games", "2"]
    result = sweep(*args, "--workers", "1", "--out", str(out))
    assert result.exit_code == 0, result.output
    for file in out.glob("*.parquet"):
        assert pd.read_parquet(file)["turn_cap"].all()
    more = sweep(*args[:-1], "3", "--workers", "1", "--out", str(out))
    assert more.exit_code == 0, more.output
    assert "4 of the 6 games are already stored: playing the other 2." in more.output


def test_an_interrupted_sweep_exits_130_and_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "sweep"
    args = ["--vary", "options.tail_wind=0,1", "--set", "options.turn_cap=5", "--games", "4"]
    args += ["--out", str(out), "--engine", "reference"]
    stopped = CountingBackend(stop_after=3)
    monkeypatch.setattr(sweep_module, "make_backend", lambda *options: stopped)
    result = sweep(*args)
    assert result.exit_code == 130
    assert stopped.closed
    resumed = CountingBackend()
    monkeypatch.setattr(sweep_module, "make_backend", lambda *options: resumed)
    result = sweep(*args)
    assert result.exit_code == 0, result.output
    assert "3 of the 8 games are already stored: playing the other 5." in result.output
    assert resumed.played == [3, 0, 1, 2, 3]


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        (["--vary", "board.lanes.outer"], "expected KEY=VALUE,VALUE,..."),
        (["--vary", "board.lanes.outer="], "no values to try for board.lanes.outer"),
        (
            ["--vary", "board.lanes.outer=36", "--vary", "board.lanes.outer=40"],
            "board.lanes.outer is varied twice",
        ),
        (
            ["--vary", "board.lanes.outer=36,40", "--set", "board.lanes.outer=38"],
            "board.lanes.outer is both --set and --vary'd",
        ),
        (
            ["--vary", "board.lanes.outer=36,2"],
            "board.lanes.outer='2': the game refuses this value",
        ),
        (
            ["--vary", "board.lanes.outer=" + ",".join(str(v) for v in range(30, 95))],
            "65 combinations, more than 64",
        ),
        (
            [
                "--vary",
                "board.laps=1,2",
                "--vary",
                "options.tail_wind=0,1",
                "--max-combinations",
                "3",
            ],
            "4 combinations, more than 3",
        ),
        ([], "give at least one --vary"),
    ],
)
def test_bad_input_exits_2_with_a_clear_message(
    tmp_path: Path, args: list[str], problem: str
) -> None:
    result = sweep(*args, "--games", "1", "--workers", "1", "--out", str(tmp_path / "s"))
    assert result.exit_code == 2
    assert problem in " ".join(result.output.split())
    assert not (tmp_path / "s").exists()


def test_a_folder_of_other_bots_is_refused(tmp_path: Path) -> None:
    out = str(tmp_path / "s")
    base = ["--vary", "options.turn_cap=3", "--games", "1", "--workers", "1", "--out", out]
    first = sweep(*base)
    assert first.exit_code == 0
    assert "No change to compare: every --vary has one value." in first.output
    result = sweep(*base, "--bots", "greedy")
    assert result.exit_code == 2
    assert "holds a sweep with bots" in " ".join(result.output.split())


def test_a_sweep_plays_and_records_the_data_files(tmp_path: Path) -> None:
    data = new_card_data(tmp_path / "data")
    out, report = tmp_path / "sweep", tmp_path / "sweep.html"
    args = ["--vary", "options.tail_wind=0,1", "--set", "options.turn_cap=5", "--games", "2"]
    args += ["--workers", "1", "--out", str(out), "-o", str(report)]
    result = sweep(*args, "--data", str(data))
    assert result.exit_code == 0, result.output
    for file in out.glob("*.parquet"):
        frame = pd.read_parquet(file)
        assert "drawn_high_tide_tsunami_t0" in frame.columns
        assert all("tsunami" in text for text in frame["data"])
    assert "tsunami" in json.loads((out / "sweep.json").read_text())["data"]
    assert "Played with the data files of --data" in report.read_text(encoding="utf-8")
    again = sweep(*args)
    assert again.exit_code == 2
    assert "other data files" in " ".join(again.output.split())
