"""The compiled part of :mod:`splash.fast.afterstate`: the canonical deal, the forced steps
and the after-states of a batch of positions.

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
    B_HAND,
    BOARD,
    CHANCE,
    ERR_LIST,
    EV_BUFFER,
    FRW,
    MAXC,
    MAXFR,
    S_ERR,
    S_OVER,
    S_PEND,
    S_QKIND,
    S_QOPTS,
    S_QPIECE,
    S_QTEAM,
    T_LMAX,
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


def _entry_points(stamp: int) -> tuple[Callable[..., Any], Callable[..., Any]]:
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

    return count_afterstates, fill_afterstates


count_afterstates, fill_afterstates = _entry_points(_STAMP)
