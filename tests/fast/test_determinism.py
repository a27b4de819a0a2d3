"""Same seed, same game: for any batch size and in another process."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pyarrow as pa

from splash.fast.batch import play_games
from splash.sim.fast_engine import fast_table, fast_tables
from splash.sim.runner import GameSpec

SEEDS = list(range(20, 44))


def _table_in_process(seeds: list[int]) -> pa.Table:
    return fast_table(GameSpec.of("bash", ["options.teams=3"]), seeds)


def test_a_game_does_not_depend_on_its_batch() -> None:
    tables = fast_tables(GameSpec.of("bash"))
    whole = play_games(tables, SEEDS)
    for size in (1, 5, 24):
        for start in range(0, len(SEEDS), size):
            part = play_games(tables, SEEDS[start : start + size])
            for g in range(len(part.seeds)):
                assert np.array_equal(part.actions_of(g), whole.actions_of(start + g))
                assert np.array_equal(part.counts[g], whole.counts[start + g])


def test_the_same_seeds_give_the_same_table_in_other_processes() -> None:
    here = _table_in_process(SEEDS)
    with ProcessPoolExecutor(2) as pool:
        halves = list(pool.map(_table_in_process, [SEEDS[:10], SEEDS[10:]]))
    assert pa.concat_tables(halves).equals(here)


def test_different_seeds_give_different_games() -> None:
    tables = fast_tables(GameSpec.of("bash"))
    games = play_games(tables, [1, 2])
    assert not np.array_equal(games.actions_of(0), games.actions_of(1))
