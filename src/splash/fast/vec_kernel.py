"""B Splash & Bash games stepped together for a vector environment, compiled with numba.

One call of :data:`vec_step` takes one action of the learning team in each of ``B`` games
(rows of ``G``), plays the other teams (random, or the compiled greedy bot) and chance until
that team's next decision or the end, and writes each game's observation and action mask.
The observation is :class:`splash.games.bash.encoding.BashEncoding`'s vector, built from the
state array with the block offsets of an encoding table ``Q`` (see
:func:`splash.fast.encoding.encoding_table`).

The rules are :mod:`splash.fast.kernel`'s functions.  numba's disk cache checks only the
file of the function it loads, so the cached entry points here are closures over a digest
of ``kernel.py``: a change there changes the digest, hence the cache key, and the entry
points are compiled again instead of running stale copies of the kernel.  The helpers are
compiled into the entry points and are not cached on their own.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from splash.fast import kernel as k
from splash.fast.kernel import (
    AW_WINDOW,
    B_DECK,
    B_DISC,
    B_FIN,
    B_HAND,
    B_LANE,
    B_OBS,
    B_PLAYED,
    B_S,
    B_WIN,
    BOARD,
    CHANCE,
    ERR_LIST,
    EV_BUFFER,
    FRW,
    HELM,
    MAXC,
    MAXCP,
    MAXFR,
    POLICY_GREEDY,
    Q_DISCARD,
    S_ACTIVE,
    S_AW,
    S_AWA,
    S_DICE,
    S_ERR,
    S_FREE,
    S_NDICE,
    S_NRER,
    S_OVER,
    S_PEND,
    S_QKIND,
    S_RER,
    S_SKIP,
    S_TEAM,
    S_TURNS,
    T_CP,
    T_FACES,
    T_LEN,
    T_LMAX,
    T_NA,
    T_NCARD,
    T_NCP,
    T_TEAMS,
    apply,
    choose,
    greedy_choose,
    hand_size,
    legal,
    new_work,
    roll_value,
    to_act,
    total_of,
)

# ----- the encoding table (Q): where each block of the observation starts ----------------
(
    Q_SEAT,
    Q_TO_ACT,
    Q_TURN_TEAM,
    Q_ACTIVE,
    Q_TURN,
    Q_PIECES,
    Q_OBST,
    Q_DICE,
    Q_RER,
    Q_ROLL,
    Q_FREE,
    Q_SKIP,
    Q_AWAIT,
    Q_HAND,
    Q_HSIZES,
    Q_DSIZES,
    Q_DISC,
    Q_PLAYED,
    Q_WINNER,
    Q_TERMINAL,
) = range(20)
Q_SIZE = 20
"""The observation's length."""
Q_PSIZE = 21
"""Entries per piece."""
Q_PFEAT = 22
"""Where a piece's checkpoint one-hot starts."""
Q_NHAND = 23
"""Kinds of card of the hand deck."""
Q_NDECK = 24
Q_DECK = 25  # 2: the core's deck index of the encoding's deck i
Q_DISCOFF = 27  # 2: where deck i's cards start in the discards block
Q_LANESTART = 29  # 3: where each lane's squares start in the obstacles block
Q_AWIDX = 32  # 12: the awaiting entry of each awaited kind (-1: none)
Q_WINIDX = 44  # 5: the awaiting entry of each window code
Q_REACT = 49  # 2: the awaiting entry of a lifebuoy, a discard question
Q_LEN = 51

# ----- what a step says of each game ------------------------------------------------------
ST_OK, ST_RANGE, ST_ILLEGAL = 0, 1, 2
"""``status[b]``: the action was applied; out of the indices; not legal now."""

_UNCACHED: dict[str, Any] = {"_nrt": False}
_helper = njit(**_UNCACHED)
_KERNEL_STAMP = int(hashlib.sha256(Path(k.__file__).read_bytes()).hexdigest()[:15], 16)


