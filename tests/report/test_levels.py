"""The first-seat advantage by level of the reports, when the games read hold several
levels of play."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from splash.report.balance import balance_report
from splash.report.levels import level_edges, level_label, level_lines
from splash.report.results import load_results
from splash.sim import GameSpec, run_one
from splash.sim.store import ResultStore

SETTINGS = ["options.turn_cap=40", "board.lanes.centre=8", "board.lanes.high_tide=8"]


def simulate(path: Path, bots: list[str], games: int = 6) -> Path:
    spec = GameSpec.of("bash", SETTINGS, bots)
    store = ResultStore(path, spec)
    for seed in range(games):
        store.add(run_one(spec, seed))
    store.finish()
    return path


def level_files(folder: Path) -> tuple[Path, Path, Path]:
    """Games of random bots, of greedy bots, and both in one file."""
    random = simulate(folder / "random.parquet", ["random"])
    greedy = simulate(folder / "greedy.parquet", ["greedy"], games=4)
    both = folder / "both.parquet"
    first, second = pq.read_table(random), pq.read_table(greedy)
    pq.write_table(pa.concat_tables([first, second.cast(first.schema)]), both)
    return random, greedy, both


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    return level_files(tmp_path_factory.mktemp("levels"))


def test_each_level_gets_its_edge_and_one_level_gets_none(
    files: tuple[Path, Path, Path],
) -> None:
    random, greedy, both = files
    assert level_edges(load_results([random])) == []
    found = level_edges(load_results([both]))
    assert [(level.bots, level.games) for level in found] == [("random", 6), ("greedy", 4)]
    assert all(level.edge.low <= level.edge.value <= level.edge.high for level in found)
    assert [level.bots for level in level_edges(load_results([greedy, random]))] == [
        "greedy",
        "random",
    ]
    assert level_label('["random", "greedy"]') == "random,greedy"
    lines = [line.render() for line in level_lines(load_results([both]), 0.03)]
    assert lines[0].startswith("At level random (6 games) the first-seat advantage is ")
    page = balance_report(load_results([both])).render()
    assert "First-seat advantage by level" in page
