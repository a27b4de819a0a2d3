"""``max_game_length`` of Splash & Bash against random games: no game is longer."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

from splash.envs.openspiel import BASH, register_games
from splash.envs.openspiel.bash_length import max_game_length, turn_bound
from splash.games.bash import BashGame, BashState

GAMES = 10_000
TURN_CAP = 3


def play(state: BashState, rng: np.random.Generator, bound: int) -> tuple[int, int]:
    """A random game (uniform decisions, chance by its weights) to its end; returns its
    decisions and chance nodes, and fails if a team turn holds more than ``bound`` nodes,
    a helmsman's entry aside."""
    decisions = chance = in_turn = 0
    turns = state.turns
    while not state.is_terminal():
        if state.is_chance():
            weights = state.chance_weights()
            p = np.array([w for _, w in weights], dtype=float)
            action = weights[int(rng.choice(len(weights), p=p / p.sum()))][0]
            chance += 1
        else:
            actions = state.legal_actions()
            action = actions[int(rng.integers(len(actions)))]
            decisions += 1
        entry = action.kind == "start_lane"
        state.apply(action)
        in_turn += 0 if entry else 1
        if state.turns != turns or state.is_terminal():
            assert in_turn <= bound, (in_turn, bound, state.describe())
            turns, in_turn = state.turns, 0
    return decisions, chance


@pytest.mark.rule("BD14")
def test_BD14_no_random_game_is_longer_than_max_game_length() -> None:
    rng = np.random.default_rng(21)
    variants = [
        BashGame.from_settings([("options.teams", n), ("options.turn_cap", TURN_CAP)])
        for n in (2, 3, 4)
    ]
    longest = 0
    for i in range(GAMES):
        game = variants[i % len(variants)]
        bound = max_game_length(game.settings)
        state = game.new_initial_state()
        decisions, chance = play(state, rng, turn_bound(game.settings))
        assert decisions + chance == len(state.history)
        assert decisions + chance <= bound
        longest = max(longest, decisions + chance)
    assert longest > 0


@pytest.mark.rule("BD11")
def test_BD11_permanent_obstacles_and_a_short_course_keep_within_the_bound() -> None:
    rng = np.random.default_rng(11)
    short = [
        ("options.teams", 4),
        ("options.turn_cap", 40),
        ("board.laps", 1),
        ("board.lanes.outer", 8),
        ("board.lanes.centre", 6),
        ("board.lanes.high_tide", 4),
    ]
    game = BashGame.from_settings([*short, ("options.obstacles", "permanent")])
    bound = max_game_length(game.settings)
    assert bound > max_game_length(BashGame.from_settings(short).settings)
    for _ in range(200):
        state = game.new_initial_state()
        decisions, chance = play(state, rng, turn_bound(game.settings))
        assert decisions + chance <= bound


def test_openspiel_counts_the_same_nodes() -> None:
    register_games()
    game = pyspiel.load_game(BASH, {"options.turn_cap": TURN_CAP})
    rng = np.random.default_rng(5)
    for _ in range(20):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, p = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=p)))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        assert len(state.history()) == len(state.inner.history) <= game.max_game_length()
