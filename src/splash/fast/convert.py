"""A reference :class:`~splash.games.bash.state.BashState` as the compiled core's state array.

:func:`to_arrays` is how a search bot hands a position to the core (:func:`splash.fast.batch.
playouts`) and how the verification compares a replayed game with the fast one.
:func:`comparable` is the part of a state array that two equal positions share.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from splash.fast import kernel as k
from splash.games.bash import BashState
from splash.games.bash.board import Board
from splash.games.bash.config import DECKS, HAND_DECK
from splash.games.bash.records import (
    AwaitDraw,
    AwaitRoll,
    AwaitSteal,
    CardFall,
    CardPush,
    ChangeLane,
    DiscardChoice,
    EffectRef,
    KeepChoice,
    LaneChoice,
    ObstacleChoice,
    PlayWindow,
    StartLane,
    TargetChoice,
    VictimChoice,
    Walk,
)
from splash.games.bash.resolver import PASS

if TYPE_CHECKING:
    from splash.fast.tables import IntArray, Tables

WINDOW_CODES = {
    "before_roll": k.TM_BEFORE_ROLL,
    "after_roll": k.TM_AFTER_ROLL,
    "after_lane": k.TM_AFTER_LANE,
    "after_walk": k.TM_AFTER_WALK,
}


def _ref(tables: Tables, ref: EffectRef) -> int:
    deck = DECKS.index(ref.deck)
    card = list(tables.game.settings.decks[ref.deck].cards).index(ref.card)
    return (deck * k.MAXC + card) * k.MAXE + ref.index


def _board(tables: Tables, board: Board, G: IntArray, at: int) -> None:
    hand = list(tables.game.settings.decks[HAND_DECK].cards)
    for piece in board.all_pieces():
        p = piece.team * 4 + piece.index
        G[at + k.B_LANE + p] = -1 if piece.lane is None else piece.lane
        G[at + k.B_S + p] = piece.s
        G[at + k.B_FIN + p] = int(piece.finished)
    for team, cards in enumerate(board.hands):
        for card in cards:
            G[at + k.B_HAND + team * k.MAXC + hand.index(card)] += 1
    for d, deck in enumerate(DECKS):
        names = list(tables.game.settings.decks[deck].cards)
        for name, count in board.decks[deck].items():
            G[at + k.B_DECK + d * k.MAXC + names.index(name)] = count
        for name, count in board.discards[deck].items():
            G[at + k.B_DISC + d * k.MAXC + names.index(name)] = count
    for team in board.played:
        G[at + k.B_PLAYED + team] = 1
    G[at + k.B_WIN] = -1 if board.winner is None else board.winner
    lmax = tables.lmax
    for lane, square in board.obstacles:
        G[at + k.B_OBS + lane * lmax + square] = 1


def _awaited(tables: Tables, state: BashState, G: IntArray) -> None:
    hand = list(tables.game.settings.decks[HAND_DECK].cards)
    aw = state.awaiting
    kind, team, a, b = k.AW_NONE, 0, 0, 0
    match aw:
        case StartLane():
            kind, team, a = k.AW_START, aw.team, int(aw.purpose == "helmsman")
        case AwaitDraw():
            kind, team, a = k.AW_DRAW, -1, DECKS.index(aw.deck)
        case AwaitRoll():
            kind, team, a, b = k.AW_ROLL, -1, aw.dice, int(aw.purpose == "reroll")
        case AwaitSteal():
            kind, team, a = k.AW_STEAL, state.team, aw.victim
        case PlayWindow():
            kind, team, a = k.AW_WINDOW, aw.team, WINDOW_CODES[aw.window]
        case LaneChoice():
            kind, team = k.AW_LANE, aw.team
        case DiscardChoice():
            kind, team = k.AW_DISCARD, aw.team
            a = -1 if aw.new is None else hand.index(aw.new)
        case ObstacleChoice():
            kind, team, a = k.AW_OBST, aw.team, aw.left
        case TargetChoice() | VictimChoice():
            kind = k.AW_TARGET if isinstance(aw, TargetChoice) else k.AW_VICTIM
            team, a = aw.team, _ref(tables, aw.effect)
        case KeepChoice():
            kind, team = k.AW_KEEP, aw.team
    G[k.S_AW], G[k.S_AWT], G[k.S_AWA], G[k.S_AWB] = kind, team, a, b


def _pending(tables: Tables, state: BashState, G: IntArray) -> None:
    pending = state.pending
    if pending is None:
        return
    hand = list(tables.game.settings.decks[HAND_DECK].cards)
    op = pending.op
    match op:
        case Walk():
            code, param = k.OP_WALK, op.points
        case ChangeLane():
            code, param = k.OP_CHLANE, op.lane
        case CardPush():
            code, param = k.OP_PUSH, int(op.inward)
        case CardFall():
            code, param = k.OP_FALL, 0
    G[k.S_PEND] = 1
    G[k.S_POP], G[k.S_PTEAM], G[k.S_PPIECE], G[k.S_PPARAM] = code, op.team, op.piece, param
    G[k.S_NANS] = len(pending.answers)
    for i, answer in enumerate(pending.answers):
        G[k.S_ANS + i] = -1 if answer == PASS else hand.index(answer)
    question = pending.question
    mask = 0
    for option in question.options:
        mask |= k.PASS_BIT if option == PASS else 1 << hand.index(option)
    G[k.S_QKIND] = k.Q_LIFEBUOY if question.kind == "lifebuoy" else k.Q_DISCARD
    G[k.S_QTEAM], G[k.S_QOPTS] = question.team, mask
    G[k.S_QPIECE] = question.piece[0] * 4 + question.piece[1]
    _board(tables, pending.snapshot, G, k.BOARD + k.board_size(tables.lmax))


def to_arrays(tables: Tables, state: BashState) -> IntArray:
    """The core's state array of ``state`` (a position of ``tables.game``)."""
    G = np.zeros(k.state_size(tables.lmax), np.int64)
    G[k.S_TEAM], G[k.S_ACTIVE], G[k.S_STEP] = state.team, state.active, state.step
    G[k.S_TURNS], G[k.S_SETUP], G[k.S_OVER] = state.turns, state.setup_placed, int(state.over)
    _awaited(tables, state, G)
    _pending(tables, state, G)
    G[k.S_NDICE] = len(state.dice)
    G[k.S_DICE : k.S_DICE + len(state.dice)] = state.dice
    G[k.S_NRER] = len(state.rerolled)
    G[k.S_RER : k.S_RER + len(state.rerolled)] = state.rerolled
    G[k.S_EXTRA] = state.extra_dice
    G[k.S_NMOD] = len(state.modifiers)
    for i, (amount, minimum) in enumerate(state.modifiers):
        G[k.S_MOD + 2 * i], G[k.S_MOD + 2 * i + 1] = amount, minimum
    G[k.S_FREE], G[k.S_SKIP] = int(state.free_lane), int(state.skip_move)
    G[k.S_LCOST], G[k.S_MOVOVER] = state.lane_cost, int(state.movement_over)
    G[k.S_NEXTP : k.S_NEXTP + len(state.next_pawn)] = state.next_pawn
    G[k.S_NEFF] = len(state.effects)
    for i, ref in enumerate(state.effects):
        G[k.S_EFF + i] = _ref(tables, ref)
    _board(tables, state.board, G, k.BOARD)
    return G


