"""The compiled part of :mod:`splash.fast.afterstate`: the canonical deal, the forced steps,
the after-states of a batch of positions, and the chance event after an after-state as the
deciding team may weigh it (:func:`expand_chance`'s docs).

The rules are :mod:`splash.fast.kernel`'s functions and the encoder
:mod:`splash.fast.vec_kernel`'s.  numba's disk cache checks only the file of the function it
loads, so the cached entry points here are closures over a digest of both files (as
:mod:`splash.fast.vec_kernel`'s are over ``kernel.py``'s): a change there compiles them again.
The helpers are compiled into the entry points and are not cached on their own.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from splash.fast import kernel as k
from splash.fast import vec_kernel as vk
from splash.fast.kernel import (
    AW_DRAW,
    AW_ROLL,
    AW_STEAL,
    B_DECK,
    B_HAND,
    BOARD,
    CHANCE,
    ERR_LIST,
    EV_BUFFER,
    FRW,
    HAND,
    MAXC,
    MAXFR,
    S_AW,
    S_AWA,
    S_ERR,
    S_OVER,
    S_PEND,
    S_QKIND,
    S_QOPTS,
    S_QPIECE,
    S_QTEAM,
    T_A_DRAW,
    T_A_ROLL,
    T_A_STEAL,
    T_FACES,
    T_LMAX,
    T_NCARD,
    T_TEAMS,
    TERMINAL,
    apply,
    execute,
    g_redeal,
    legal,
    opsnap,
    restore,
    seed_rng,
    to_act,
)
from splash.games.bash.afterstate import DEAL_SEED, DEAL_TRIES, Stop

STOP_CHANCE, STOP_OTHER, STOP_AGAIN, STOP_END = (int(stop) for stop in Stop)
ROLL_OUTCOMES = 64
"""The most outcomes one roll is expanded into: the dice still to roll are all expanded when
``faces ** dice`` is at most this, else only the first (the rest stay a chance event)."""

_UNCACHED: dict[str, Any] = {"_nrt": False}
_helper = njit(**_UNCACHED)
_DIGEST = hashlib.sha256(Path(k.__file__).read_bytes() + Path(vk.__file__).read_bytes())
_STAMP = int(_DIGEST.hexdigest()[:15], 16)


@_helper
def copy_into(dst, src):
    """``dst[:] = src`` without numba's runtime."""
    for i in range(src.shape[0]):
        dst[i] = src[i]


@_helper
def explains(D, W, T, E, F):
    """Whether the pending movement of ``D``, run again on its deal with the answers given
    so far, asks the same question (kind, team, piece, options) with no count below 0."""
    copy_into(W, D)
    restore(W, T, opsnap(T))
    execute(W, T, E, F)
    if W[S_ERR] != 0 or W[S_OVER] != 0 or W[S_PEND] == 0:
        return False
    for at in (S_QKIND, S_QTEAM, S_QOPTS, S_QPIECE):
        if W[at] != D[at]:
            return False
    # the hands, then the decks: a card dealt away by an answer the new deal cannot give
    low = 0
    for i in range(6 * MAXC):
        low = min(low, W[BOARD + B_HAND + i])
    return low >= 0


@_helper
def canonical_deal(
    G,
    D,
    W,
    T,
    E,
    F,
    R,
    seat,
    pool,
):
    """``D``: ``G`` with the other hands dealt as
    :func:`splash.games.bash.afterstate.canonical_deal` deals them."""
    copy_into(D, G)
    if G[S_PEND] == 0:
        seed_rng(R, DEAL_SEED)
        g_redeal(D, T, R, seat, pool)
        return
    for attempt in range(DEAL_TRIES):
        copy_into(D, G)
        seed_rng(R, DEAL_SEED + attempt)
        g_redeal(D, T, R, seat, pool)
        if explains(D, W, T, E, F):
            return
    copy_into(D, G)


@_helper
def settle(
    W,
    T,
    E,
    F,
    seat,
    ids,
    weights,
    scratch,
):
    """Every forced step applied to ``W``; where it stopped (``STOP_*``), -1 when the core
    broke a limit."""
    while True:
        if W[S_ERR] != 0:
            return -1
        actor = to_act(W)
        if actor == TERMINAL:
            return STOP_END
        if actor == CHANCE:
            return STOP_CHANCE
        m = legal(W, T, ids, weights, scratch)
        if m == 0:
            W[S_ERR] = ERR_LIST
            return -1
        if m > 1:
            return STOP_AGAIN if actor == seat else STOP_OTHER
        apply(W, T, E, F, ids[0], scratch)


