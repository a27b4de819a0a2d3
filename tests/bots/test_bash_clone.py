"""The quick copy of a Splash & Bash state the search bots make: equal to ``clone()``, and
independent of the original."""

from __future__ import annotations

import numpy as np

from splash.bots.bash_clone import quick_clone
from splash.bots.random_bot import RandomBot
from splash.core import CHANCE, RandomOutcomes
from splash.games.bash import BashGame
from splash.games.bash.scenario import play_moves, position

CALM: dict[str, dict[str, int]] = {"low_tide": {"calm_water": 5}}


def test_copies_equal_clones_over_a_whole_game() -> None:
    game = BashGame.from_settings([("options.teams", 3), ("board.laps", 1)])
    state = game.new_initial_state()
    bot, outcomes, rng = RandomBot(2), RandomOutcomes(6), np.random.default_rng(1)
    steps = 0
    while not state.is_terminal():
        action = outcomes.outcome(state) if state.to_act() == CHANCE else bot.act(state)
        if rng.random() < 0.3:
            copied = quick_clone(state)
            assert copied.to_json() == state.clone().to_json()
            assert copied.history == state.history
            # Played on, the copy goes its own way and the original stays as it was.
            before = state.to_json()
            legal = copied.legal_actions()
            copied.apply(legal[int(rng.integers(len(legal)))])
            assert state.to_json() == before
        state.apply(action)
        steps += 1
    assert steps > 50


def test_a_copy_in_the_middle_of_a_question_plays_on_alike() -> None:
    # Team B's lane change pushes A1 from h8 into the pool: A is asked about its lifebuoy.
    state = position(BashGame(), pieces="B1:c10 A1:h8", team="B", hands="A:lifebuoy", decks=CALM)
    play_moves(state, "draw calm_water", "roll 2", "lane high_tide")
    assert state.pending is not None
    copied = quick_clone(state)
    play_moves(copied, "play lifebuoy")
    play_moves(state, "play lifebuoy")
    assert copied.to_json() == state.to_json()
    assert copied.board.hands[0] == []
