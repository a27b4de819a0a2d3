"""The batched after-states of the compiled core are the reference's: the same deal, the
same actions and stops, the same features and after-states, on seeded random positions."""

from __future__ import annotations

import numpy as np
import pytest

from splash.core import CHANCE, RandomOutcomes
from splash.core.errors import OptionError
from splash.fast import kernel as k
from splash.fast.afterstate import FastAfterstates
from splash.fast.convert import comparable, to_arrays
from splash.fast.tables import build_tables
from splash.games.bash import BashGame, BashState
from splash.games.bash.afterstate import SplitMix64, Stop, afterstates
from splash.games.bash.hidden import resample
from tests.fast.decks import every_primitive_data
from tests.games.bash.test_afterstate import positions


def decisions(game: BashGame, seed: int, limit: int = 40) -> list[BashState]:
    """About a third of the decisions with a choice of one seeded random game."""
    rng = np.random.default_rng(seed)
    outcomes = RandomOutcomes(seed)
    state = game.new_initial_state()
    found: list[BashState] = []
    while not state.is_terminal() and len(found) < limit:
        if state.to_act() == CHANCE:
            state.apply(outcomes.outcome(state))
            continue
        legal = state.legal_actions()
        if len(legal) > 1 and rng.random() < 0.3:
            found.append(state.clone())
        state.apply(legal[int(rng.integers(len(legal)))])
    return found


def check_agreement(states: list[BashState]) -> set[int]:
    """The compiled after-states of ``states`` are the reference's, and those of the
    positions with the hidden cards dealt again too (BD12); the stops seen."""
    game = states[0].game
    assert isinstance(game, BashGame)
    tables = build_tables(game)
    fast = FastAfterstates(tables)
    batch = fast(np.stack([to_arrays(tables, state) for state in states]))
    assert batch.features.shape == (int(batch.offsets[-1]), fast.encoding.size)
    stops: set[int] = set()
    for b, state in enumerate(states):
        found = afterstates(state, state.to_act(), fast.encoding)
        rows = batch.rows(b)
        assert batch.actions[rows].tolist() == [a.action.id for a in found]
        assert batch.stops[rows].tolist() == [int(a.stop) for a in found]
        assert np.array_equal(batch.features[rows], np.stack([a.features for a in found]))
        for row, after in zip(range(rows.start, rows.stop), found, strict=True):
            expected = comparable(tables, to_arrays(tables, after.state))
            assert np.array_equal(comparable(tables, batch.states[row]), expected)
        stops.update(batch.stops[rows].tolist())
        other = resample(state, state.to_act(), np.random.default_rng(b))
        again = fast(to_arrays(tables, other))
        assert np.array_equal(again.features, batch.features[rows])
        assert np.array_equal(again.stops, batch.stops[rows])
    return stops


@pytest.mark.rule("BD12")
@pytest.mark.parametrize(
    ("teams", "seeds"), [(2, range(8)), (3, range(300, 304)), (4, range(400, 402))]
)
def test_the_compiled_after_states_are_the_references(teams: int, seeds: range) -> None:
    states = positions(teams, seeds, questions=3)
    assert sum(state.pending is not None for state in states) >= 5
    stops = check_agreement(states)
    assert {int(Stop.CHANCE), int(Stop.AGAIN), int(Stop.OTHER)} <= stops


@pytest.mark.rule("BD12", "BV01", "BV02", "BV03", "BV04", "BV05")
def test_the_forms_agree_with_every_primitive_and_the_variants() -> None:
    primitives = BashGame.from_settings(
        [("options.hand_limit", 1), ("options.turn_cap", 60)], data=every_primitive_data()
    )
    variants = BashGame.from_settings(
        [
            ("options.teams", 3),
            ("options.turn_order", "snake"),
            ("options.first_turn_penalty", 2),
            ("options.start_stagger", 2),
            ("options.catch_up_draw", True),
            ("options.opening_cards", 1),
            ("options.obstacles", "permanent"),
            ("options.turn_cap", 60),
        ]
    )
    for game in (primitives, variants):
        check_agreement([state for seed in range(2) for state in decisions(game, seed)])


def test_one_position_and_the_seats_given() -> None:
    states: list[BashState] = positions(2, range(2), questions=1)
    tables = build_tables(BashGame())
    fast = FastAfterstates(tables)
    arrays = np.stack([to_arrays(tables, state) for state in states])
    batch = fast(arrays, [state.to_act() for state in states])
    single = fast(arrays[1])
    assert np.array_equal(single.features, batch.features[batch.rows(1)])
    assert single.offsets.tolist() == [0, batch.rows(1).stop - batch.rows(1).start]
    other = 1 - states[0].to_act()
    with pytest.raises(OptionError, match="not the team to decide"):
        fast(arrays[0], [other])
    with pytest.raises(OptionError, match="entries"):
        fast(arrays[:, :-1])


def test_the_reference_deal_uses_the_cores_generator() -> None:
    for seed in (0, 1, 0x5EED_AF7E, 2**63 + 5):
        word = np.zeros(1, np.uint64)
        k.seed_rng(word, np.uint64(seed))
        mine = SplitMix64(seed)
        for n in (1, 2, 7, 30, 2**40 + 3):
            assert mine.below(n) == k.below(word, n)
        assert mine.next() == int(k.next_u64(word))