@_helper
def unseen_count(X, seat, teams, c):
    """The copies of high tide card ``c`` that ``seat`` cannot see in ``X`` (no question
    pending): the deck's and the other hands'."""
    u = X[BOARD + B_DECK + HAND * MAXC + c]
    for t in range(teams):
        if t != seat:
            u += X[BOARD + B_HAND + t * MAXC + c]
    return u


@_helper
def roll_dice(X, T):
    """How many dice of the roll ``X`` awaits are expanded (:data:`ROLL_OUTCOMES`)."""
    faces = T[T_FACES]
    dice = X[S_AWA]
    total = 1
    for _ in range(dice):
        total *= faces
    return dice if total <= ROLL_OUTCOMES else 1


@_helper
def chance_count(X, T, seat):
    """How many outcomes :func:`chance_outcome` gives for the chance event of ``X``."""
    aw = X[S_AW]
    teams = T[T_TEAMS]
    if aw == AW_ROLL:
        total = 1
        for _ in range(roll_dice(X, T)):
            total *= T[T_FACES]
        return total
    n = 0
    if (aw == AW_DRAW and X[S_AWA] == HAND) or (aw == AW_STEAL and X[S_AWA] != seat):
        for c in range(T[T_NCARD + HAND]):
            if unseen_count(X, seat, teams, c) > 0:
                n += 1
        return n
    if aw == AW_DRAW:
        deck = X[S_AWA]
        for c in range(T[T_NCARD + deck]):
            if X[BOARD + B_DECK + deck * MAXC + c] > 0:
                n += 1
        return n
    for c in range(MAXC):  # a steal from the deciding team's own hand, which it sees
        if X[BOARD + B_HAND + seat * MAXC + c] > 0:
            n += 1
    return n


@_helper
def move_card(X, source, target, c, d):
    """Card ``c`` from the hand-or-deck at ``source`` to ``target``, card ``d`` back."""
    X[source + c] -= 1
    X[target + c] += 1
    X[target + d] -= 1
    X[source + d] += 1


@_helper
def chance_outcome(X, T, E, F, seat, i, scratch):
    """Apply the ``i``-th outcome of ``X``'s chance event (in place) and return its weight
    as ``seat`` sees it: each face of the dice alike; a high tide card by the copies
    ``seat`` cannot see, put first into the deck (or the victim's hand) in the place of
    another unseen card if the canonical deal dealt it elsewhere; a low tide card, or a card
    stolen from ``seat``, by its copies."""
    aw = X[S_AW]
    teams = T[T_TEAMS]
    if aw == AW_ROLL:
        dice = roll_dice(X, T)
        faces = T[T_FACES]
        code = i
        for _ in range(dice):
            apply(X, T, E, F, T[T_A_ROLL + code % faces], scratch)
            code //= faces
        return 1
    hidden = (aw == AW_DRAW and X[S_AWA] == HAND) or (aw == AW_STEAL and X[S_AWA] != seat)
    deck = X[S_AWA] if aw == AW_DRAW else HAND
    kinds = T[T_NCARD + deck] if aw == AW_DRAW else MAXC
    seen = -1
    for c in range(kinds):
        if hidden:
            k = unseen_count(X, seat, teams, c)
        elif aw == AW_DRAW:
            k = X[BOARD + B_DECK + deck * MAXC + c]
        else:
            k = X[BOARD + B_HAND + seat * MAXC + c]
        if k > 0:
            seen += 1
            if seen == i:
                break
    weight = k
    pile = BOARD + B_DECK + HAND * MAXC
    if aw == AW_DRAW:
        if hidden and X[pile + c] == 0:
            other = 0
            while other == seat or X[BOARD + B_HAND + other * MAXC + c] == 0:
                other += 1
            d = 0
            while X[pile + d] == 0:
                d += 1
            move_card(X, BOARD + B_HAND + other * MAXC, pile, c, d)
        apply(X, T, E, F, T[T_A_DRAW + deck * MAXC + c], scratch)
        return weight
    victim = X[S_AWA]
    hand = BOARD + B_HAND + victim * MAXC
    if hidden and X[hand + c] == 0:
        d = 0
        while X[hand + d] == 0:
            d += 1
        if X[pile + c] > 0:
            move_card(X, pile, hand, c, d)
        else:
            other = 0
            while other == seat or X[BOARD + B_HAND + other * MAXC + c] == 0 or other == victim:
                other += 1
            move_card(X, BOARD + B_HAND + other * MAXC, hand, c, d)
    apply(X, T, E, F, T[T_A_STEAL + c], scratch)
    return weight


