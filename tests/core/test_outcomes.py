"""Outcome providers: seeded, scripted, a person."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from splash.core import OutcomeError, RandomOutcomes, ScriptedOutcomes
from splash.core.outcomes import IndexedOutcomes, sample, sample_weighted
from splash.core.protocol import State
from splash.games.bash import BashGame
from splash.games.bash.scenario import position


def test_sample_walks_the_cumulative_probabilities() -> None:
    game = BashGame()
    a, b = game.action_space[0], game.action_space[1]
    outcomes = [(a, Fraction(1, 4)), (b, Fraction(3, 4))]
    assert sample(outcomes, 0.0) == a
    assert sample(outcomes, 0.2499) == a
    assert sample(outcomes, 0.25) == b
    assert sample(outcomes, 0.9999) == b


def test_integer_weights_choose_exactly_as_the_probabilities() -> None:
    game = BashGame()
    a, b, c = game.action_space[0], game.action_space[1], game.action_space[2]
    weights = [(a, 1), (b, 2), (c, 3)]
    exact = [(action, Fraction(w, 6)) for action, w in weights]
    # The boundaries 1/6 and 1/2 themselves, the floats just below them, and a sweep.
    edges = [1 / 6, 0.5, math.nextafter(1 / 6, 0), math.nextafter(0.5, 0), 0.0]
    rng = np.random.default_rng(3)
    for u in [*edges, *(float(x) for x in rng.random(2000))]:
        assert sample_weighted(weights, u) == sample(exact, u), u
    assert sample_weighted(weights, 0.5) == c  # 0.5 = 3/6 is where c starts
    assert sample_weighted(weights, math.nextafter(0.5, 0)) == b


def test_default_weights_follow_the_exact_probabilities() -> None:
    state = position(BashGame(), pieces="A1:c5")
    outcomes = state.chance_outcomes()
    weights = State.chance_weights(state)  # the protocol's default, from the Fractions
    assert weights == state.chance_weights()  # the game's own integer weights
    total = sum(w for _, w in weights)
    assert [(a, Fraction(w, total)) for a, w in weights] == outcomes


def test_apply_legal_takes_the_states_own_action_without_a_second_check() -> None:
    state = position(BashGame(), pieces="A1:c5")
    checked = state.clone()
    draw = state.legal_actions()[0]
    state.apply_legal(draw)
    checked.apply(draw)
    assert state == checked and state.history == (draw,)


def test_random_outcomes_follow_the_deck_composition() -> None:
    state = position(BashGame(), pieces="A1:c5")
    provider = RandomOutcomes(5)
    counts = Counter(str(provider.outcome(state).param("card")) for _ in range(2400))
    assert abs(counts["calm_water"] / 2400 - 8 / 24) < 0.04
    assert abs(counts["towel_break"] / 2400 - 2 / 24) < 0.03


def test_the_same_seed_gives_the_same_outcomes() -> None:
    state = position(BashGame(), pieces="A1:c5")
    first = [RandomOutcomes(9).outcome(state) for _ in range(3)]
    one = RandomOutcomes(9)
    assert [one.outcome(state)] == first[:1]


def test_indexed_outcomes_draw_again_what_the_same_index_drew() -> None:
    state = position(BashGame(), pieces="A1:c5")
    provider = IndexedOutcomes(9)
    first = provider.outcome(state)
    assert [provider.outcome(state) for _ in range(20)] == [first] * 20
    assert IndexedOutcomes(9).outcome(state) == first
    # One index of many seeds follows the deck's composition.
    counts = Counter(str(IndexedOutcomes(s).outcome(state).param("card")) for s in range(2400))
    assert abs(counts["calm_water"] / 2400 - 8 / 24) < 0.04
    assert abs(counts["towel_break"] / 2400 - 2 / 24) < 0.03


def test_indexed_outcomes_follow_the_index() -> None:
    game = BashGame()
    state = game.new_initial_state()
    provider = IndexedOutcomes(3)
    rolls: list[int] = []
    while len(rolls) < 40 and not state.is_terminal():
        if state.is_chance():
            outcome = provider.outcome(state)
            if outcome.kind == "roll":
                rolls.append(int(str(outcome.param("face"))))
            state.apply(outcome)
        else:
            state.apply(state.legal_actions()[0])
    assert len(set(rolls)) > 1
    with pytest.raises(OutcomeError):
        IndexedOutcomes(-1)


def test_scripted_outcomes_are_checked() -> None:
    state = position(BashGame(), pieces="A1:c5")
    script = ScriptedOutcomes([{"kind": "draw", "deck": "low_tide", "card": "breeze"}])
    assert script.outcome(state).param("card") == "breeze"
    with pytest.raises(OutcomeError):
        script.outcome(state)
    wrong = ScriptedOutcomes([{"kind": "roll", "face": 2}])
    with pytest.raises(OutcomeError):
        wrong.outcome(state)


def test_no_outcome_outside_a_chance_node() -> None:
    state = BashGame().new_initial_state()
    with pytest.raises(OutcomeError):
        RandomOutcomes(1).outcome(state)
