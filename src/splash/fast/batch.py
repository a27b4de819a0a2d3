"""Batched entry points of the compiled core: N games from seeds, K playouts from a state.

Each game's generator is seeded from that game's seed alone, so a game is the same in any
batch, in any process.  The outputs are numpy arrays, one row (or one slice of a flat
array) per game, for the column-wise record builder of :mod:`splash.sim.fast_engine`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeVar, cast

import numpy as np
import numpy.typing as npt

from splash.fast import kernel as k
from splash.fast.errors import FastLimitError

if TYPE_CHECKING:
    from splash.fast.tables import Tables
    from splash.games.bash import BashState

__all__ = ["FastLimitError", "Games", "play_games", "playouts"]

IntArray = npt.NDArray[np.int64]

FloatArray = npt.NDArray[np.float64]
ArrayT = TypeVar("ArrayT", bound=npt.NDArray[np.generic])
ActionArray = npt.NDArray[np.int32]
TraceArray = npt.NDArray[np.float32]
ACTIONS_PER_GAME = 1200
"""First guess of the actions a game takes (2 teams average about 1,070); the buffers grow
from what the games played so far took."""
ROWS_PER_GAME = 800
"""First guess of the trace rows a game takes."""


@dataclass(frozen=True)
class Games:
    """What the core played: per game ``g``, its actions ``actions[action_offsets[g]:
    action_offsets[g + 1]]``, its trace rows ``trace[trace_offsets[g]:trace_offsets[g + 1]]``
    (one float per team each, flat) and its counts ``counts[g]`` (the ``C`` array of the
    kernel, then the winner (-1: none) and the turns)."""

    seeds: IntArray
    actions: ActionArray
    action_offsets: IntArray
    trace: TraceArray
    trace_offsets: IntArray
    counts: IntArray
    legal: IntArray
    """With ``verify``: the legal ids before each action, ``legal[legal_offsets[i]:
    legal_offsets[i + 1]]`` for the action at flat position ``i``."""
    legal_offsets: IntArray
    finals: IntArray
    """With ``verify``: each game's final state array."""

    def actions_of(self, g: int) -> ActionArray:
        """The action log of game ``g``."""
        return self.actions[self.action_offsets[g] : self.action_offsets[g + 1]]


def _grow(array: ArrayT, used: int, done: int, n: int) -> ArrayT:
    """``array`` with room for the ``n - done`` games left at the rate of the ``done`` played
    (``used`` entries), and a margin."""
    rate = used / max(1, done)
    size = max(2 * array.shape[0] if done == 0 else 0, int(used + 1.25 * rate * (n - done)) + 4096)
    bigger = cast(ArrayT, np.empty_like(array, shape=size))
    bigger[:used] = array[:used]
    return bigger


class Start(Protocol):
    """What games are played from: the core's tables and an initial state (a
    :class:`~splash.fast.tables.Tables`, or a :class:`~splash.fast.records.RecordPlan`)."""

    @property
    def T(self) -> IntArray:
        """The core's tables."""
        ...

    @property
    def initial(self) -> IntArray:
        """The initial state as the core's array."""
        ...


def play_games(
    tables: Start,
    seeds: Sequence[int] | IntArray,
    *,
    verify: bool = False,
    policies: IntArray | None = None,
    weights: FloatArray | None = None,
) -> Games:
    """Play one game per seed, chance by its weights; team ``t`` plays ``policies[t]``
    (:data:`~splash.fast.kernel.POLICY_RANDOM`, the default for all, or
    :data:`~splash.fast.kernel.POLICY_GREEDY` with the kernel's ``weights``, see
    :func:`splash.fast.greedy.weight_array`)."""
    seed_array = np.asarray(seeds, dtype=np.int64)
    n = seed_array.shape[0]
    teams = int(tables.T[k.T_TEAMS])
    G0 = tables.initial
    P = np.zeros(teams, np.int64) if policies is None else np.asarray(policies, np.int64)
    if P.shape[0] != teams:
        raise ValueError(f"{P.shape[0]} policies for {teams} teams")
    greedy = bool((P == k.POLICY_GREEDY).any())
    if greedy and weights is None:
        raise ValueError("greedy policies need their weights")
    # Without a greedy team the kernel is given no weights and compiles the random play alone.
    W = np.asarray(weights, np.float64) if greedy else None
    alog = np.empty(max(1, n) * ACTIONS_PER_GAME + 4096, np.int32)
    tbuf = np.empty((max(1, n) * ROWS_PER_GAME + 4096) * teams, np.float32)
    aoff = np.zeros(n + 1, np.int64)
    toff = np.zeros(n + 1, np.int64)
    counts = np.zeros((n, k.C_SIZE + 2), np.int64)
    finals = np.zeros((n if verify else 0, G0.shape[0]), np.int64)
    lids = np.zeros(alog.shape[0] * 4 if verify else 0, np.int64)
    lofs = np.zeros(alog.shape[0] + 1 if verify else 0, np.int64)
    start = 0
    while True:
        done = int(
            k.play_batch(
                tables.T,
                G0,
                seed_array,
                start,
                alog,
                aoff,
                tbuf,
                toff,
                counts,
                finals,
                lids,
                lofs,
                P,
                W,
            )
        )
        if done < 0:
            raise FastLimitError(int(seed_array[-1 - done]), int(counts[-1 - done, k.C_SIZE]))
        if done == n:
            break
        start = done
        used = int(aoff[done])
        alog = _grow(alog, used, done, n)
        tbuf = _grow(tbuf, int(toff[done]), done, n)
        if verify:
            lids = _grow(lids, int(lofs[used]), done, n)
            bigger = np.zeros(alog.shape[0] + 1, np.int64)
            bigger[: used + 1] = lofs[: used + 1]
            lofs = bigger
    total = int(aoff[n])
    return Games(
        seeds=seed_array,
        actions=alog[:total],
        action_offsets=aoff,
        trace=tbuf[: int(toff[n])],
        trace_offsets=toff,
        counts=counts,
        legal=lids[: int(lofs[total])].copy() if verify else lids,
        legal_offsets=lofs[: total + 1].copy() if verify else lofs,
        finals=finals,
    )


def playouts(
    tables: Tables, state: BashState | IntArray, seeds: Sequence[int] | IntArray
) -> FloatArray:
    """One random playout from ``state`` per seed: ``result[k, t]`` is team ``t``'s return
    (+1 to the winner, -1/(n-1) to the others, 0 for all at the turn cap)."""
    from splash.fast.convert import to_arrays
    from splash.games.bash import BashState

    G0 = to_arrays(tables, state) if isinstance(state, BashState) else np.asarray(state, np.int64)
    seed_array = np.asarray(seeds, dtype=np.int64)
    results = np.zeros((seed_array.shape[0], int(tables.T[k.T_TEAMS])), np.float64)
    done = int(k.playouts(tables.T, G0, seed_array, results))
    if done < 0:
        raise FastLimitError(int(seed_array[-1 - done]), int(results[-1 - done, 0]))
    return results
