"""ISMCTS on the compiled core: legal, deterministic, from the team's view only, and strong."""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np
import pytest

from splash.bots import make_bot
from splash.bots.fast_ismcts import FastIsmctsBot
from splash.bots.ismcts import IsmctsBot
from splash.bots.random_bot import RandomBot
from splash.core.errors import OptionError
from splash.core.outcomes import RandomOutcomes
from splash.fast.convert import to_arrays
from splash.fast.search import SearchSettings, ismcts_decide
from splash.fast.tables import Tables, build_tables
from splash.games.bash import BashGame, BashState
from splash.games.bash.hidden import ResampleError, resample

SETTINGS = (
    SearchSettings(iterations=200),
    SearchSettings(iterations=100, rollout="greedy", evaluation="greedy", max_depth=24),
    SearchSettings(iterations=100, rollout="greedy", epsilon=0.3, widening=1.0),
)


@dataclass(frozen=True)
class Position:
    """A decision with two legal actions or more in a random three-team game."""

    state: BashState
    seat: int
    legal: list[int]


@pytest.fixture(scope="module")
def tables() -> Tables:
    return build_tables(BashGame.from_settings([("options.teams", 3)]))


@pytest.fixture(scope="module")
def positions(tables: Tables) -> list[Position]:
    from splash.bots.bash_clone import quick_clone

    found: list[Position] = []
    for seed in range(4):
        rng = random.Random(seed)
        state = tables.game.new_initial_state()
        steps = 0
        while not state.over:
            legal = state.legal_actions()
            seat = state.to_act()
            if seat >= 0 and len(legal) > 1 and steps % 7 == 0:
                clone = quick_clone(state)
                assert isinstance(clone, BashState)
                found.append(Position(clone, seat, [a.id for a in legal]))
            state.apply_legal(rng.choice(legal))
            steps += 1
    return found


def test_every_choice_is_legal(tables: Tables, positions: list[Position]) -> None:
    assert len(positions) > 60
    for i, pos in enumerate(positions):
        for settings in SETTINGS:
            decision = ismcts_decide(tables, to_arrays(tables, pos.state), i, settings)
            assert decision.action in pos.legal
            assert decision.ids.tolist() == pos.legal
            assert decision.visits.sum() == settings.iterations


def test_the_same_seed_gives_the_same_search(tables: Tables, positions: list[Position]) -> None:
    differ = 0
    for i, pos in enumerate(positions[::4]):
        state_array = to_arrays(tables, pos.state)
        first = ismcts_decide(tables, state_array, 5 + i, SETTINGS[1])
        again = ismcts_decide(tables, state_array.copy(), 5 + i, SETTINGS[1])
        assert first.action == again.action
        assert np.array_equal(first.visits, again.visits)
        other = ismcts_decide(tables, state_array, 6 + i, SETTINGS[1])
        differ += int(not np.array_equal(first.visits, other.visits))
    assert differ > 0


@pytest.mark.rule("BD12")
def test_the_search_ignores_where_the_unseen_cards_are(
    tables: Tables, positions: list[Position]
) -> None:
    """Redealing the other hands and the deck consistently with the seat's view changes
    neither the choice nor a single visit count: every iteration redraws them first."""
    tried = 0
    hidden_differ = 0
    for i, pos in enumerate(positions):
        state_array = to_arrays(tables, pos.state)
        seen = ismcts_decide(tables, state_array, 40 + i, SETTINGS[0])
        for r in range(2):
            try:
                world = resample(pos.state, pos.seat, np.random.default_rng(1000 * i + r))
            except ResampleError:
                continue
            redealt = to_arrays(tables, world)
            hidden_differ += int(not np.array_equal(redealt, state_array))
            tried += 1
            other = ismcts_decide(tables, redealt, 40 + i, SETTINGS[0])
            assert other.action == seen.action
            assert np.array_equal(other.visits, seen.visits)
            np.testing.assert_array_equal(other.means, seen.means)
    assert tried > 100
    assert hidden_differ > 50


def _match(bot: FastIsmctsBot, games: int) -> int:
    """Games the search wins against the random bot on the reference engine, seats swapped."""
    game = BashGame()
    wins = 0
    for g in range(games):
        seat = g % 2
        other = RandomBot(100 + g)
        chance = RandomOutcomes(200 + g)
        state = game.new_initial_state()
        while not state.over:
            actor = state.to_act()
            if actor < 0:
                state.apply(chance.outcome(state))
            else:
                state.apply((bot if actor == seat else other).act(state))
        wins += int(state.board.winner == seat)
    return wins


def test_the_search_beats_random_clearly() -> None:
    """At 100 iterations it wins every one of 10 games (the reference ismcts:50 won 200 of
    200); a search that picked its worst action, or ignored its values, would lose most."""
    assert _match(FastIsmctsBot(3, iterations=100), 10) == 10


def test_specs_name_the_fast_search() -> None:
    bot = make_bot("ismcts:engine=fast,iterations=300,rollout=greedy,epsilon=0.1", 1, game="bash")
    assert isinstance(bot, FastIsmctsBot)
    assert bot.settings.iterations == 300
    assert bot.settings.rollout == "greedy"
    assert bot.settings.epsilon == 0.1
    assert isinstance(make_bot("ismcts:iterations=20", 1, game="bash"), IsmctsBot)


@pytest.mark.parametrize(
    "spec",
    [
        "ismcts:engine=gpu",
        "ismcts:epsilon=0.1",
        "ismcts:engine=fast,epsilon=2",
        "ismcts:engine=fast,rollout=expert",
        "ismcts:engine=fast,rollout_depth=4",
        "ismcts:engine=fast,widening=-1",
    ],
)
def test_wrong_fast_specs_are_refused(spec: str) -> None:
    with pytest.raises(OptionError):
        make_bot(spec, 1, game="bash")
