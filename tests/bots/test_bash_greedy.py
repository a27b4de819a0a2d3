"""The greedy bot of Splash & Bash: legal, deterministic, blind to hidden cards, and better
than chance."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from splash.bots.bash_greedy import GreedyBashBot, determinize
from splash.bots.random_bot import RandomBot
from splash.core.errors import OptionError
from splash.core.outcomes import RandomOutcomes
from splash.core.play import Agent, play
from splash.games.bash import BashGame
from splash.games.bash.greedy_weights import GREEDY_WEIGHTS
from splash.games.bash.scenario import play_moves, position
from splash.games.bash.state import BashState
from tests.bots.checked import Checked

CALM: dict[str, dict[str, int]] = {"low_tide": {"calm_water": 5}}
NO_HIGH_TIDE: dict[str, dict[str, int]] = {"high_tide": {}}


@pytest.fixture(scope="module")
def game() -> BashGame:
    """The default game: two teams, the shipped board and decks."""
    return BashGame()


def choice(state: BashState, seed: int = 1) -> dict[str, object]:
    """The JSON form of the greedy bot's action."""
    return dict(GreedyBashBot(seed).act(state).to_json())


def card_places(state: BashState) -> Counter[str]:
    """Every high tide card, counted over the deck, the hands and the discard pile."""
    board = state.board
    counted: Counter[str] = Counter()
    counted.update({c: n for c, n in board.decks["high_tide"].items()})
    counted.update({c: n for c, n in board.discards["high_tide"].items()})
    for hand in board.hands:
        counted.update(hand)
    return +counted


# ----- legality and determinism -------------------------------------------------------


@pytest.mark.parametrize("teams", [2, 3])
def test_actions_are_legal_over_whole_games(teams: int) -> None:
    game = BashGame.from_settings([("options.teams", teams)])
    agents = [Checked(GreedyBashBot(s)) for s in range(teams - 1)] + [Checked(RandomBot(9))]
    state = play(game.new_initial_state(), agents, RandomOutcomes(teams))
    assert state.is_terminal()
    assert all(a.actions > 0 for a in agents)


def test_deterministic_for_a_seed(game: BashGame) -> None:
    def history(seed: int) -> list[int]:
        state = play(
            game.new_initial_state(), [GreedyBashBot(seed), RandomBot(3)], RandomOutcomes(5)
        )
        return [a.id for a in state.history]

    assert history(11) == history(11)


def test_weights_are_checked() -> None:
    assert GreedyBashBot(0, tide="0.5").weights == {**GREEDY_WEIGHTS, "tide": 0.5}
    with pytest.raises(OptionError):
        GreedyBashBot(0, nonsense=1.0)
    with pytest.raises(OptionError):
        GreedyBashBot(0, tide=-1.0)


# ----- hand-checked positions ---------------------------------------------------------


def test_bumps_a_rival_into_the_pool(game: BashGame) -> None:
    # Changing lane from c10 lands on h8, where B1 stands: B1 goes into the pool.
    state = position(game, pieces="A1:c10 B1:h8", decks=CALM)
    play_moves(state, "draw calm_water", "roll 2")
    assert choice(state) == {"kind": "change_lane", "lane": "high_tide"}


def test_plays_undertow_and_shove_when_they_send_a_rival_into_the_pool(game: BashGame) -> None:
    state = position(game, pieces="A1:c10 B1:h12", hands="A:undertow", decks=CALM)
    play_moves(state, "draw calm_water")
    assert choice(state) == {"kind": "play", "card": "undertow"}
    state = position(game, pieces="A1:c10 B1:h8", hands="A:shove", decks=CALM)
    play_moves(state, "draw calm_water")
    assert choice(state) == {"kind": "play", "card": "shove"}


def test_keeps_a_card_that_would_only_help_a_rival(game: BashGame) -> None:
    # A shove would push B1 from the centre lane into the faster high tide lane.
    state = position(game, pieces="A1:c10 B1:c11", hands="A:shove", decks=CALM)
    play_moves(state, "draw calm_water")
    assert choice(state) == {"kind": "pass"}


def test_plays_a_lifebuoy_to_save_its_pawn(game: BashGame) -> None:
    # Team B's lane change pushes A1 from h8 into the pool.
    state = position(game, pieces="B1:c10 A1:h8", team="B", hands="A:lifebuoy", decks=CALM)
    play_moves(state, "draw calm_water", "roll 2", "lane high_tide")
    assert state.to_act() == 0
    assert choice(state) == {"kind": "play", "card": "lifebuoy"}
    # Its own walk onto an obstacle in the high tide lane.
    state = position(game, pieces="A1:h10", obstacles="h12", hands="A:lifebuoy", decks=NO_HIGH_TIDE)
    play_moves(state, "pass", "roll 2", "pass", "stay", "pass")
    assert choice(state) == {"kind": "play", "card": "lifebuoy"}


