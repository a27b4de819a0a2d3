"""Choosing a move with a learned value: ply 1 and ply 2 over after-states, on the compiled
core (BD12).

**Ply 1** (:meth:`Search.leaves`, :meth:`Search.ply1`): the after-states of the team's legal
actions (:class:`~splash.fast.afterstate.FastAfterstates`).  Where the team decides again
with no chance between (``Stop.AGAIN``), its after-states there are made in turn and the
best is taken (max): the *leaves* of a decision are the after-states that stop before
chance, before another team's choice, or at the end, each with the first action that leads
to it.  The search goes through at most :data:`AGAIN_DEPTH` such decisions, and through at
most :data:`AGAIN_WIDTH` of a decision's after-states where the team decides again, the best
by the network's value of that after-state (pruning: a card that places an obstacle after
another placement would give 92 times 92 leaves; the rest are dropped).  A leaf is worth the
network's value (the team's probability of winning), or at the end 1 for a win, 0 for a loss
and ``1 / teams`` at the turn cap.  The move is the first action of the best leaf.

**Ply 2** (:meth:`Search.ply2`): the :data:`PLY2_WIDTH` best leaves by their ply-1 value are
kept (pruning: an obstacle placement offers about 91 squares, of which only the 8 best by
ply 1 are looked at again; a lane choice or a card window rarely offers more than 8, and
loses nothing).  Each kept leaf that stops before chance is worth the expectation over that
chance event (:meth:`~splash.fast.afterstate.FastAfterstates.chance`: a roll by its exact
probabilities, a high tide card by the copies the team cannot see, never by the true deck),
where each outcome is worth the team's best ply-1 leaf if the team decides next, and the
value of the state otherwise (another team decides, the next chance event, the end).  A kept
leaf that stops before another team's choice, or at the end, keeps its ply-1 value.  The
move is the first action of the best kept leaf.

Every after-state is made on the canonical deal of the team's view
(:mod:`splash.games.bash.afterstate`), and the chance outcomes read only that view, so the
choice is a function of what the team may see: dealing the other hands and the deck again
changes nothing.  Of equal values, ply 1 takes the first leaf and ply 2 the lowest action id.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from splash.fast import kernel as k
from splash.fast.afterstate import AfterstateBatch, FastAfterstates
from splash.games.bash.afterstate import Stop

if TYPE_CHECKING:
    from splash.learn.td import ValueNet

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

PLY2_WIDTH = 8
"""How many leaves, the best by their ply-1 value, ply 2 expands (module docs)."""
AGAIN_DEPTH = 4
"""How many consecutive decisions of the same team ply 1 searches through; a leaf deeper
than that is valued as it is."""
AGAIN_WIDTH = 12
"""How many of a decision's after-states where the team decides again ply 1 searches
through: all when there are at most this many, else the best by the network's value of
the after-state itself (module docs)."""


@dataclass(frozen=True)
class Leaves:
    """The ply-1 leaves of a batch of decisions (module docs), grouped by decision: those of
    decision ``b`` are the rows ``offsets[b]`` to ``offsets[b + 1]``.  Their features and
    states stay in the batches of after-states they were made in, and are gathered on
    demand (:meth:`features`, :meth:`states`)."""

    offsets: IntArray
    """``B + 1`` row offsets."""
    first: IntArray
    """The action id of the decision that leads to each leaf."""
    stops: IntArray
    """Where each leaf stopped (:class:`~splash.games.bash.afterstate.Stop`)."""
    values: FloatArray
    """Each leaf's ply-1 value for the deciding team."""
    levels: IntArray
    """The batch of :attr:`batches` each leaf is in."""
    at: IntArray
    """Each leaf's row in its batch."""
    batches: tuple[AfterstateBatch, ...]
    """The after-states made, one batch per decision of the same team searched through."""

    def best(self) -> IntArray:
        """The row of the best leaf of each decision (the first of equal ones)."""
        starts = self.offsets[:-1]
        return np.array(
            [
                int(start) + int(np.argmax(self.values[start:stop]))
                for start, stop in zip(starts, self.offsets[1:], strict=True)
            ],
            np.int64,
        )

    def features(self, rows: IntArray) -> npt.NDArray[np.float32]:
        """The features of the leaves ``rows``."""
        width = self.batches[0].features.shape[1]
        out = np.empty((rows.size, width), np.float32)
        for i, row in enumerate(rows):
            out[i] = self.batches[self.levels[row]].features[self.at[row]]
        return out

    def states(self, rows: IntArray) -> IntArray:
        """The state arrays of the leaves ``rows``."""
        out = np.empty((rows.size, self.batches[0].states.shape[1]), np.int64)
        for i, row in enumerate(rows):
            out[i] = self.batches[self.levels[row]].states[self.at[row]]
        return out


def end_values(states: IntArray, seats: IntArray, teams: int) -> FloatArray:
    """Each finished state's reward for its seat: 1 for a win, 0 for a loss, ``1 / teams``
    at the turn cap."""
    winners = states[:, k.BOARD + k.B_WIN]
    return np.where(winners < 0, 1.0 / teams, (winners == seats).astype(np.float64))


