"""The information-set MCTS bot of Splash & Bash: legal, seeded, blind to hidden cards, able."""

from __future__ import annotations

import math

import numpy as np
import pytest

from splash.bots.ismcts import IsmctsBot, team_leads
from splash.bots.random_bot import RandomBot
from splash.core import RandomOutcomes
from splash.core.errors import ActionError, OptionError
from splash.core.play import play
from splash.games.bash import BashGame, BashState
from splash.games.bash.scenario import play_moves, position, where
from splash.games.bash.summary import team_progress
from tests.bots.bash_positions import has_choice, no_question, random_decisions, redealt
from tests.bots.checked import Checked


def _settled_choice(state: BashState) -> bool:
    """A real choice with no pending question."""
    return has_choice(state) and no_question(state)


def test_every_action_is_legal_over_a_whole_game() -> None:
    game = BashGame.from_settings([("options.teams", 3)])
    bots = [IsmctsBot(s, iterations=4, max_depth=6) for s in range(3)]
    final = play(game.new_initial_state(), [Checked(b) for b in bots], RandomOutcomes(5))
    assert final.is_terminal()


def test_the_same_seed_makes_the_same_decisions() -> None:
    positions = random_decisions(3, every=9, limit=5, keep=_settled_choice)
    one, two = IsmctsBot(21, iterations=20), IsmctsBot(21, iterations=20)
    first = [one.act(s) for s in positions]
    assert [two.act(s) for s in positions] == first
    assert len({a.kind for a in first}) > 1


@pytest.mark.rule("BD12")
def test_decisions_do_not_depend_on_cards_the_team_cannot_see() -> None:
    changed = 0
    for n, state in enumerate(random_decisions(8, teams=3, every=5, keep=_settled_choice)):
        seat = state.to_act()
        other = redealt(state, seat, np.random.default_rng(50 + n))
        assert other.view(seat) == state.view(seat)
        changed += other.board.hands != state.board.hands
        mine = IsmctsBot(n, iterations=25).act(state)
        theirs = IsmctsBot(n, iterations=25).act(other)
        assert mine == theirs
    assert changed >= 3


@pytest.mark.rule("BD16")
def test_it_sends_a_rival_into_the_pool_with_undertow() -> None:
    # B1 is far ahead in the high tide lane, within reach of A's undertow: it would restart
    # from the checkpoint behind it, 6 squares back.
    game = BashGame()
    for seed in range(3):
        state = position(game, pieces="A1:c10 B1:h13", hands="A:undertow")
        play_moves(state, "draw calm_water")
        bot = IsmctsBot(seed, iterations=200)
        outcomes = RandomOutcomes(seed)
        while state.team == 0 and not state.is_terminal():
            state.apply(outcomes.outcome(state) if state.is_chance() else bot.act(state))
        assert where(state, "B1") == "c9"
        assert state.board.discards["high_tide"]["undertow"] == 1


def test_progress_counts_laps_of_pawns_and_helmsman() -> None:
    game = BashGame()
    assert team_progress(game.new_initial_state()) == [0.0, 0.0]
    state = position(game, pieces="A1:done A2:c34 B1:h14")
    # A: 2 laps of 7 done and one lap of a pawn's two; B: a quarter of a pawn's race.
    assert team_progress(state) == pytest.approx([3 / 7, 0.5 / 7])
    assert team_leads(state) == pytest.approx([2.5 / 7, -2.5 / 7])


def test_refuses_bad_parameters_and_states_without_a_decision() -> None:
    for options, needle in (
        ({"rollout": "greedy"}, "rollout='greedy': must be one of random, none"),
        ({"iterations": 0}, "iterations=0: must be a whole number, 1 or more"),
        ({"max_depth": 0}, "max_depth=0: must be a whole number"),
        ({"exploration": -1.0}, "exploration=-1.0: must be a finite number >= 0"),
        ({"exploration": math.inf}, "exploration=inf: must be a finite number"),
        ({"progress_scale": 0.0}, "progress_scale=0.0: must be a finite number > 0"),
        ({"evaluation": "magic"}, "evaluation='magic': must be one of progress, greedy"),
    ):
        with pytest.raises(OptionError) as error:
            IsmctsBot(0, **options)
        assert needle in str(error.value)
    state = position(BashGame(), pieces="A1:c10")
    assert state.is_chance()
    with pytest.raises(ActionError):
        IsmctsBot(0).act(state)


def test_no_rollout_still_chooses_legal_actions() -> None:
    for n, state in enumerate(random_decisions(4, every=9, limit=4, keep=_settled_choice)):
        action = IsmctsBot(n, iterations=15, rollout="none").act(state)
        assert action in state.legal_actions()


@pytest.mark.slow
def test_it_beats_the_random_bot() -> None:
    game = BashGame()
    wins = 0
    for n in range(20):
        seat = n % 2
        agents: list[IsmctsBot | RandomBot] = [RandomBot(1000 + n), RandomBot(1000 + n)]
        agents[seat] = IsmctsBot(n, iterations=50, max_depth=8)
        final = play(game.new_initial_state(), agents, RandomOutcomes(n))
        assert isinstance(final, BashState)
        wins += final.board.winner == seat
    assert wins >= 14
