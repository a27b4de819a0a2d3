"""Invariants of Splash & Bash over random games, and what a view may show (BD04, BD12)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from splash.core import CHANCE, RandomOutcomes
from splash.games.bash import BashGame, BashState
from splash.games.bash.records import DiscardChoice
from splash.games.bash.variants import turn_team

VARIANTS: list[list[tuple[str, object]]] = [
    [],
    [("options.turn_order", "rotate"), ("options.start_stagger", 2)],
    [("options.turn_order", "snake"), ("options.catch_up_draw", True)],
    [("options.opening_cards", 1), ("options.turn_order", "rotate")],
    [("options.first_turn_penalty", 3), ("options.start_stagger", 1)],
]
"""The draft, and the variants BV01-BV05 two by two."""


def _card_places(state: BashState, deck: str) -> Counter[str]:
    board = state.board
    found: Counter[str] = Counter(board.decks[deck]) + Counter(board.discards[deck])
    if deck == "high_tide":
        for hand in board.hands:
            found.update(hand)
    return found


def _check_invariants(state: BashState, previous_team: int) -> None:
    game = state.game
    assert isinstance(game, BashGame)
    course = game.course
    squares = [
        (p.lane, course.physical(p.lane, p.s))
        for p in state.board.on_course()
        if p.lane is not None and not course.on_line(p.lane, p.s)
    ]
    assert len(squares) == len(set(squares)), "two pieces share a square"
    for p in state.board.on_course():
        assert p.lane is not None and 0 <= p.s < course.total(p.lane, p.helmsman)
    for deck, spec in game.settings.decks.items():
        expected = Counter({name: card.count for name, card in spec.cards.items()})
        assert +_card_places(state, deck) == +expected, f"cards of {deck} lost or duplicated"
    limit = game.settings.options.hand_limit
    awaited = state.awaiting
    for team, hand in enumerate(state.board.hands):
        over = isinstance(awaited, DiscardChoice) and awaited.new is not None
        if not (over and isinstance(awaited, DiscardChoice) and awaited.team == team):
            assert len(hand) <= limit
    order = game.settings.options.turn_order
    next_team = turn_team(order, game.num_seats, state.turns)
    opening = state.turns == 0 and state.step == 0  # set-up, and BV05's draws after it
    assert opening or state.team in (previous_team, (previous_team + 1) % game.num_seats, next_team)
    for obstacle in state.board.obstacles:
        assert obstacle[1] != 0, "an obstacle on the start line"


def _hide_and_shuffle(state: BashState, seat: int, rng: np.random.Generator) -> BashState:
    """The same state with every other team's hand redrawn from the unseen cards."""
    other = state.clone()
    board = other.board
    unseen: list[str] = []
    for team, hand in enumerate(board.hands):
        if team != seat:
            unseen += hand
    for card, count in board.decks["high_tide"].items():
        unseen += [card] * count
    rng.shuffle(unseen)
    for team, hand in enumerate(board.hands):
        if team != seat:
            board.hands[team] = sorted(unseen[: len(hand)])
            unseen = unseen[len(hand) :]
    board.decks["high_tide"] = dict(
        Counter(unseen) | Counter(dict.fromkeys(board.decks["high_tide"], 0))
    )
    return other


@pytest.mark.rule("BD04", "BV01", "BV02", "BV03", "BV04", "BV05")
@settings(deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    teams=st.integers(2, 4),
    variant=st.sampled_from(range(len(VARIANTS))),
)
def test_BD04_invariants_hold_after_every_action(seed: int, teams: int, variant: int) -> None:
    game = BashGame.from_settings([("options.teams", teams), *VARIANTS[variant]])
    rng = np.random.default_rng(seed)
    outcomes = RandomOutcomes(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        previous = state.team
        if state.to_act() == CHANCE:
            state.apply(outcomes.outcome(state))
        else:
            legal = state.legal_actions()
            state.apply(legal[int(rng.integers(len(legal)))])
        _check_invariants(state, previous)


@pytest.mark.rule("BD12")
@settings(deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_BD12_a_view_does_not_change_with_what_the_seat_cannot_see(seed: int) -> None:
    game = BashGame.from_settings([("options.teams", 3)])
    rng = np.random.default_rng(seed)
    outcomes = RandomOutcomes(seed)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal():
        if state.to_act() == CHANCE:
            state.apply(outcomes.outcome(state))
        else:
            legal = state.legal_actions()
            state.apply(legal[int(rng.integers(len(legal)))])
        if rng.random() < 0.1:
            seat = int(rng.integers(game.num_seats))
            if state.to_act() != seat and not state.board.events:
                perturbed = _hide_and_shuffle(state, seat, rng)
                assert perturbed.view(seat) == state.view(seat)
                checked += 1
    assert checked > 0


def test_BD12_another_teams_high_tide_draw_shows_only_that_it_happened() -> None:
    from splash.games.bash.scenario import play_moves, position
    from splash.games.bash.view import build_view

    state = position(BashGame(), pieces="A1:h3")
    play_moves(state, "draw shove")
    mine = build_view(state, 0)["events"]
    theirs = build_view(state, 1)["events"]
    assert {"event": "draw", "team": 0, "deck": "high_tide", "card": "shove"} in mine
    assert {"event": "draw", "team": 0, "deck": "high_tide"} in theirs
    assert "shove" not in str(state.view(1)["hand"])
