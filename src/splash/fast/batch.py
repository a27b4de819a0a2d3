"""Batched entry points of the compiled core: N games from seeds, K playouts from a state.

Each game's generator is seeded from that game's seed alone, so a game is the same in any
batch, in any process.  The outputs are numpy arrays, one row (or one slice of a flat
array) per game, for the column-wise record builder of :mod:`splash.sim.fast_engine`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from splash.core.errors import SplashError
from splash.core.i18n import message
from splash.fast import kernel as k
from splash.fast.convert import to_arrays
from splash.fast.tables import IntArray, Tables
from splash.games.bash import BashState

FloatArray = npt.NDArray[np.float64]


class FastLimitError(SplashError):
    """A game broke a fixed limit of the compiled core (events in one action, chain depth)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        super().__init__(
            message("the fast core hit one of its limits in the game of seed {seed}", seed=seed)
        )


@dataclass(frozen=True)
class Games:
    """What the core played: per game ``g``, its actions ``actions[action_offsets[g]:
    action_offsets[g + 1]]``, its trace rows ``trace[trace_offsets[g]:trace_offsets[g + 1]]``
    (one float per team each, flat) and its counts ``counts[g]`` (the ``C`` array of the
    kernel, then the winner (-1: none) and the turns)."""

    seeds: IntArray
    actions: IntArray
    action_offsets: IntArray
    trace: FloatArray
    trace_offsets: IntArray
    counts: IntArray
    legal: IntArray
    """With ``verify``: the legal ids before each action, ``legal[legal_offsets[i]:
    legal_offsets[i + 1]]`` for the action at flat position ``i``."""
    legal_offsets: IntArray
    finals: IntArray
    """With ``verify``: each game's final state array."""

    def actions_of(self, g: int) -> IntArray:
        """The action log of game ``g``."""
        return self.actions[self.action_offsets[g] : self.action_offsets[g + 1]]


def _grow(array: npt.NDArray[np.generic]) -> npt.NDArray[np.generic]:
    bigger = np.zeros(max(16, 2 * array.shape[0]), array.dtype)
    bigger[: array.shape[0]] = array
    return bigger


def play_games(tables: Tables, seeds: Sequence[int] | IntArray, *, verify: bool = False) -> Games:
    """Play one random game (every seat random, chance by its weights) per seed."""
    seed_array = np.asarray(seeds, dtype=np.int64)
    n = seed_array.shape[0]
    teams = int(tables.T[k.T_TEAMS])
    G0 = tables.initial
    alog = np.zeros(max(1, n) * 1500, np.int64)
    tbuf = np.zeros(max(1, n) * 450 * teams, np.float64)
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
                tables.T, G0, seed_array, start, alog, aoff, tbuf, toff, counts, finals, lids, lofs
            )
        )
        if done < 0:
            raise FastLimitError(int(seed_array[-1 - done]))
        if done == n:
            break
        start = done
        alog = _grow(alog)
        tbuf = _grow(tbuf)
        if verify:
            lids = _grow(lids)
            bigger = np.zeros(alog.shape[0] + 1, np.int64)
            bigger[: lofs.shape[0]] = lofs
            lofs = bigger
    total = int(aoff[n])
    return Games(
        seeds=seed_array,
        actions=alog[:total].copy(),
        action_offsets=aoff,
        trace=tbuf[: int(toff[n])].copy(),
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
    G0 = to_arrays(tables, state) if isinstance(state, BashState) else np.asarray(state, np.int64)
    seed_array = np.asarray(seeds, dtype=np.int64)
    results = np.zeros((seed_array.shape[0], int(tables.T[k.T_TEAMS])), np.float64)
    done = int(k.playouts(tables.T, G0, seed_array, results))
    if done < 0:
        raise FastLimitError(int(seed_array[-1 - done]))
    return results
