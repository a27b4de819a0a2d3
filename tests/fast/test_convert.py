"""A reference state converted to the core's arrays plays on exactly as the reference does."""

from __future__ import annotations

import random

import numpy as np
import pytest

from splash.fast import kernel as k
from splash.fast.convert import comparable, to_arrays
from splash.fast.tables import Tables, build_tables
from splash.games.bash import BashGame, BashState
from tests.fast.decks import every_primitive_data


def _lockstep(tables: Tables, seed: int) -> int:
    """Walk a random reference game; at each state the converted arrays must give the same
    legal actions, and the core's apply the same next state.  The steps walked."""
    rng = random.Random(seed)
    state: BashState = tables.game.new_initial_state()
    size = k.scratch_size(tables.lmax)
    ids, weights, scratch = (np.zeros(size, np.int64) for _ in range(3))
    events = np.zeros(k.EV_BUFFER, np.int64)
    frames = np.zeros((k.MAXFR, k.FRW), np.int64)
    steps = 0
    while not state.over:
        G = to_arrays(tables, state)
        n = k.legal(G, tables.T, ids, weights, scratch)
        legal = state.legal_actions()
        assert ids[:n].tolist() == [a.id for a in legal], state.describe()
        action = rng.choice(legal)
        k.apply(G, tables.T, events, frames, action.id, scratch)
        state.apply_legal(action)
        assert np.array_equal(comparable(tables, G), comparable(tables, to_arrays(tables, state)))
        steps += 1
    return steps


@pytest.mark.slow
def test_converted_states_step_like_the_reference() -> None:
    tables = build_tables(BashGame.from_settings([("options.teams", 3), ("options.turn_cap", 60)]))
    assert _lockstep(tables, 1) > 100


@pytest.mark.slow
@pytest.mark.rule("BV01", "BV02", "BV03", "BV04", "BV05")
@pytest.mark.parametrize("order", ["rotate", "snake"])
def test_converted_states_with_the_variants_step_like_the_reference(order: str) -> None:
    settings: list[tuple[str, object]] = [
        ("options.teams", 3),
        ("options.turn_order", order),
        ("options.first_turn_penalty", 2),
        ("options.start_stagger", 2),
        ("options.catch_up_draw", True),
        ("options.opening_cards", 1),
        ("options.turn_cap", 60),
    ]
    assert _lockstep(build_tables(BashGame.from_settings(settings)), 3) > 100


@pytest.mark.slow
def test_converted_states_with_every_primitive_step_like_the_reference() -> None:
    game = BashGame.from_settings(
        [("options.hand_limit", 1), ("options.turn_cap", 60)], data=every_primitive_data()
    )
    assert _lockstep(build_tables(game), 2) > 100


def test_the_initial_state_is_its_tables_initial_array() -> None:
    tables = build_tables(BashGame())
    assert np.array_equal(to_arrays(tables, tables.game.new_initial_state()), tables.initial)
