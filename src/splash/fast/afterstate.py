"""The after-states of many Splash & Bash decisions at once, on the compiled core.

:class:`FastAfterstates` is the batched form of
:func:`splash.games.bash.afterstate.afterstates`, with the same definition (the module docs
there): for each position of a batch, the canonical deal of the other hands (the same
generator, seed and order of cards, so the same hands), then for each legal action of the
team to decide the action, every forced step and the stop (:class:`~splash.games.bash.
afterstate.Stop`), and the after-state's features (:class:`~splash.games.bash.afterstate.
AfterstateEncoding`, from the observation :func:`splash.fast.vec_kernel.encode` writes).

:meth:`FastAfterstates.chance` expands the chance event that follows an after-state
(:class:`ChanceBatch`), weighed as the deciding team may weigh it (BD12): each face of the
dice alike; a high tide card drawn (or stolen from another team) by the copies the team
cannot see (:func:`~splash.games.bash.hidden.unseen_cards`), never by the true deck; a low
tide card, whose deck everyone can count, by its copies.  A roll of several dice is
expanded whole while it has at most :data:`~splash.fast.after_kernel.ROLL_OUTCOMES`
outcomes.  Each outcome is followed by every forced step and stops as an after-state does.

The compiled loops are :mod:`splash.fast.after_kernel`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from splash.core.errors import OptionError
from splash.core.i18n import message
from splash.fast import kernel as k
from splash.fast.after_kernel import (
    count_afterstates,
    count_chance,
    expand_chance,
    fill_afterstates,
)
from splash.fast.encoding import encoding_table
from splash.fast.errors import FastLimitError
from splash.fast.tables import Tables
from splash.games.bash.afterstate import AfterstateEncoding

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float32]


@dataclass(frozen=True)
class AfterstateBatch:
    """The after-states of a batch of positions: those of position ``b`` are the rows
    ``offsets[b]`` to ``offsets[b + 1]``, in the order of the action ids."""

    offsets: IntArray
    """``B + 1`` row offsets."""
    actions: IntArray
    """The action id of each row."""
    stops: IntArray
    """Where each after-state stopped (the values of :class:`~splash.games.bash.afterstate.
    Stop`; ``Stop.AGAIN``: the team decides again, the caller searches on)."""
    features: FloatArray
    """One row of :class:`~splash.games.bash.afterstate.AfterstateEncoding` features each."""
    states: IntArray
    """The after-states as the core's state arrays (on the canonical deal)."""

    def rows(self, b: int) -> slice:
        """The rows of position ``b``."""
        return slice(int(self.offsets[b]), int(self.offsets[b + 1]))


@dataclass(frozen=True)
class ChanceBatch:
    """The outcomes of the chance event of a batch of after-states: those of after-state
    ``b`` are the rows ``offsets[b]`` to ``offsets[b + 1]``."""

    offsets: IntArray
    """``B + 1`` row offsets."""
    probabilities: npt.NDArray[np.float64]
    """Each outcome's probability as the team sees it; those of one after-state sum to 1."""
    stops: IntArray
    """Where each outcome stopped after its forced steps (:class:`~splash.games.bash.
    afterstate.Stop`; ``Stop.AGAIN``: the team itself decides next)."""
    features: FloatArray
    """One row of :class:`~splash.games.bash.afterstate.AfterstateEncoding` features each."""
    states: IntArray
    """The state after each outcome and its forced steps."""


