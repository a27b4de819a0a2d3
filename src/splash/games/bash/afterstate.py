"""After-states of a Splash & Bash decision, as a team may know them (BD12).

For a decision ``a`` of team ``t``, the after-state applies ``a``, then every forced step
(one legal action, whichever team takes it), and stops at the first of:

- a chance event (a roll, a draw, a steal): :attr:`Stop.CHANCE`;
- a decision of another team with two or more legal actions, a question in the middle of a
  movement included: :attr:`Stop.OTHER`;
- the end of the game: :attr:`Stop.END`;
- a decision of ``t`` itself with two or more legal actions and no chance since ``a``:
  :attr:`Stop.AGAIN`.  Such a state is no stopping point of the definition: the caller
  searches through it (calls :func:`afterstates` on :attr:`Afterstate.state` and takes the
  best), so that a value is only asked of a state before chance or another team's choice.

**What the team may know.**  Whether another team has a choice, or is asked about a
lifebuoy in the middle of ``a``'s movement, depends on its hand, which ``t`` cannot see.
The after-states are therefore computed on a *canonical deal* (:func:`canonical_deal`): the
other hands dealt again from the cards ``t`` cannot see (:func:`~splash.games.bash.hidden.
unseen_cards`, BD12) by a generator with a fixed seed, so that they are a function of
``t``'s view alone: two states ``t`` cannot tell apart give the same after-states.  The deal
is the one :mod:`splash.fast`'s batched form (:mod:`splash.fast.afterstate`) makes, card
for card.

**Features** (:class:`AfterstateEncoding`): the after-state's observation for ``t``
(:class:`~splash.games.bash.encoding.BashEncoding`: its own hand, the other hands as
sizes, the decks as sizes, the discards, the board), with every block indexed by team
turned so that ``t`` is team 0, the next seat 1 and so on, and then the ``unseen`` block:
the copies of each high tide card ``t`` cannot see, over the card's copies.  No evaluation
of a bot is an input.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from typing import NamedTuple

import numpy as np

from splash.core.actions import Action
from splash.core.encoding import Layout, Vector
from splash.core.errors import OptionError
from splash.core.i18n import message
from splash.core.protocol import CHANCE, TERMINAL
from splash.games.bash.config import HAND_DECK
from splash.games.bash.encoding import BashEncoding
from splash.games.bash.game import BashGame
from splash.games.bash.hidden import copy_for_search, replay_question
from splash.games.bash.state import BashState

DEAL_SEED = 0x5EED_AF7E
"""The seed of the canonical deal's generator (the ``i``-th try uses ``DEAL_SEED + i``)."""
DEAL_TRIES = 64
"""How many deals :func:`canonical_deal` tries while a question is pending, before it keeps
the hands as they are."""
TEAM_BLOCKS = ("seat", "to_act", "turn_team", "pieces", "hand_sizes", "played", "winner")
"""The blocks of the observation indexed by team, turned so that the observer is team 0."""

_MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB


class Stop(IntEnum):
    """Where an after-state stopped (module docs); the values are the compiled core's."""

    CHANCE = 0
    OTHER = 1
    AGAIN = 2
    END = 3


class Afterstate(NamedTuple):
    """One legal action of the team and what follows it (module docs)."""

    action: Action
    """The team's action."""
    features: Vector
    """The after-state as the team sees it (:class:`AfterstateEncoding`)."""
    stop: Stop
    """Why the after-state stopped; :attr:`Stop.AGAIN`: the team decides again."""
    state: BashState
    """The after-state itself, on the canonical deal: where a search goes on from."""