def _entry_points(
    stamp: int,
) -> tuple[Callable[..., Any], Callable[..., Any], Callable[..., Any], Callable[..., Any]]:
    """The cached entry points, closures over ``stamp`` (module docs)."""

    @njit(cache=True)
    def count_afterstates(T, G, seats, counts):
        """How many legal actions ``seats[b]`` has in ``G[b]`` (-1: it is not to decide)."""
        _ = stamp
        size = 6 * T[T_LMAX] + 64
        ids = np.zeros(size, np.int64)
        weights = np.zeros(size, np.int64)
        scratch = np.zeros(size, np.int64)
        for b in range(G.shape[0]):
            if to_act(G[b]) != seats[b]:
                counts[b] = -1
            else:
                counts[b] = legal(G[b], T, ids, weights, scratch)

    @njit(cache=True)
    def fill_afterstates(
        T,
        Q,
        G,
        seats,
        offsets,
        actions,
        stops,
        raw,
        states,
    ):
        """The after-states of every ``G[b]`` into rows ``offsets[b]`` on; returns ``B``, or
        ``-1 - row`` when the after-state of that row broke a limit of the core (its state
        says which)."""
        _ = stamp
        size = 6 * T[T_LMAX] + 64
        ids = np.zeros(size, np.int64)
        weights = np.zeros(size, np.int64)
        scratch = np.zeros(size, np.int64)
        chosen = np.zeros(size, np.int64)
        pool = np.zeros(MAXC, np.int64)
        E = np.zeros(EV_BUFFER, np.int64)
        F = np.zeros((MAXFR, FRW), np.int64)
        R = np.zeros(1, np.uint64)
        D = np.zeros(G.shape[1], np.int64)
        W = np.zeros(G.shape[1], np.int64)
        for b in range(G.shape[0]):
            seat = seats[b]
            canonical_deal(G[b], D, W, T, E, F, R, seat, pool)
            m = legal(D, T, ids, weights, scratch)
            for i in range(m):
                chosen[i] = ids[i]
            row = offsets[b]
            for i in range(m):
                copy_into(W, D)
                apply(W, T, E, F, chosen[i], scratch)
                stop = settle(W, T, E, F, seat, ids, weights, scratch)
                if stop < 0:
                    states[row] = W
                    return -1 - row
                vk.encode(W, T, Q, seat, raw[row])
                actions[row] = chosen[i]
                stops[row] = stop
                states[row] = W
                row += 1
        return G.shape[0]

    @njit(cache=True)
    def count_chance(T, G, seats, counts):
        """How many outcomes the chance event of each ``G[b]`` has as ``seats[b]`` weighs it
        (-1: ``G[b]`` awaits no chance)."""
        _ = stamp
        for b in range(G.shape[0]):
            if to_act(G[b]) != CHANCE:
                counts[b] = -1
            else:
                counts[b] = chance_count(G[b], T, seats[b])

    @njit(cache=True)
    def expand_chance(
        T,
        Q,
        G,
        seats,
        offsets,
        probabilities,
        stops,
        raw,
        states,
    ):
        """The outcomes of the chance event of every ``G[b]`` as ``seats[b]`` weighs them
        (:func:`chance_outcome`), each followed by every forced step, into rows
        ``offsets[b]`` on: the probability, the stop, the observation of ``seats[b]`` and
        the state.  Returns ``B``, or ``-1 - row`` when that row broke a limit of the
        core."""
        _ = stamp
        size = 6 * T[T_LMAX] + 64
        ids = np.zeros(size, np.int64)
        weights = np.zeros(size, np.int64)
        scratch = np.zeros(size, np.int64)
        E = np.zeros(EV_BUFFER, np.int64)
        F = np.zeros((MAXFR, FRW), np.int64)
        W = np.zeros(G.shape[1], np.int64)
        for b in range(G.shape[0]):
            seat = seats[b]
            start = offsets[b]
            total = 0.0
            for row in range(start, offsets[b + 1]):
                copy_into(W, G[b])
                probabilities[row] = chance_outcome(W, T, E, F, seat, row - start, scratch)
                total += probabilities[row]
                stop = settle(W, T, E, F, seat, ids, weights, scratch)
                states[row] = W
                if stop < 0:
                    return -1 - row
                stops[row] = stop
                vk.encode(W, T, Q, seat, raw[row])
            for row in range(start, offsets[b + 1]):
                probabilities[row] /= total
        return G.shape[0]

    return count_afterstates, fill_afterstates, count_chance, expand_chance


count_afterstates, fill_afterstates, count_chance, expand_chance = _entry_points(_STAMP)
