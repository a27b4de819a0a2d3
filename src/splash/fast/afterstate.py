"""The after-states of many Splash & Bash decisions at once, on the compiled core.

:class:`FastAfterstates` is the batched form of
:func:`splash.games.bash.afterstate.afterstates`, with the same definition (the module docs
there): for each position of a batch, the canonical deal of the other hands (the same
generator, seed and order of cards, so the same hands), then for each legal action of the
team to decide the action, every forced step and the stop (:class:`~splash.games.bash.
afterstate.Stop`), and the after-state's features (:class:`~splash.games.bash.afterstate.
AfterstateEncoding`, from the observation :func:`splash.fast.vec_kernel.encode` writes).

The compiled loop is :mod:`splash.fast.after_kernel`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from splash.core.errors import OptionError
from splash.core.i18n import message
from splash.fast import kernel as k
from splash.fast.after_kernel import count_afterstates, fill_afterstates
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
            chosen = np.ascontiguousarray(np.broadcast_to(np.asarray(seats, np.int64), (B,)))
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
        if done < 0:
            row = -1 - int(done)
            b = int(np.searchsorted(offsets, row, side="right")) - 1
            raise FastLimitError(b, int(out[row, k.S_ERR]))
        observations = self.encoding.encoding.layout.normalise(raw)
        rows_seats = np.repeat(chosen, counts)
        features = self.encoding.features(observations, rows_seats)
        return AfterstateBatch(offsets, actions, stops, features.reshape(n, -1), out)


__all__ = ["AfterstateBatch", "FastAfterstates"]
