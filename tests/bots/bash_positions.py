"""Splash & Bash positions for the tests: decisions of seeded random games, and the same
position with the hands a team cannot see dealt again."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import numpy as np

from splash.core import CHANCE, RandomOutcomes
from splash.games.bash import BashGame, BashState

HAND_DECK = "high_tide"
"""The deck the teams' hands are dealt from."""


def has_choice(state: BashState) -> bool:
    """The team to act has more than one legal action."""
    return len(state.legal_actions()) > 1


def no_question(state: BashState) -> bool:
    """No reaction question is pending."""
    return state.pending is None


def others_hold_cards(state: BashState) -> bool:
    """A team other than the one to act holds cards."""
    seat = state.to_act()
    return any(hand for team, hand in enumerate(state.board.hands) if team != seat)


def random_decisions(
    seed: int,
    *,
    teams: int = 2,
    every: int = 7,
    limit: int = 8,
    keep: Callable[[BashState], bool] = lambda state: True,
) -> list[BashState]:
    """Copies of the decisions of one random game of ``teams`` teams: every ``every``-th
    decision that ``keep`` accepts, ``limit`` at most.

    ``seed`` seeds the chance outcomes and the uniformly random choices."""
    game = BashGame.from_settings([("options.teams", teams)])
    rng = np.random.default_rng(seed)
    outcomes = RandomOutcomes(seed)
    state = game.new_initial_state()
    found: list[BashState] = []
    count = 0
    while not state.is_terminal() and len(found) < limit:
        if state.to_act() == CHANCE:
            state.apply(outcomes.outcome(state))
            continue
        count += 1
        if count % every == 0 and keep(state):
            found.append(state.clone())
        legal = state.legal_actions()
        state.apply(legal[int(rng.integers(len(legal)))])
    return found


def redealt(state: BashState, seat: int, rng: np.random.Generator) -> BashState:
    """A copy of ``state`` with the other teams' hands dealt again from the cards ``seat``
    cannot see (their hands and the deck), by the tests' own shuffle rather than by the code
    under test: what ``seat`` sees does not change."""
    other = state.clone()
    board = other.board
    unseen = [c for t, hand in enumerate(board.hands) if t != seat for c in hand]
    unseen += [card for card, n in board.decks[HAND_DECK].items() for _ in range(n)]
    rng.shuffle(unseen)
    for team, hand in enumerate(board.hands):
        if team != seat:
            board.hands[team], unseen = sorted(unseen[: len(hand)]), unseen[len(hand) :]
    left = Counter(unseen)
    board.decks[HAND_DECK] = {card: left.get(card, 0) for card in board.decks[HAND_DECK]}
    return other