class SplitMix64:
    """The compiled core's generator (``kernel.next_u64``, ``seed_rng``, ``below``), so that a
    deal made here is the core's, card for card."""

    def __init__(self, seed: int) -> None:
        self.word = seed & _MASK64
        self.word = self.next()

    def next(self) -> int:
        """The next 64-bit output."""
        self.word = (self.word + _GOLDEN) & _MASK64
        z = self.word
        z = ((z ^ (z >> 30)) * _M1) & _MASK64
        z = ((z ^ (z >> 27)) * _M2) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection: no modulo bias)."""
        limit = _MASK64 - (_MASK64 % n)
        x = self.next()
        while x >= limit:
            x = self.next()
        return x % n


def _deal(state: BashState, seat: int, seed: int) -> BashState:
    """A copy of ``state`` with the other hands dealt as ``kernel.g_redeal`` deals them from
    a generator seeded with ``seed``: card by card, uniformly from the cards ``seat`` cannot
    see, in the order of the deck file."""
    cards = list(state._bash.settings.decks[HAND_DECK].cards)
    source = state.board if state.pending is None else state.pending.snapshot
    pool = [source.decks[HAND_DECK].get(card, 0) for card in cards]
    for team, hand in enumerate(source.hands):
        if team != seat:
            for card in hand:
                pool[cards.index(card)] += 1
    total = sum(pool)
    rng = SplitMix64(seed)
    hands = [list(hand) for hand in source.hands]
    for team, hand in enumerate(source.hands):
        if team == seat:
            continue
        dealt: list[str] = []
        for _ in range(len(hand)):
            u = rng.below(total)
            for index, left in enumerate(pool):
                if u < left:
                    dealt.append(cards[index])
                    pool[index] -= 1
                    total -= 1
                    break
                u -= left
        hands[team] = sorted(dealt)
    deck = {card: pool[cards.index(card)] for card in source.decks[HAND_DECK]}
    new = copy_for_search(state)
    boards = [new.board] if new.pending is None else [new.board, new.pending.snapshot]
    for board in boards:
        board.hands = [list(hand) for hand in hands]
        board.decks[HAND_DECK] = dict(deck)
    return new


def _explains(state: BashState) -> bool:
    """Whether the pending movement, run again on ``state``'s deal with the answers given so
    far, asks the same question (kind, team, piece, options)."""
    pending = state.pending
    assert pending is not None
    asked = replay_question(copy_for_search(state))
    question = pending.question
    return asked is not None and (asked.kind, asked.team, asked.piece, asked.options) == (
        question.kind,
        question.team,
        question.piece,
        question.options,
    )


def canonical_deal(state: BashState, seat: int) -> BashState:
    """A copy of ``state`` whose other hands are dealt from what ``seat`` cannot see by a
    generator seeded with :data:`DEAL_SEED`: a function of ``seat``'s view, so states that
    ``seat`` cannot tell apart give the same deal.  While a movement waits for an answer,
    the deal must explain it (:func:`_explains`); the seeds ``DEAL_SEED + i`` are tried in
    turn, and after :data:`DEAL_TRIES` failures the hands are kept as they are."""
    if state.pending is None:
        return _deal(state, seat, DEAL_SEED)
    for attempt in range(DEAL_TRIES):
        found = _deal(state, seat, DEAL_SEED + attempt)
        if _explains(found):
            return found
    return copy_for_search(state)


def settle(state: BashState, seat: int) -> Stop:
    """Apply every forced step to ``state`` (in place) and say where it stopped for
    ``seat`` (module docs)."""
    while True:
        actor = state.to_act()
        if actor == TERMINAL:
            return Stop.END
        if actor == CHANCE:
            return Stop.CHANCE
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply_legal(legal[0])
            continue
        return Stop.AGAIN if actor == seat else Stop.OTHER


class AfterstateEncoding:
    """The features of an after-state for the team that decided (module docs): the
    observation of :class:`BashEncoding` with the team blocks turned, then ``unseen``."""

    def __init__(self, game: BashGame) -> None:
        self.game = game
        self.encoding = BashEncoding(game)
        source = self.encoding.layout
        self.teams = self.encoding.teams
        layout = Layout()
        for block in source.blocks:
            doc = block.doc
            if block.name in TEAM_BLOCKS:
                doc += " (teams counted from the deciding team: 0 is itself)"
            layout.add(
                block.name,
                block.size,
                block.low,
                block.high,
                doc,
                scale=block.scales,
                scale_doc=block.scale_doc,
                clipped=block.clipped,
            )
        hand = source["hand"]
        layout.add(
            "unseen",
            hand.size,
            0,
            1,
            "copies of each high tide card the team cannot see (BD12): the deck's and the "
            "other hands'",
            scale=hand.scales,
            scale_doc=hand.scale_doc,
        )
        self.layout = layout
        self.size = layout.size
        """The length of a feature vector."""
        self._orders = [self._order(seat) for seat in range(self.teams)]
        counts = game.settings.decks[HAND_DECK].cards
        self._present = np.array(
            [counts[card].count > 0 for card in self.encoding.hand_cards], dtype=np.float32
        )

    def _order(self, seat: int) -> np.ndarray:
        """Where each entry of the turned observation is taken from."""
        order = np.arange(self.encoding.layout.size)
        for name in TEAM_BLOCKS:
            block = self.encoding.layout[name]
            width = block.size // self.teams
            for team in range(self.teams):
                source = (team + seat) % self.teams
                start = block.start + team * width
                order[start : start + width] = np.arange(
                    block.start + source * width, block.start + (source + 1) * width
                )
        return order

    def features(self, observations: Vector, seats: int | Sequence[int] | np.ndarray) -> Vector:
        """The features of normalised observations (one vector, or rows) of ``seats`` (one
        seat, or one per row)."""
        rows = np.atleast_2d(observations)
        seat_of = np.broadcast_to(np.asarray(seats, dtype=np.int64), (rows.shape[0],))
        out = np.empty((rows.shape[0], self.size), dtype=np.float32)
        width = self.encoding.layout.size
        for seat in range(self.teams):
            chosen = seat_of == seat
            if chosen.any():
                out[chosen, :width] = rows[chosen][:, self._orders[seat]]
        hand = self.encoding.layout["hand"].slice
        discards = self.encoding.layout["discards"]
        high_tide = list(self.encoding.decks).index(HAND_DECK)
        offset = sum(len(self.encoding.decks[d]) for d in list(self.encoding.decks)[:high_tide])
        seen = rows[:, discards.start + offset : discards.start + offset + (hand.stop - hand.start)]
        out[:, width:] = (np.float32(1.0) - seen - rows[:, hand]) * self._present
        return out[0] if np.ndim(observations) == 1 else out

    def of_state(self, state: BashState, seat: int) -> Vector:
        """The features of ``state`` for ``seat``."""
        return self.features(self.encoding.observation(state, seat), seat)


def afterstates(
    state: BashState, seat: int, encoding: AfterstateEncoding | None = None
) -> list[Afterstate]:
    """One :class:`Afterstate` per legal action of ``seat``, in the order of the action ids
    (module docs).  ``seat`` must be the team to decide; ``encoding`` may be given to save
    building one per call."""
    if state.to_act() != seat:
        raise OptionError("seat", seat, message("is not the team to decide"))
    if encoding is None:
        encoding = AfterstateEncoding(state._bash)
    root = canonical_deal(state, seat)
    found: list[Afterstate] = []
    for action in root.legal_actions():
        child = copy_for_search(root)
        child.apply_legal(action)
        stop = settle(child, seat)
        found.append(Afterstate(action, encoding.of_state(child, seat), stop, child))
    return found
