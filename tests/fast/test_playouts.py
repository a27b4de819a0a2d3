"""K random playouts from a given reference state, for the search bots."""

from __future__ import annotations

import random

import numpy as np

from splash.fast.batch import playouts
from splash.fast.convert import to_arrays
from splash.fast.tables import build_tables
from splash.games.bash import BashGame, BashState


def _random_state(game: BashGame, actions: int, seed: int) -> BashState:
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(actions):
        if state.over:
            break
        state.apply_legal(rng.choice(state.legal_actions()))
    return state


def test_playouts_give_each_team_its_return() -> None:
    game = BashGame.from_settings([("options.teams", 3)])
    tables = build_tables(game)
    state = _random_state(game, 400, 5)
    results = playouts(tables, state, range(50))
    assert results.shape == (50, 3)
    assert set(np.round(results, 6).ravel().tolist()) <= {1.0, -0.5, 0.0}
    assert np.allclose(results.sum(axis=1), 0.0)
    assert (results.max(axis=1) == 1.0).sum() > 40


def test_playouts_depend_only_on_the_state_and_the_seeds() -> None:
    game = BashGame()
    tables = build_tables(game)
    state = _random_state(game, 300, 9)
    first = playouts(tables, state, [4, 5, 6, 7])
    again = playouts(tables, to_arrays(tables, state), [6, 7])
    assert np.array_equal(first[2:], again)
    assert state.legal_actions()  # the reference state is left as it was


def test_a_finished_game_plays_out_to_its_result() -> None:
    game = BashGame.from_settings([("options.turn_cap", 4)])
    tables = build_tables(game)
    state = _random_state(game, 10_000, 1)
    assert state.over
    assert np.array_equal(playouts(tables, state, [1, 2]), np.zeros((2, 2)))