@_helper
def encode(G, T, Q, seat, out):
    """Team ``seat``'s observation of ``G`` into ``out`` (BashEncoding's layout)."""
    for i in range(out.shape[0]):
        out[i] = 0.0
    n = T[T_TEAMS]
    out[Q[Q_SEAT] + seat] = 1.0
    actor = to_act(G)
    if actor >= 0:
        out[Q[Q_TO_ACT] + actor] = 1.0
    out[Q[Q_TURN_TEAM] + G[S_TEAM]] = 1.0
    out[Q[Q_ACTIVE] + G[S_ACTIVE]] = 1.0
    out[Q[Q_TURN]] = G[S_TURNS]
    psize = Q[Q_PSIZE]
    for p in range(4 * n):
        base = Q[Q_PIECES] + p * psize
        if G[BOARD + B_FIN + p] != 0:
            out[base + 1] = 1.0
            out[base + 8] = 1.0
            continue
        lane = G[BOARD + B_LANE + p]
        if lane < 0:
            continue
        s = G[BOARD + B_S + p]
        length = T[T_LEN + lane]
        square = s % length
        out[base] = 1.0
        out[base + 2 + lane] = 1.0
        out[base + 5] = s
        out[base + 6] = s // length
        out[base + 7] = square
        out[base + 8] = s / total_of(T, lane, p % 4 == HELM)
        line = 0
        for i in range(T[T_NCP + lane]):
            if T[T_CP + lane * MAXCP + i] <= square:
                line = i
        out[base + Q[Q_PFEAT] + line] = 1.0
    lmax = T[T_LMAX]
    for lane in range(3):
        for square in range(T[T_LEN + lane]):
            if G[BOARD + B_OBS + lane * lmax + square] != 0:
                out[Q[Q_OBST] + Q[Q_LANESTART + lane] + square] = 1.0
    for i in range(G[S_NDICE]):
        out[Q[Q_DICE] + G[S_DICE + i] - 1] += 1.0
    for i in range(G[S_NRER]):
        out[Q[Q_RER] + G[S_RER + i] - 1] += 1.0
    out[Q[Q_ROLL]] = roll_value(G)
    out[Q[Q_FREE]] = 1.0 if G[S_FREE] != 0 else 0.0
    out[Q[Q_SKIP]] = 1.0 if G[S_SKIP] != 0 else 0.0
    if G[S_PEND] != 0:
        entry = Q[Q_REACT + (1 if G[S_QKIND] == Q_DISCARD else 0)]
    elif G[S_AW] == AW_WINDOW:
        entry = Q[Q_WINIDX + G[S_AWA]]
    else:
        entry = Q[Q_AWIDX + G[S_AW]]
    if entry >= 0:
        out[Q[Q_AWAIT] + entry] = 1.0
    for c in range(Q[Q_NHAND]):
        out[Q[Q_HAND] + c] = G[BOARD + B_HAND + seat * MAXC + c]
    for t in range(n):
        out[Q[Q_HSIZES] + t] = hand_size(G, t)
    for i in range(Q[Q_NDECK]):
        d = Q[Q_DECK + i]
        total = 0
        for c in range(T[T_NCARD + d]):
            total += G[BOARD + B_DECK + d * MAXC + c]
            out[Q[Q_DISC] + Q[Q_DISCOFF + i] + c] = G[BOARD + B_DISC + d * MAXC + c]
        out[Q[Q_DSIZES] + i] = total
    for t in range(n):
        if G[BOARD + B_PLAYED + t] != 0:
            out[Q[Q_PLAYED] + t] = 1.0
    if G[BOARD + B_WIN] >= 0:
        out[Q[Q_WINNER] + G[BOARD + B_WIN]] = 1.0
    out[Q[Q_TERMINAL]] = 1.0 if G[S_OVER] != 0 else 0.0


@_helper
def mask_of(G, T, seat, ids, weights, scratch, row):
    """The legal ids of ``seat`` as flags in ``row`` (all 0 when it is not to act)."""
    for i in range(row.shape[0]):
        row[i] = 0
    if to_act(G) != seat:
        return 0
    m = legal(G, T, ids, weights, scratch)
    for i in range(m):
        row[ids[i]] = 1
    return m


@_helper
def record(log, alen, b, action):
    """Append ``action`` to game ``b``'s episode log (when there is one)."""
    if log.shape[1] > 0:
        if alen[b] < log.shape[1]:
            log[b, alen[b]] = action
        alen[b] += 1


