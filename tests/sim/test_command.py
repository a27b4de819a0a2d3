"""``splash simulate``: the command line over the runner, the backends and the store."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from typer.testing import CliRunner

from splash.cli.main import app

runner = CliRunner()


def test_simulate_writes_the_results_and_a_summary(tmp_path: Path) -> None:
    out = tmp_path / "r.parquet"
    args = ["simulate", "bash", "--games", "3", "--seed", "5", "--workers", "1", "--out", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "Wins of team A (random)" in result.output
    assert "95 % Wilson interval" in result.output
    assert list(pd.read_parquet(out)["seed"]) == [5, 6, 7]


def test_simulate_refuses_other_options_on_resume(tmp_path: Path) -> None:
    out = tmp_path / "r.parquet"
    base = ["simulate", "bash", "--games", "1", "--workers", "1", "--out", str(out)]
    assert runner.invoke(app, base).exit_code == 0
    result = runner.invoke(app, [*base, "--set", "options.turn_cap=9"])
    assert result.exit_code == 2
    assert "give the same to resume" in result.output