class Search:
    """Ply 1 and ply 2 of one configuration's compiled core with one value network (module
    docs)."""

    def __init__(self, fast: FastAfterstates, net: ValueNet) -> None:
        self.fast = fast
        self.net = net
        self.teams = int(fast.tables.T[k.T_TEAMS])

    def value(
        self,
        features: npt.NDArray[np.float32],
        stops: IntArray,
        states: IntArray,
        rows: IntArray,
        seats: IntArray,
    ) -> FloatArray:
        """The value of the after-states ``states[rows]`` (``features``, ``stops`` and
        ``seats`` one per row): the reward at the end, the network's elsewhere."""
        out = np.empty(stops.size, np.float64)
        end = stops == int(Stop.END)
        if end.any():
            out[end] = end_values(states[rows[end]], seats[end], self.teams)
        if not end.all():
            out[~end] = self.net.values(features[~end])
        return out

    def leaves(self, states: IntArray, seats: IntArray) -> Leaves:
        """The ply-1 leaves of the decisions ``states`` (one row each) of ``seats``."""
        seats = np.asarray(seats, np.int64)
        roots = np.arange(states.shape[0], dtype=np.int64)
        firsts = np.full(states.shape[0], -1, np.int64)
        frontier = np.atleast_2d(states)
        batches: list[AfterstateBatch] = []
        parts: list[tuple[IntArray, ...]] = []
        found_values: list[FloatArray] = []
        for depth in range(AGAIN_DEPTH + 1):
            batch = self.fast(frontier, seats[roots])
            batches.append(batch)
            counts = np.diff(batch.offsets)
            row_roots = np.repeat(roots, counts)
            row_firsts = np.repeat(firsts, counts)
            row_firsts = np.where(row_firsts < 0, batch.actions, row_firsts)
            again = batch.stops == int(Stop.AGAIN)
            if depth == AGAIN_DEPTH:
                again[:] = False
            done = np.flatnonzero(~again)
            ahead = self.widest(batch, np.flatnonzero(again), row_roots)
            parts.append(
                (
                    row_roots[done],
                    row_firsts[done],
                    batch.stops[done],
                    np.full(done.size, depth, np.int64),
                    done,
                )
            )
            found_values.append(
                self.value(
                    batch.features[done],
                    batch.stops[done],
                    batch.states,
                    done,
                    seats[row_roots[done]],
                )
            )
            if not ahead.size:
                break
            frontier, roots, firsts = batch.states[ahead], row_roots[ahead], row_firsts[ahead]
        leaf_roots = np.concatenate([part[0] for part in parts])
        order = np.argsort(leaf_roots, kind="stable")
        offsets = np.zeros(states.shape[0] + 1, np.int64)
        np.cumsum(np.bincount(leaf_roots, minlength=states.shape[0]), out=offsets[1:])
        return Leaves(
            offsets,
            np.concatenate([part[1] for part in parts])[order],
            np.concatenate([part[2] for part in parts])[order],
            np.concatenate(found_values)[order],
            np.concatenate([part[3] for part in parts])[order],
            np.concatenate([part[4] for part in parts])[order],
            tuple(batches),
        )

    def widest(self, batch: AfterstateBatch, again: IntArray, roots: IntArray) -> IntArray:
        """The rows of ``again`` searched through: of each decision's (``roots``), all when
        at most :data:`AGAIN_WIDTH`, else the :data:`AGAIN_WIDTH` the network values
        highest (the first of equal ones)."""
        if not again.size:
            return again
        owners = roots[again]
        if np.bincount(owners).max() <= AGAIN_WIDTH:
            return again
        values = self.net.values(batch.features[again])
        order = np.lexsort((-values, owners))
        ranked = owners[order]
        rank = np.arange(order.size) - np.searchsorted(ranked, ranked, side="left")
        return np.sort(again[order[rank < AGAIN_WIDTH]])

    def ply1(self, state: IntArray, seat: int) -> int:
        """The action id ply 1 chooses for ``seat`` in ``state``."""
        leaves = self.leaves(np.atleast_2d(state), np.array([seat], np.int64))
        return int(leaves.first[leaves.best()[0]])

    def ply2(self, state: IntArray, seat: int, width: int = PLY2_WIDTH) -> int:
        """The action id ply 2 chooses for ``seat`` in ``state``, expanding the ``width``
        best leaves (module docs)."""
        leaves = self.leaves(np.atleast_2d(state), np.array([seat], np.int64))
        kept = np.argsort(-leaves.values, kind="stable")[:width]
        values = leaves.values[kept].copy()
        chance = leaves.stops[kept] == int(Stop.CHANCE)
        if chance.any():
            values[chance] = self.expectations(leaves.states(kept[chance]), seat)
        ties = kept[values == values.max()]
        return int(leaves.first[ties].min())

    def expectations(self, states: IntArray, seat: int) -> FloatArray:
        """The expected value for ``seat`` of the chance event each of ``states`` awaits,
        each outcome worth ``seat``'s best ply-1 leaf where it decides next, its value
        elsewhere."""
        outcomes = self.fast.chance(states, seat)
        n = outcomes.stops.size
        seats = np.full(n, seat, np.int64)
        worth = np.empty(n, np.float64)
        again = outcomes.stops == int(Stop.AGAIN)
        other = np.flatnonzero(~again)
        if other.size:
            worth[other] = self.value(
                outcomes.features[other],
                outcomes.stops[other],
                outcomes.states,
                other,
                seats[other],
            )
        if again.any():
            inner = self.leaves(outcomes.states[again], seats[again])
            worth[again] = inner.values[inner.best()]
        sums: FloatArray = np.add.reduceat(outcomes.probabilities * worth, outcomes.offsets[:-1])
        return sums


__all__ = ["AGAIN_DEPTH", "AGAIN_WIDTH", "PLY2_WIDTH", "Leaves", "Search", "end_values"]