@_helper
def play_others(G, T, E, F, R, seat, P, W, X, ids, weights, scratch, log, alen, b):
    """Chance and the other teams (``P[t]``: random or greedy) until ``seat`` is to act or
    the game is over."""
    while G[S_OVER] == 0 and G[S_ERR] == 0:
        actor = to_act(G)
        if actor == seat:
            return
        m = legal(G, T, ids, weights, scratch)
        if m == 0:
            G[S_ERR] = ERR_LIST
            return
        action = -1
        # ``W is None`` (random opponents) is known when compiling: no greedy code then.
        if W is not None:
            if actor >= 0 and P[actor] == POLICY_GREEDY:
                action = greedy_choose(
                    G,
                    T,
                    E,
                    F,
                    R,
                    W,
                    actor,
                    ids,
                    m,
                    weights,
                    scratch,
                    X.D,
                    X.S,
                    X.A0,
                    X.A1,
                    X.I1,
                    X.A2,
                    X.I2,
                    X.A3,
                    X.I3,
                )
        if action < 0:
            action = choose(R, ids, weights, m, actor == CHANCE)
        record(log, alen, b, action)
        apply(G, T, E, F, action, scratch)


@_helper
def seat_return(G, T, seat):
    """``seat``'s return at the end: +1 to the winner, -1/(n-1) to the others, 0 at the cap."""
    winner = G[BOARD + B_WIN]
    if winner < 0:
        return 0.0
    if winner == seat:
        return 1.0
    return -1.0 / (T[T_TEAMS] - 1)


def _entry_points(stamp: int) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """The cached entry points, closures over ``stamp`` (module docs)."""

    @njit(cache=True)
    def vec_step(
        T,
        G0,
        G,
        R,
        actions,
        fresh,
        seat,
        illegal_reward,
        P,
        W,
        Q,
        obs,
        mask,
        rewards,
        done,
        status,
        log,
        alen,
    ):
        """One step of every game ``b``: a new game from ``G0`` where ``fresh[b]`` (the
        action is ignored), else ``actions[b]`` for ``seat`` then the others until its next
        decision; ``done[b]`` at the end or after an action that is not legal
        (``status[b]``, reward ``illegal_reward``).  Returns ``B``, or ``-1 - b`` when game
        ``b`` broke a limit of the core (its ``G[S_ERR]`` says which)."""
        _ = stamp
        B = G.shape[0]
        E = np.zeros(EV_BUFFER, np.int64)
        F = np.zeros((MAXFR, FRW), np.int64)
        size = 6 * T[T_LMAX] + 64
        ids = np.zeros(size, np.int64)
        weights = np.zeros(size, np.int64)
        scratch = np.zeros(size, np.int64)
        X = new_work(G0.shape[0], size, T[T_FACES])
        for b in range(B):
            Gb = G[b]
            Rb = R[b]
            status[b] = ST_OK
            rewards[b] = 0.0
            done[b] = False
            if fresh[b]:
                Gb[:] = G0
                alen[b] = 0
                play_others(Gb, T, E, F, Rb, seat, P, W, X, ids, weights, scratch, log, alen, b)
            else:
                action = actions[b]
                if action < 0 or action >= T[T_NA]:
                    status[b] = ST_RANGE
                else:
                    found = False
                    if to_act(Gb) == seat:
                        m = legal(Gb, T, ids, weights, scratch)
                        for i in range(m):
                            if ids[i] == action:
                                found = True
                    if not found:
                        status[b] = ST_ILLEGAL
                    else:
                        record(log, alen, b, action)
                        apply(Gb, T, E, F, action, scratch)
                        play_others(
                            Gb, T, E, F, Rb, seat, P, W, X, ids, weights, scratch, log, alen, b
                        )
                        if Gb[S_OVER] != 0:
                            done[b] = True
                            rewards[b] = seat_return(Gb, T, seat)
                if status[b] != ST_OK:
                    done[b] = True
                    rewards[b] = illegal_reward
            if Gb[S_ERR] != 0:
                return -1 - b
            encode(Gb, T, Q, seat, obs[b])
            mask_of(Gb, T, seat, ids, weights, scratch, mask[b])
        return B

    @njit(cache=True)
    def observe(T, Q, G, seat, obs, mask):
        """``seat``'s observation and mask of the state array ``G`` (for checks)."""
        _ = stamp
        size = 6 * T[T_LMAX] + 64
        ids = np.zeros(size, np.int64)
        weights = np.zeros(size, np.int64)
        scratch = np.zeros(size, np.int64)
        encode(G, T, Q, seat, obs)
        return mask_of(G, T, seat, ids, weights, scratch, mask)

    return vec_step, observe


vec_step, observe = _entry_points(_KERNEL_STAMP)
