"""A stopped run resumes without playing its finished games again; other options are refused."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from rich.console import Console

from splash.cli.simulate_all import run_simulation
from splash.core.errors import OptionError
from splash.sim import GameSpec
from splash.sim.store import ResultStore, parts_dir
from tests.sim.conftest import CountingBackend


def simulate(spec: GameSpec, out: Path, games: int, backend: CountingBackend) -> None:
    store = ResultStore(out, spec, batch_size=1)
    run_simulation(Console(quiet=True), store, games=games, seed=0, backend=backend)


def test_a_longer_run_plays_only_the_new_games(tmp_path: Path, bash_spec: GameSpec) -> None:
    out = tmp_path / "RESULTS.parquet"
    first = CountingBackend()
    simulate(bash_spec, out, 3, first)
    assert first.played == [0, 1, 2]
    second = CountingBackend()
    simulate(bash_spec, out, 6, second)
    assert second.played == [3, 4, 5]
    frame = pd.read_parquet(out)
    assert list(frame["seed"]) == [0, 1, 2, 3, 4, 5]
    assert frame["seed"].is_unique


def test_an_interrupted_run_resumes_where_it_stopped(tmp_path: Path, bash_spec: GameSpec) -> None:
    out = tmp_path / "RESULTS.parquet"
    stopped = CountingBackend(stop_after=2)
    with pytest.raises(KeyboardInterrupt):
        simulate(bash_spec, out, 6, stopped)
    assert stopped.closed
    assert not out.exists()
    assert len(list(parts_dir(out).glob("part-*.parquet"))) == 2
    assert ResultStore(out, bash_spec).done_seeds() == {0, 1}
    resumed = CountingBackend()
    simulate(bash_spec, out, 6, resumed)
    assert resumed.played == [2, 3, 4, 5]
    assert not parts_dir(out).exists()
    assert sorted(pd.read_parquet(out)["seed"]) == [0, 1, 2, 3, 4, 5]


def test_resumed_results_equal_those_of_one_run(tmp_path: Path, bash_spec: GameSpec) -> None:
    once = tmp_path / "once.parquet"
    simulate(bash_spec, once, 4, CountingBackend())
    twice = tmp_path / "twice.parquet"
    with pytest.raises(KeyboardInterrupt):
        simulate(bash_spec, twice, 4, CountingBackend(stop_after=1))
    simulate(bash_spec, twice, 4, CountingBackend())
    pd.testing.assert_frame_equal(pd.read_parquet(once), pd.read_parquet(twice))


@pytest.mark.parametrize(
    ("game", "settings", "option"),
    [
        ("bash", ["options.turn_cap=50"], "--set"),
        ("bash", ["options.teams=3"], "--set"),
        ("tower", ["options.players=2"], "GAME"),
    ],
)
def test_a_resume_with_other_options_is_refused(
    tmp_path: Path,
    bash_spec: GameSpec,
    game: str,
    settings: list[str],
    option: str,
) -> None:
    out = tmp_path / "RESULTS.parquet"
    simulate(bash_spec, out, 1, CountingBackend())
    other = GameSpec.of(game, settings)
    with pytest.raises(OptionError, match="give the same to resume") as caught:
        ResultStore(out, other)
    assert caught.value.key == option
    assert "RESULTS.parquet" in str(caught.value)


def test_a_resume_of_interrupted_parts_with_other_options_is_refused(
    tmp_path: Path, bash_spec: GameSpec
) -> None:
    out = tmp_path / "RESULTS.parquet"
    with pytest.raises(KeyboardInterrupt):
        simulate(bash_spec, out, 3, CountingBackend(stop_after=1))
    with pytest.raises(OptionError, match="options"):
        ResultStore(out, GameSpec.of("bash", ["options.turn_cap=50"]))


def test_the_same_run_written_differently_resumes(tmp_path: Path) -> None:
    out = tmp_path / "RESULTS.parquet"
    spec = GameSpec.of("bash", ["options.teams=3", "options.turn_cap=20"], ["random"])
    simulate(spec, out, 1, CountingBackend())
    # The same bots written differently are the same run.
    same = GameSpec.of("bash", ["options.turn_cap=20", "options.teams=3"], ["random", "random"])
    assert ResultStore(out, same).done_seeds() == {0}


def test_a_resume_with_other_bots_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "RESULTS.parquet"
    ResultStore(out, GameSpec.of("tower", ["options.players=2"])).finish()
    assert pd.read_parquet(out).empty
    other = GameSpec.of("tower", ["options.players=2"], ["random", "random:spread=0.5"])
    with pytest.raises(OptionError, match="bots") as caught:
        ResultStore(out, other)
    assert caught.value.key == "--bots"
