"""The verification can fail: a fast log or record that differs is reported, typed."""

from __future__ import annotations

import numpy as np

from splash.fast.batch import play_games
from splash.fast.verify import Difference, replay
from splash.sim.fast_engine import fast_tables
from splash.sim.runner import GameSpec


def test_a_changed_legal_set_is_reported_with_its_seed_and_step() -> None:
    tables = fast_tables(GameSpec.of("bash"))
    games = play_games(tables, [7], verify=True)
    assert replay(tables, games, 0)[1] == []
    start, end = int(games.legal_offsets[5]), int(games.legal_offsets[6])
    games.legal[start:end] = games.legal[start:end][::-1].copy() + 1
    _, differences = replay(tables, games, 0)
    assert len(differences) == 1
    assert isinstance(differences[0], Difference)
    assert (differences[0].seed, differences[0].step, differences[0].what) == (
        7,
        5,
        "legal actions",
    )


def test_a_changed_final_state_is_reported() -> None:
    tables = fast_tables(GameSpec.of("bash"))
    games = play_games(tables, [3], verify=True)
    games.finals[0, -1] += 1
    games.finals[0, 0] += 1
    _, differences = replay(tables, games, 0)
    assert [d.what for d in differences] == ["final state"]
    assert differences[0].step == -1


def test_each_game_is_played_to_its_end_and_logged() -> None:
    tables = fast_tables(GameSpec.of("bash"))
    games = play_games(tables, [1, 2, 3])
    lengths = np.diff(games.action_offsets)
    assert (lengths > 100).all()
    assert games.actions.shape[0] == int(lengths.sum())
