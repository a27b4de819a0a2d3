"""The expectimax bot of Splash & Bash: legal, seeded, blind to hidden cards, sound on
hand-built positions, named by its spec, and playable in a ladder."""

from __future__ import annotations

import numpy as np
import pytest

from splash.bots import make_bot
from splash.bots.bash_expectimax import ExpectimaxBashBot
from splash.bots.random_bot import RandomBot
from splash.core import RandomOutcomes
from splash.core.errors import ActionError, OptionError
from splash.core.play import play
from splash.games.bash import BashGame, BashState
from splash.games.bash.scenario import play_moves, position, where
from splash.sim.backends import Sequential
from splash.sim.ladder import LadderSpec, play_ladder
from tests.bots.bash_positions import has_choice, others_hold_cards, random_decisions, redealt
from tests.bots.checked import Checked

CALM: dict[str, dict[str, int]] = {"low_tide": {"calm_water": 5}}


@pytest.fixture(scope="module")
def game() -> BashGame:
    """The default game: two teams, the shipped board and decks."""
    return BashGame()


def choice(state: BashState, seed: int = 1) -> dict[str, object]:
    """The JSON form of the expectimax bot's action."""
    return dict(ExpectimaxBashBot(seed).act(state).to_json())


def _started_choice(state: BashState) -> bool:
    """A real choice after the first turn."""
    return has_choice(state) and state.turns > 0


def _started_choice_beside_cards(state: BashState) -> bool:
    """A real choice after the first turn while another team holds cards."""
    return _started_choice(state) and others_hold_cards(state)


# ----- legality and determinism -------------------------------------------------------


@pytest.mark.slow
def test_actions_are_legal_over_a_whole_game() -> None:
    game = BashGame.from_settings([("options.teams", 3)])
    bot = Checked(ExpectimaxBashBot(3, width=2))
    final = play(game.new_initial_state(), [RandomBot(1), bot, RandomBot(2)], RandomOutcomes(4))
    assert final.is_terminal()
    assert bot.actions > 50


def test_the_same_seed_makes_the_same_decisions() -> None:
    positions = random_decisions(3, limit=6, keep=_started_choice)
    first = [ExpectimaxBashBot(21).act(s) for s in positions]
    assert [ExpectimaxBashBot(21).act(s) for s in positions] == first
    assert len({a.kind for a in first}) > 1


def test_refuses_a_state_without_a_decision(game: BashGame) -> None:
    state = position(game, pieces="A1:c10")
    assert state.is_chance()
    with pytest.raises(ActionError):
        ExpectimaxBashBot(0).act(state)


# ----- hand-built positions -----------------------------------------------------------


def test_takes_the_move_that_wins_now(game: BashGame) -> None:
    # Every pawn home, the helmsman 2 squares from the end of his lap: a 2 stays and wins.
    state = position(game, pieces="A1:done A2:done A3:done AH:c32 B1:c20", decks=CALM)
    play_moves(state, "roll 2")
    assert choice(state) == {"kind": "stay"}
    play_moves(state, "stay")
    assert state.board.winner == 0


def test_prefers_the_lane_change_that_avoids_an_obstacle(game: BashGame) -> None:
    # From c10 with a 4: high tide would be h10, outer o15 (tail wind).  An obstacle on h9
    # would throw it into the pool: the outer lane, as fast, is the safer move.
    state = position(game, pieces="A1:c10", obstacles="h9", decks=CALM)
    play_moves(state, "draw calm_water", "roll 4")
    assert choice(state) == {"kind": "change_lane", "lane": "outer"}


def test_rerolls_a_one_with_second_chance(game: BashGame) -> None:
    # In the outer lane a 1 walks 2 squares; a reroll walks 4.5 on average.  The expected
    # gain comes from the reroll's six outcomes, which the search expands.
    state = position(game, pieces="A1:o10", hands="A:second_chance", decks=CALM)
    play_moves(state, "draw calm_water", "pass", "roll 1")
    for seed in range(3):
        assert choice(state, seed) == {"kind": "play", "card": "second_chance"}


@pytest.mark.rule("B12")
def test_bumps_a_rival_into_the_pool(game: BashGame) -> None:
    # Changing lane from c10 lands on h8, where B1 stands: B1 goes into the pool.
    state = position(game, pieces="A1:c10 B1:h8", decks=CALM)
    play_moves(state, "draw calm_water", "roll 2")
    assert choice(state) == {"kind": "change_lane", "lane": "high_tide"}


