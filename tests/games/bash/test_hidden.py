"""Resampling what a team cannot see (BD12): the determinizations of search bots."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from splash.core import CHANCE, RandomOutcomes
from splash.games.bash import BashGame, BashState
from splash.games.bash.board import Board
from splash.games.bash.hidden import resample, unseen_cards
from splash.games.bash.records import DiscardChoice
from splash.games.bash.scenario import play_moves, position
from tests.bots.bash_positions import HAND_DECK, no_question, random_decisions, redealt


def _boards(state: BashState) -> list[Board]:
    return [state.board] + ([state.pending.snapshot] if state.pending is not None else [])


def _check_cards(state: BashState) -> None:
    """Every card of each deck is in exactly one place, on the board and in any snapshot."""
    game = state.game
    assert isinstance(game, BashGame)
    for board in _boards(state):
        for deck, spec in game.settings.decks.items():
            found = Counter(board.decks[deck]) + Counter(board.discards[deck])
            if deck == HAND_DECK:
                for hand in board.hands:
                    found.update(hand)
            expected = Counter({name: card.count for name, card in spec.cards.items()})
            assert +found == +expected, f"cards of {deck} lost or duplicated"
        assert all(hand == sorted(hand) for hand in board.hands)


@pytest.mark.rule("BD12")
@pytest.mark.parametrize("teams", [2, 3, 4])
def test_BD12_resample_keeps_sizes_own_hand_public_and_every_card_once(teams: int) -> None:
    for n, state in enumerate(random_decisions(teams, teams=teams, limit=40, keep=no_question)):
        seat = state.to_act()
        sampled = resample(state, seat, np.random.default_rng(n))
        _check_cards(sampled)
        assert [len(h) for h in sampled.board.hands] == [len(h) for h in state.board.hands]
        assert sampled.board.hands[seat] == state.board.hands[seat]
        assert sampled.board.discards == state.board.discards
        assert sampled.board.decks["low_tide"] == state.board.decks["low_tide"]
        assert sampled.view(seat) == state.view(seat)
        assert sampled.legal_actions() == state.legal_actions()
        assert state.to_json() != sampled.to_json() or not state.history  # a copy, not the state


@pytest.mark.rule("BD12")
def test_BD12_resample_depends_only_on_what_the_seat_sees() -> None:
    checked = 0
    for n, state in enumerate(random_decisions(11, teams=3, every=5, limit=40, keep=no_question)):
        seat = state.to_act()
        other = redealt(state, seat, np.random.default_rng(100 + n))
        assert other.view(seat) == state.view(seat)
        if other.board.hands != state.board.hands:
            checked += 1
        one = resample(state, seat, np.random.default_rng(n))
        two = resample(other, seat, np.random.default_rng(n))
        assert one.to_json() == two.to_json()
    assert checked > 5


def test_BD12_different_seeds_deal_different_hands() -> None:
    game = BashGame()
    state = position(game, pieces="A1:h3", hands="A:shove B:undertow,slide")
    hands = {tuple(resample(state, 0, np.random.default_rng(s)).board.hands[1]) for s in range(20)}
    assert len(hands) > 5
    # Team A can see nothing that is not its own: B's hand comes from the 16 cards unseen.
    assert len(unseen_cards(state, 0)) == 17


def test_resample_changes_nothing_when_nothing_is_hidden() -> None:
    game = BashGame()
    state = position(game, pieces="A1:h3", hands="A:shove")
    sampled = resample(state, 0, np.random.default_rng(3))
    assert sampled.board.hands == state.board.hands
    assert sampled.board.decks == state.board.decks


def test_resample_refuses_a_seat_not_at_the_table() -> None:
    state = position(BashGame(), pieces="A1:h3")
    with pytest.raises(ValueError, match="no seat 2"):
        resample(state, 2, np.random.default_rng(0))


@pytest.mark.rule("B20")
def test_B20_another_team_about_to_discard_keeps_the_card_just_drawn_in_its_hand() -> None:
    game = BashGame()
    state = position(game, pieces="B1:h5", hands="B:shove,slide", team="B")
    play_moves(state, "draw undertow")
    assert state.to_act() == 1
    for s in range(10):
        sampled = resample(state, 0, np.random.default_rng(s))
        _check_cards(sampled)
        assert isinstance(sampled.awaiting, DiscardChoice)
        new = sampled.awaiting.new
        assert len(sampled.board.hands[1]) == 3 and new in sampled.board.hands[1]
        for action in sampled.legal_actions():
            sampled.clone().apply(action)


def _lifebuoy_question(game: BashGame) -> BashState:
    """A plays undertow on B1; B, who holds a lifebuoy, is asked whether to play it.

    The question is asked of any team holding a card (its options are private), so it tells
    A only that B's hand is not empty."""
    state = position(game, pieces="A1:c10 B1:h13", hands="A:undertow,shove B:lifebuoy")
    play_moves(state, "draw calm_water", "play undertow")
    assert state.pending is not None and state.to_act() == 1
    return state


@pytest.mark.rule("BD16", "BD12")
def test_BD16_a_pending_lifebuoy_question_is_resampled_consistently() -> None:
    game = BashGame()
    state = _lifebuoy_question(game)
    for s in range(10):
        for seat in (0, 1):
            sampled = resample(state, seat, np.random.default_rng(s))
            _check_cards(sampled)
            assert sampled.to_act() == 1
            assert sampled.pending is not None
            hand = sampled.board.hands[1]
            assert len(hand) == 1 and (seat == 0 or hand == ["lifebuoy"])
            options = sampled.pending.question.options
            assert options == (*sorted({c for c in hand if c == "lifebuoy"}), "pass")
            assert sampled.pending.snapshot.hands == sampled.board.hands
            assert sampled.view(seat) == state.view(seat)
            for action in sampled.legal_actions():
                follow = sampled.clone()
                follow.apply(action)
                _check_cards(follow)


@pytest.mark.rule("BD12")
def test_BD12_a_pending_question_resamples_alike_whatever_the_seat_cannot_see() -> None:
    game = BashGame()
    state = _lifebuoy_question(game)
    other = position(game, pieces="A1:c10 B1:h13", hands="A:undertow,fish_bone B:lifebuoy")
    play_moves(other, "draw calm_water", "play undertow")
    assert other.view(1) == state.view(1) and other.board.hands != state.board.hands
    for s in range(5):
        one = resample(state, 1, np.random.default_rng(s))
        two = resample(other, 1, np.random.default_rng(s))
        assert one.to_json() == two.to_json()


@pytest.mark.rule("BD12")
def test_BD12_reaction_questions_of_random_games_resample_for_every_seat() -> None:
    game = BashGame.from_settings([("options.teams", 3)])
    checked = 0
    for seed in range(4):
        rng = np.random.default_rng(seed)
        outcomes = RandomOutcomes(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.to_act() == CHANCE:
                state.apply(outcomes.outcome(state))
                continue
            if state.pending is not None:
                for seat in range(game.num_seats):
                    sampled = resample(state, seat, np.random.default_rng(checked))
                    _check_cards(sampled)
                    assert sampled.view(seat) == state.view(seat)
                    follow = sampled.clone()
                    legal = follow.legal_actions()
                    follow.apply(legal[int(rng.integers(len(legal)))])
                    _check_cards(follow)
                checked += 1
            legal = state.legal_actions()
            state.apply(legal[int(rng.integers(len(legal)))])
    assert checked > 3
