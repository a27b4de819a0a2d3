"""Resampling the hidden information of a Splash & Bash state (BD12), for search bots.

The only secret of the game is the other teams' hands: the high tide deck has no order
(BD12), so its remaining composition is whatever the hands and the discard pile leave of the
deck file.  :func:`resample` deals the other teams' hands again, uniformly from the cards a
team cannot see, and gives a *determinization*: a full state that the team cannot tell apart
from the real one.  It reads only what :meth:`BashState.view` shows the team (its own hand,
the others' hand sizes, the discard piles, the board, the public events) plus the game's
configuration, so two states that differ only in what the team cannot see give the same
determinization for the same generator state.

A pending reaction question (a lifebuoy, a B14 discard) holds a snapshot of the board from
before the movement, and the movement is run again from it with the answers given so far.
The snapshot's hands are dealt like the board's (they are the same hands), and the movement
is replayed on the new deal: a deal is kept only when the replay asks the same question of
the same team after the same public events (a team that was asked about a lifebuoy holds
one; a discard reported in the events was in that hand).  Deals that fail are drawn again
(rejection sampling), which keeps the draw uniform over the deals consistent with what the
team saw.
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import TYPE_CHECKING

import numpy as np

from splash.games.bash.board import Board
from splash.games.bash.config import HAND_DECK
from splash.games.bash.events import BashEvent, visible_event
from splash.games.bash.records import DiscardChoice
from splash.games.bash.resolver import Question

if TYPE_CHECKING:
    from splash.games.bash.state import BashState

MAX_TRIES = 2000
"""How many deals :func:`resample` tries before it gives up on a pending question."""


class ResampleError(RuntimeError):
    """No deal of the unseen cards is consistent with what the team saw."""


def unseen_cards(state: BashState, seat: int) -> list[str]:
    """The high tide cards ``seat`` cannot see, sorted: the deck's and the other teams' hands.

    It is the deck file's composition less the discard pile and ``seat``'s own hand, all of
    which ``state.view(seat)`` shows.
    """
    spec = state._bash.settings.decks[HAND_DECK]
    left = Counter({name: card.count for name, card in spec.cards.items()})
    left.subtract(state.board.discards[HAND_DECK])
    left.subtract(state.board.hands[seat])
    return sorted(left.elements())


def resample(state: BashState, seat: int, rng: np.random.Generator) -> BashState:
    """A copy of ``state`` with every other team's hand redrawn from what ``seat`` cannot see.

    Each hand keeps its size; the high tide deck keeps the cards no hand took, so every card
    is in exactly one place; ``seat``'s hand, the discards, the board and everything public
    are unchanged.  Events are kept as ``seat`` sees them, and the history of actions is left
    empty (it names the cards other teams drew).  Raises :class:`ValueError` for a seat that
    is not at the table, and :class:`ResampleError` when no consistent deal is found.
    """
    teams = len(state.board.hands)
    if not 0 <= seat < teams:
        raise ValueError(f"no seat {seat} at a table of {teams} teams")
    unseen = unseen_cards(state, seat)
    sizes = [len(hand) for hand in state.board.hands]
    if sum(size for team, size in enumerate(sizes) if team != seat) > len(unseen):
        raise ResampleError(f"the other hands hold more cards than {seat} cannot see")
    if state.pending is None:
        return _deal(state, seat, unseen, sizes, rng)
    expected = [visible_event(e, seat) for e in state.board.events]
    question = state.pending.question
    for _ in range(MAX_TRIES):
        found = _deal(state, seat, unseen, sizes, rng)
        if _replay(found, seat, question, expected):
            return found
    raise ResampleError("no deal of the unseen cards explains the pending question")


def copy_for_search(state: BashState) -> BashState:
    """A copy for search: the board copied, the history left empty (it is cheaper than
    :meth:`~splash.core.protocol.State.clone`, which copies every action of the history)."""
    return _copy_state(state)


def _copy_state(state: BashState) -> BashState:
    """A copy for search: the board copied, the history left empty."""
    cls = type(state)
    new = cls.__new__(cls)
    for key, value in state.__dict__.items():
        if key == "_history":
            new._history = []
        elif key == "board":
            new.board = value.copy()
        elif key in ("_game", "_bash"):
            setattr(new, key, value)
        else:
            setattr(new, key, copy.deepcopy(value))
    return new


def _deal(
    state: BashState, seat: int, unseen: list[str], sizes: list[int], rng: np.random.Generator
) -> BashState:
    """A copy of ``state`` with the other hands dealt from ``unseen`` (one deal, no checks)."""
    order = [unseen[i] for i in rng.permutation(len(unseen))]
    new = _copy_state(state)
    hands: list[list[str]] = []
    first: dict[int, str] = {}
    for team, size in enumerate(sizes):
        if team == seat:
            hands.append(list(state.board.hands[seat]))
            continue
        dealt, order = order[:size], order[size:]
        if dealt:
            first[team] = dealt[0]
        hands.append(sorted(dealt))
    rest = Counter(order)
    deck = {card: rest.get(card, 0) for card in state.board.decks[HAND_DECK]}
    for board in _boards(new):
        board.hands = [list(h) for h in hands]
        board.decks[HAND_DECK] = dict(deck)
        board.events = [visible_event(e, seat) for e in board.events]
    aw = new.awaiting
    if isinstance(aw, DiscardChoice) and aw.new is not None and aw.team != seat:
        # The card just drawn (B20) is one of the hand's: the first one dealt.
        new.awaiting = DiscardChoice(aw.team, first[aw.team])
    return new


def _boards(state: BashState) -> list[Board]:
    """The board and, under a pending question, the snapshot it is replayed from."""
    if state.pending is None:
        return [state.board]
    return [state.board, state.pending.snapshot]


def replay_question(state: BashState) -> Question | None:
    """Run ``state``'s pending movement again (in place) from its snapshot with the answers
    given so far, as the deal of ``state`` plays it: the question it asks, or ``None`` when
    an answer is not possible on this deal or the movement asks nothing."""
    pending = state.pending
    assert pending is not None
    state.pending = None
    state.board.restore_from(pending.snapshot)
    try:
        state._execute(pending.op, pending.answers, pending.snapshot)
    except ValueError:
        # An answer given earlier in the movement is not possible with this deal.
        return None
    if state.pending is None or state.over:
        return None
    return state.pending.question


def _replay(state: BashState, seat: int, question: Question, expected: list[BashEvent]) -> bool:
    """Run the pending movement again on the new deal; whether it matches what ``seat`` saw."""
    asked = replay_question(state)
    if asked is None:
        return False
    if (asked.kind, asked.team, asked.piece) != (question.kind, question.team, question.piece):
        return False
    if asked.team == seat and asked.options != question.options:
        return False
    return [visible_event(e, seat) for e in state.board.events] == expected
