"""The Parquet results: schema, one row per game, the seeds, refused files."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from rich.console import Console

from splash.cli.simulate_all import run_simulation
from splash.core.errors import DocumentError
from splash.sim import GameSpec
from splash.sim.store import ResultStore
from tests.sim.conftest import CountingBackend

COMMON = {
    "seed": pa.int64(),
    "game": pa.string(),
    "options": pa.string(),
    "data": pa.string(),
    "seats": pa.int64(),
    "bots": pa.string(),
    "engine": pa.string(),
    "winner": pa.int64(),
    "winner_team": pa.int64(),
    "turns": pa.int64(),
    "actions": pa.int64(),
    "decisions": pa.int64(),
    "turn_cap": pa.bool_(),
    "events": pa.string(),
}
BASH_TEAM = [
    "lane_outer",
    "lane_centre",
    "lane_high_tide",
    "bumps_made",
    "bumps_suffered",
    "chains",
    "pool_falls",
    "obstacle_hits",
    "drawn_low_tide_calm_water",
    "drawn_high_tide_lifebuoy",
    "played_lifebuoy",
    "played_shove",
]


def simulate(spec: GameSpec, out: Path, games: int, seed: int = 0) -> CountingBackend:
    backend = CountingBackend()
    run_simulation(
        Console(quiet=True), ResultStore(out, spec), games=games, seed=seed, backend=backend
    )
    return backend


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("store") / "RESULTS.parquet"
    spec = GameSpec.of("bash", ["options.turn_cap=40"], ["random"])
    simulate(spec, out, games=4, seed=10)
    return out


def test_the_schema_has_the_documented_columns_and_types(results: Path) -> None:
    schema = pq.read_schema(results)
    types = dict(zip(schema.names, schema.types, strict=True))
    assert schema.names[: len(COMMON)] == list(COMMON)
    for name, kind in COMMON.items():
        assert types[name] == kind, name
    for team in (0, 1):
        for stat in BASH_TEAM:
            assert types[f"{stat}_t{team}"] == pa.int64(), (stat, team)
    assert "lane_outer_t2" not in types
    assert schema.names[-3:] == ["longest_chain", "moves", "trace"]
    assert types["trace"] == pa.list_(pa.list_(pa.float32()))
    assert all(
        kind == pa.int64() for name, kind in types.items() if name not in COMMON and name != "trace"
    )


def test_the_run_is_described_in_the_metadata(results: Path) -> None:
    doc = json.loads(pq.read_schema(results).metadata[b"splash"])
    assert doc == {
        "format": "splash/sim-results/1",
        "game": "bash",
        "options": '{"options.turn_cap": 40}',
        "bots": ["random", "random"],
        "engine": "reference",
    }


def test_one_row_per_game_with_its_seed(results: Path) -> None:
    frame = pd.read_parquet(results)
    assert list(frame["seed"]) == [10, 11, 12, 13]
    assert set(frame["game"]) == {"bash"}
    assert set(frame["seats"]) == {2}
    assert json.loads(frame["bots"].iloc[0]) == ["random", "random"]
    assert set(frame["engine"]) == {"reference"}
    assert json.loads(frame["options"].iloc[0]) == {"options.turn_cap": 40}
    assert not results.with_name(results.name + ".parts").exists()


def test_the_counts_agree_with_each_other(results: Path) -> None:
    frame = pd.read_parquet(results)
    for _, row in frame.iterrows():
        lanes = sum(
            row[f"lane_{lane}_t{t}"] for lane in ("outer", "centre", "high_tide") for t in (0, 1)
        )
        assert lanes == row["turns"]
        events = json.loads(row["events"])
        assert row["bumps_made_t0"] + row["bumps_made_t1"] == events.get("bump", 0)
        assert row["bumps_suffered_t0"] + row["bumps_suffered_t1"] == events.get("bump", 0)
        drawn = sum(v for k, v in row.items() if str(k).startswith("drawn_"))
        assert drawn == events.get("draw", 0)
        assert row["turn_cap"] == (pd.isna(row["winner"]))
        assert row["actions"] > row["decisions"] > row["moves"] > 0
        assert row["decisions"] == row["moves"] + 3 * 2  # the set-up placements (BD01)
        assert len(row["trace"]) == row["moves"] + 1
        assert all(len(values) == 2 for values in row["trace"])
        assert row["longest_chain"] >= 2 * (row["chains_t0"] + row["chains_t1"] > 0)


def test_a_parquet_file_of_something_else_is_refused(tmp_path: Path, bash_spec: GameSpec) -> None:
    out = tmp_path / "other.parquet"
    pq.write_table(pa.table({"seed": [1, 2]}), out)
    with pytest.raises(DocumentError, match="no results of splash simulate"):
        ResultStore(out, bash_spec)


def test_a_file_that_is_not_parquet_is_refused(tmp_path: Path, bash_spec: GameSpec) -> None:
    out = tmp_path / "notes.parquet"
    out.write_text("hello", encoding="utf-8")
    with pytest.raises(DocumentError, match="cannot read"):
        ResultStore(out, bash_spec)


@pytest.mark.rule("B15")
def test_chains_are_runs_of_bumps_each_by_the_pawn_just_bumped() -> None:
    from splash.games.bash import BashGame
    from splash.sim.counters import BashCounter

    counter = BashCounter(BashGame().new_initial_state())
    counter._chains(
        [
            {"event": "bump", "piece": "A1", "target": "B1"},
            {"event": "bump", "piece": "B1", "target": "A2"},
            {"event": "bump", "piece": "A2", "target": "B3"},
            {"event": "slip", "piece": "B3"},
            {"event": "bump", "piece": "B2", "target": "A3"},
            {"event": "bump", "piece": "A1", "target": "B1"},  # not the pawn just bumped
        ]
    )
    assert counter.counts["chains_t0"] == 1
    assert counter.counts["chains_t1"] == 0
    assert counter.longest_chain == 3


def test_the_merge_streams_parts_in_any_order_into_sorted_row_groups(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import splash.sim.store as store_module
    from splash.sim.runner import run_one

    monkeypatch.setattr(store_module, "MERGE_ROWS", 3)
    monkeypatch.setattr(store_module, "MERGE_CACHE", 2)
    spec = GameSpec.of("bash", ["options.turn_cap=20"], ["random"])
    records = {seed: run_one(spec, seed) for seed in range(8)}
    out = tmp_path / "RESULTS.parquet"
    first = ResultStore(out, spec, batch_size=2)
    for seed in (5, 1, 7, 0, 3):
        first.add(records[seed])
    first.finish()
    again = ResultStore(out, spec, batch_size=2)
    # A seed stored twice (an interrupted part written again) is kept once, as first stored.
    for seed in (6, 2, 4, 1):
        again.add({**records[seed], "turns": -1} if seed == 1 else records[seed])
    again.finish()
    reader = pq.ParquetFile(out)
    assert [reader.metadata.row_group(g).num_rows for g in range(reader.num_row_groups)] == [
        3,
        3,
        2,
    ]
    table = pq.read_table(out)
    assert table.column("seed").to_pylist() == list(range(8))
    assert table.column("turns").to_pylist() == [records[s]["turns"] for s in range(8)]
    assert table.to_pylist() == ResultStore(out, spec).read().to_pylist()
    assert not store_module.parts_dir(out).exists()


def test_batches_of_consecutive_seeds_merge_in_seed_order_whatever_order_they_came_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import splash.sim.store as store_module
    from splash.sim.runner import run_one

    monkeypatch.setattr(store_module, "MERGE_ROWS", 4)
    spec = GameSpec.of("bash", ["options.turn_cap=20"], ["random"])
    records = {seed: run_one(spec, seed) for seed in range(8)}
    out = tmp_path / "RESULTS.parquet"
    store = ResultStore(out, spec, batch_size=3)
    for seed in (3, 4, 5, 0, 1, 2, 6, 7):  # two workers' batches, the second one first
        store.add(records[seed])
    store.flush()
    parts = sorted(store_module.parts_dir(out).glob("part-*.parquet"))
    assert len(parts) == 3
    # The parts are read once by the merge: written uncompressed; the results file is not.
    assert pq.ParquetFile(parts[0]).metadata.row_group(0).column(0).compression == "UNCOMPRESSED"
    store.finish()
    assert pq.ParquetFile(out).metadata.row_group(0).column(0).compression != "UNCOMPRESSED"
    table = pq.read_table(out)
    assert table.column("seed").to_pylist() == list(range(8))
    assert table.column("turns").to_pylist() == [records[s]["turns"] for s in range(8)]
    expected = pa.Table.from_pylist([records[s] for s in range(8)], schema=store.schema)
    assert table.equals(expected)