@pytest.mark.rule("BD16")
def test_plays_undertow_in_its_turn_to_send_a_rival_into_the_pool(game: BashGame) -> None:
    # B1 is ahead in the high tide lane, within reach of A's undertow: it would restart
    # from the checkpoint behind it.  The card may wait for a later moment of the turn.
    for seed in range(3):
        state = position(game, pieces="A1:c10 B1:h12", hands="A:undertow", decks=CALM)
        play_moves(state, "draw calm_water")
        bot, outcomes = ExpectimaxBashBot(seed), RandomOutcomes(seed)
        while state.team == 0 and not state.is_terminal():
            state.apply(outcomes.outcome(state) if state.is_chance() else bot.act(state))
        assert where(state, "B1") == "c9"
        assert state.board.discards["high_tide"]["undertow"] == 1


def test_puts_an_obstacle_in_front_of_a_rival(game: BashGame) -> None:
    state = position(game, pieces="A1:c5 B1:h20", hands="A:fish_bone", decks=CALM)
    play_moves(state, "draw calm_water", "play fish_bone")
    action = choice(state)
    assert action["lane"] == "high_tide"
    assert 21 <= int(str(action["square"])) <= 23


# ----- hidden information -------------------------------------------------------------


@pytest.mark.rule("BD12")
def test_decisions_do_not_depend_on_cards_the_team_cannot_see() -> None:
    changed = 0
    for n, state in enumerate(random_decisions(8, every=3, keep=_started_choice_beside_cards)):
        seat = state.to_act()
        other = redealt(state, seat, np.random.default_rng(50 + n))
        assert other.view(seat) == state.view(seat)
        changed += other.board.hands != state.board.hands
        assert ExpectimaxBashBot(n).act(other) == ExpectimaxBashBot(n).act(state)
    assert changed >= 5


@pytest.mark.parametrize("hidden", ["lifebuoy", "undertow", "rogue_wave,lifebuoy"])
def test_the_hidden_hand_does_not_change_a_card_decision(game: BashGame, hidden: str) -> None:
    def decisions(hand: str) -> list[dict[str, object]]:
        state = position(game, pieces="A1:c10 B1:h8", hands=f"A:shove B:{hand}", decks=CALM)
        play_moves(state, "draw calm_water")
        return [choice(state, seed) for seed in range(3)]

    assert decisions(hidden) == decisions("fish_bone")


# ----- the spec -----------------------------------------------------------------------


def test_the_spec_sets_the_search_and_the_weights() -> None:
    bot = make_bot("expectimax:turns=2,samples=3,width=5,tide=0.5", 1)
    assert isinstance(bot, ExpectimaxBashBot)
    assert (bot.turns, bot.samples, bot.width) == (2, 3, 5)
    assert bot.weights["tide"] == 0.5


@pytest.mark.parametrize(
    ("spec", "needle"),
    [
        ("expectimax:turns=0", "turns=0"),
        ("expectimax:width=two", "width=two"),
        ("expectimax:samples=-1", "samples=-1"),
        ("expectimax:depth=2", "'depth'"),
        ("expectimax:tide=-1", "tide"),
    ],
)
def test_bad_parameters_name_the_key(spec: str, needle: str) -> None:
    with pytest.raises(OptionError) as error:
        make_bot(spec, 1)
    assert needle in str(error.value)


def test_bad_parameters_in_python_name_the_key() -> None:
    with pytest.raises(OptionError, match="turns"):
        ExpectimaxBashBot(0, turns=0)
    with pytest.raises(OptionError, match="speed"):
        ExpectimaxBashBot(0, weights={"speed": 1.0})


# ----- in a ladder --------------------------------------------------------------------


def test_a_small_ladder_plays_every_fixture() -> None:
    bots = ["random", "expectimax:width=2"]
    spec = LadderSpec.of("bash", ["board.laps=1"], bots, 2, seed=5)
    ladder = play_ladder(spec, Sequential())
    assert len(ladder.results) == 2
    assert {r.fixture.seats for r in ladder.results} == {(0, 1), (1, 0)}
    assert all(r.winner in (0, 1, None) for r in ladder.results)
    random_line, expectimax_line = ladder.table()
    assert random_line.games == expectimax_line.games == 2
    (step,) = ladder.steps()
    assert (step.lower, step.higher) == ("random", "expectimax:width=2")