class FastAfterstates:
    """The batched after-states of one configuration (module docs).  A position whose
    after-state breaks a fixed limit of the core raises :class:`FastLimitError`, its index
    in the batch in the place of a seed."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.encoding = AfterstateEncoding(tables.game)
        self.Q = encoding_table(self.encoding.encoding, tables)

    def __call__(
        self, states: IntArray, seats: Sequence[int] | IntArray | None = None
    ) -> AfterstateBatch:
        """The after-states of ``states`` (the core's state arrays, one per row, or one
        array) for ``seats`` (one per row; ``None``: the team to decide in each).  A seat
        that is not to decide is refused with an :class:`OptionError`."""
        G = np.ascontiguousarray(np.atleast_2d(states), dtype=np.int64)
        width = k.state_size(self.tables.lmax)
        if G.ndim != 2 or G.shape[1] != width:
            raise OptionError(
                "states",
                list(G.shape),
                message("a state array of this game has {size} entries", size=width),
            )
        B = G.shape[0]
        if seats is None:
            chosen = np.array([k.to_act(G[b]) for b in range(B)], dtype=np.int64)
        else:
            # A copy: a read-only view is another type to numba, compiled again.
            chosen = np.broadcast_to(np.asarray(seats, np.int64), (B,)).copy()
        T = self.tables.T
        teams = int(T[k.T_TEAMS])
        counts = np.zeros(B, np.int64)
        count_afterstates(T, G, chosen, counts)
        for b in range(B):
            if counts[b] < 0 or not 0 <= chosen[b] < teams:
                raise OptionError("seats", int(chosen[b]), message("is not the team to decide"))
        offsets = np.zeros(B + 1, np.int64)
        np.cumsum(counts, out=offsets[1:])
        n = int(offsets[-1])
        actions = np.zeros(n, np.int64)
        stops = np.zeros(n, np.int64)
        raw = np.zeros((n, self.encoding.encoding.layout.size), np.float32)
        out = np.zeros((n, G.shape[1]), np.int64)
        done = fill_afterstates(T, self.Q, G, chosen, offsets, actions, stops, raw, out)
        features = self._features(done, offsets, out, raw, np.repeat(chosen, counts))
        return AfterstateBatch(offsets, actions, stops, features, out)

    def _features(
        self, done: int, offsets: IntArray, out: IntArray, raw: FloatArray, seats: IntArray
    ) -> FloatArray:
        """The features of the rows a compiled loop filled (``raw``: the observations of
        ``seats``, one per row), or its :class:`FastLimitError` (``done``: ``-1 - row``)."""
        if done < 0:
            row = -1 - int(done)
            b = int(np.searchsorted(offsets, row, side="right")) - 1
            raise FastLimitError(b, int(out[row, k.S_ERR]))
        observations = self.encoding.encoding.layout.normalise(raw)
        features: FloatArray = self.encoding.features(observations, seats)
        return features.reshape(raw.shape[0], -1)

    def chance(self, states: IntArray, seats: int | Sequence[int] | IntArray) -> ChanceBatch:
        """The outcomes of the chance event that each of ``states`` (after-states that stop
        at chance) awaits, as ``seats`` (one per row, or one) weigh them (module docs).  A
        state that awaits no chance is refused with an :class:`OptionError`."""
        G = np.ascontiguousarray(np.atleast_2d(states), dtype=np.int64)
        B = G.shape[0]
        chosen = np.broadcast_to(np.asarray(seats, np.int64), (B,)).copy()
        counts = np.zeros(B, np.int64)
        count_chance(self.tables.T, G, chosen, counts)
        if (counts < 0).any():
            raise OptionError("states", int(np.argmax(counts < 0)), message("awaits no chance"))
        offsets = np.zeros(B + 1, np.int64)
        np.cumsum(counts, out=offsets[1:])
        n = int(offsets[-1])
        probabilities = np.zeros(n, np.float64)
        stops = np.zeros(n, np.int64)
        raw = np.zeros((n, self.encoding.encoding.layout.size), np.float32)
        out = np.zeros((n, G.shape[1]), np.int64)
        done = expand_chance(
            self.tables.T, self.Q, G, chosen, offsets, probabilities, stops, raw, out
        )
        features = self._features(done, offsets, out, raw, np.repeat(chosen, counts))
        return ChanceBatch(offsets, probabilities, stops, features, out)


__all__ = ["AfterstateBatch", "ChanceBatch", "FastAfterstates"]