def test_plays_second_chance_on_a_low_roll_only(game: BashGame) -> None:
    # In the outer lane (speed 3.5 + 1 tail wind) a 1 walks 2 squares, 0.44 turns; keeping
    # the better of it and a reroll walks 4.5 on average, 1.0 turn, worth more than the card
    # (0.4).  A 3 walks 4 squares (0.89 turns); the better of it and a reroll, 5 squares
    # (1.11 turns), is worth less than the walk plus the card.
    state = position(game, pieces="A1:o10", hands="A:second_chance", decks=CALM)
    play_moves(state, "draw calm_water", "pass", "roll 1")
    assert choice(state) == {"kind": "play", "card": "second_chance"}
    state = position(game, pieces="A1:o10", hands="A:second_chance", decks=CALM)
    play_moves(state, "draw calm_water", "pass", "roll 3")
    assert choice(state) == {"kind": "pass"}


def test_prefers_the_lane_change_that_avoids_an_obstacle(game: BashGame) -> None:
    # From c10 with a 4: high tide would be h10, outer o15 (tail wind), centre c14.
    state = position(game, pieces="A1:c10", decks=CALM)
    play_moves(state, "draw calm_water", "roll 4")
    assert choice(state) == {"kind": "change_lane", "lane": "high_tide"}
    # An obstacle on h9 would throw it into the pool: the outer lane avoids it.
    state = position(game, pieces="A1:c10", obstacles="h9", decks=CALM)
    play_moves(state, "draw calm_water", "roll 4")
    assert choice(state) == {"kind": "change_lane", "lane": "outer"}


def test_puts_an_obstacle_in_front_of_a_rival(game: BashGame) -> None:
    state = position(game, pieces="A1:c5 B1:h20", hands="A:fish_bone", decks=CALM)
    play_moves(state, "draw calm_water", "play fish_bone")
    action = choice(state)
    assert action["lane"] == "high_tide"
    assert 21 <= int(str(action["square"])) <= 23


# ----- hidden information -------------------------------------------------------------


def test_determinize_redraws_only_the_hidden_cards(game: BashGame) -> None:
    state = position(game, pieces="A1:c10 B1:h8", hands="A:shove B:lifebuoy,slide", decks=CALM)
    for seed in range(20):
        world = determinize(state, 0, np.random.default_rng(seed))
        assert card_places(world) == card_places(state)
        assert world.board.hands[0] == ["shove"]
        assert len(world.board.hands[1]) == 2
        assert world.view(0) == state.view(0)
        assert world.board.discards == state.board.discards
        assert world.board.decks["low_tide"] == state.board.decks["low_tide"]


def test_determinize_depends_only_on_what_the_seat_sees(game: BashGame) -> None:
    one = position(game, pieces="A1:c10 B1:h8", hands="A:shove B:lifebuoy", decks=CALM)
    two = position(game, pieces="A1:c10 B1:h8", hands="A:shove B:undertow", decks=CALM)
    for seed in range(5):
        first = determinize(one, 0, np.random.default_rng(seed))
        second = determinize(two, 0, np.random.default_rng(seed))
        assert first.to_json() == second.to_json()


@pytest.mark.parametrize("hidden", ["lifebuoy", "undertow", "slide", "rogue_wave,lifebuoy"])
def test_the_hidden_hand_does_not_change_the_decision(game: BashGame, hidden: str) -> None:
    def decisions(hand: str) -> list[dict[str, object]]:
        state = position(game, pieces="A1:c10 B1:h8", hands=f"A:shove B:{hand}", decks=CALM)
        play_moves(state, "draw calm_water")
        return [choice(state, seed) for seed in range(4)]

    assert decisions(hidden) == decisions("fish_bone")


def test_decisions_over_a_game_ignore_the_other_hands(game: BashGame) -> None:
    """At every decision of team A, redraw team B's hand: A's action stays the same."""
    state = game.new_initial_state()
    outcomes, rival, redraw = RandomOutcomes(21), RandomBot(4), np.random.default_rng(8)
    checked = 0
    while not state.is_terminal() and checked < 60:
        seat = state.to_act()
        if seat == 0 and len(state.legal_actions()) > 1:
            variant = determinize(state, 0, redraw)
            assert variant.view(0) == state.view(0)
            action = GreedyBashBot(checked).act(state)
            assert GreedyBashBot(checked).act(variant) == action
            checked += 1
        elif seat == 0:
            action = state.legal_actions()[0]
        else:
            action = rival.act(state) if seat == 1 else outcomes.outcome(state)
        state.apply(action)
    assert checked > 20


# ----- strength -----------------------------------------------------------------------


@pytest.mark.slow
def test_wins_most_games_against_the_random_bot(game: BashGame) -> None:
    wins = 0
    for seed in range(30):
        greedy = seed % 2
        agents: list[Agent] = [RandomBot(1000 + seed), RandomBot(1000 + seed)]
        agents[greedy] = GreedyBashBot(seed)
        state = play(game.new_initial_state(), agents, RandomOutcomes(seed))
        assert isinstance(state, BashState)
        wins += state.board.winner == greedy
    assert wins >= 20