def comparable(tables: Tables, G: IntArray) -> IntArray:
    """The values two equal positions share: the state proper, the board (without the
    events of the last action) and, while a movement waits for an answer, its snapshot."""
    nb = k.board_size(tables.lmax)
    parts = [G[: k.S_TURN_END].copy(), G[k.BOARD : k.BOARD + nb].copy()]
    parts[1][k.B_EVLEN] = 0
    if G[k.S_PEND] == 0:
        parts[0][k.S_POP : k.S_NDICE] = 0
    else:
        parts[0][k.S_ANS + int(G[k.S_NANS]) : k.S_ANS + k.MAXANS] = 0
        snap = G[k.BOARD + nb : k.BOARD + 2 * nb].copy()
        snap[k.B_EVLEN] = 0
        parts.append(snap)
    for turn_only in (k.S_DICE, k.S_RER, k.S_MOD, k.S_EFF):
        _clear_unused(parts[0], turn_only)
    if G[k.S_AW] in (k.AW_NONE, k.AW_LANE, k.AW_KEEP):
        parts[0][k.S_AWA : k.S_AWB + 1] = 0
    if G[k.S_AW] in (k.AW_NONE,):
        parts[0][k.S_AWT] = 0
    return np.concatenate(parts)


def _clear_unused(values: IntArray, at: int) -> None:
    sizes = {k.S_DICE: (k.S_NDICE, 1, k.MAXDICE), k.S_RER: (k.S_NRER, 1, k.MAXDICE)}
    sizes[k.S_MOD] = (k.S_NMOD, 2, k.MAXMOD)
    sizes[k.S_EFF] = (k.S_NEFF, 1, k.MAXEFF)
    count_at, width, most = sizes[at]
    used = int(values[count_at]) * width
    values[at + used : at + most * width] = 0
