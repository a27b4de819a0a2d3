"""Outcome providers: seeded, scripted, a person."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from splash.core import OutcomeError, RandomOutcomes, ScriptedOutcomes
from splash.core.outcomes import sample
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
