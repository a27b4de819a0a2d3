"""``splash report``: the command writes the page, and refuses what is not a results file."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from importlib import resources
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import typer
from typer.testing import CliRunner, Result

from splash.cli.common import USAGE_EXIT
from splash.cli.report import report_command
from splash.sim import GameSpec, run_one
from splash.sim.schema import arrow_schema
from splash.sim.store import ResultStore


def invoke(*args: str) -> Result:
    app = typer.Typer()
    app.command("report")(report_command)
    app.command("other")(lambda: None)  # two commands: typer keeps the sub-command's name
    runner = CliRunner(env={"COLUMNS": "200", "LANG": "en_GB.UTF-8"})
    return runner.invoke(app, ["report", *args], catch_exceptions=False)


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cli") / "r.parquet"
    spec = GameSpec.of("bash", ["options.turn_cap=60"], ["random"])
    store = ResultStore(path, spec)
    for seed in range(4):
        store.add(run_one(spec, seed))
    store.finish()
    return path


def test_the_report_is_written_with_its_summary(results: Path, tmp_path: Path) -> None:
    out = tmp_path / "page.html"
    result = invoke(str(results), "-o", str(out), "--title", "Pool party", "--tolerance", "5")
    assert result.exit_code == 0, result.output
    assert "4 games" in result.output and str(out) in result.output
    assert "quantities tested against a tolerance of ±5 points" in result.output
    assert "First-seat advantage (team A): undecided" in result.output
    html = out.read_text(encoding="utf-8")
    assert "<title>Pool party</title>" in html and "data:image/png;base64," in html
    assert html.index('<section id="summary">') < html.index('<section id="runs">')


@pytest.mark.parametrize("points", ["0", "-3", "100", "nan"])
def test_a_bad_tolerance_is_refused(results: Path, tmp_path: Path, points: str) -> None:
    out = tmp_path / "page.html"
    text = refused(str(results), "-o", str(out), "--tolerance", points)
    assert "--tolerance" in text and "must be a number of points above 0 and below 100" in text
    assert not out.exists()


def new_card_data(folder: Path) -> Path:
    """A copy of the shipped data files with one more high tide card, ``tsunami``."""
    folder.mkdir()
    shipped = resources.files("splash.games.bash") / "data"
    for name in ("board.toml", "low_tide.toml", "high_tide.toml"):
        shutil.copyfile(str(shipped / name), folder / name)
    with (folder / "high_tide.toml").open("a", encoding="utf-8") as deck:
        deck.write(
            '\n[cards.tsunami]\ncount = 4\ntiming = "any"\n'
            'effects = [{ primitive = "move", squares = 2 }]\n'
        )
    return folder


def test_a_report_of_a_data_simulation_lists_the_added_card(
    splash: Callable[..., Result], tmp_path: Path
) -> None:
    data = new_card_data(tmp_path / "data")
    out, page = tmp_path / "r.parquet", tmp_path / "r.html"
    args = ["simulate", "bash", "--games", "3", "--set", "options.turn_cap=60"]
    result = splash(*args, "--workers", "1", "--data", str(data), "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "tsunami" in pq.read_table(out).column("data")[0].as_py()
    result = splash("report", str(out), "-o", str(page))
    assert result.exit_code == 0, result.output
    html = page.read_text(encoding="utf-8")
    assert "decks.high_tide.tsunami: added" in html  # the files read
    assert "<td>high_tide: tsunami</td>" in html  # the cards and winning


def test_several_files_of_one_game_are_read_together(results: Path, tmp_path: Path) -> None:
    out = tmp_path / "both.html"
    result = invoke(str(results), str(results), "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "8 games" in result.output


def refused(*args: str) -> str:
    result = invoke(*args)
    assert result.exit_code == USAGE_EXIT
    return " ".join(result.output.split())


def test_a_missing_file_is_refused(tmp_path: Path) -> None:
    missing = tmp_path / "nothing.parquet"
    assert f"error: {missing} does not exist" in refused(str(missing), "-o", str(tmp_path / "x"))
    assert not (tmp_path / "x").exists()


def test_a_file_that_is_not_parquet_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.parquet"
    path.write_text("just words\n", encoding="utf-8")
    assert "is not a Parquet file" in refused(str(path), "-o", str(tmp_path / "x.html"))


def test_a_parquet_file_of_something_else_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.parquet"
    pq.write_table(pa.table({"a": [1, 2]}), path)
    assert "holds no results of splash simulate" in refused(str(path))


def test_a_results_file_of_another_format_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "future.parquet"
    doc = {"format": "splash/sim-results/9", "game": "bash"}
    table = pa.table({"seed": [1]}).replace_schema_metadata({"splash": json.dumps(doc)})
    pq.write_table(table, path)
    assert "unsupported document format 'splash/sim-results/9'" in refused(str(path))


def test_an_empty_results_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "empty.parquet"
    pq.write_table(arrow_schema(GameSpec.of("bash", [], ["random"])).empty_table(), path)
    assert f"no game in {path}: nothing to report" in refused(str(path))


def test_files_of_two_games_are_refused(results: Path, tmp_path: Path) -> None:
    path = tmp_path / "tower.parquet"
    pq.write_table(
        arrow_schema(GameSpec.of("tower", ["options.players=2"], [])).empty_table(), path
    )
    assert "one game per report" in refused(str(results), str(path))
