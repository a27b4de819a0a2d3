"""Information-set MCTS on the compiled core: the whole search in one compiled call.

:func:`ismcts_decide` runs the search of :mod:`splash.bots.ismcts` (single-observer ISMCTS)
in :mod:`splash.fast.kernel` (section "information-set MCTS"): the determinizations (every
other team's hand redrawn from the cards the team cannot see, BD12), the tree, the chance
draws, the rollouts (random, the compiled greedy, or the greedy mixed with random actions)
and the evaluation where an iteration stops (the progress heuristic or the greedy
heuristic), all with the core's own generator seeded by one number.  The tree is compiled
too: measured, a Python tree calling the core once per iteration spends more time in the
calls than the compiled search spends in all its iterations.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from splash.fast import kernel as k
from splash.fast.errors import FastLimitError
from splash.fast.greedy import GreedySettings, weight_array
from splash.fast.tables import Tables

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

ROLLOUTS = {"random": k.ROLL_RANDOM, "greedy": k.ROLL_GREEDY, "none": k.ROLL_NONE}
"""The rollout policies: uniform random actions, the compiled greedy bot (a random action at
rate ``epsilon``), or none (the evaluation right after the expansion)."""
EVALUATIONS = {"progress": k.EVAL_PROGRESS, "greedy": k.EVAL_GREEDY}
"""How an iteration stopped by ``max_depth`` is scored (as :mod:`splash.bots.ismcts` does)."""


@dataclass(frozen=True)
class SearchSettings:
    """The search's settings; those of :class:`splash.bots.ismcts.IsmctsBot` keep its
    meaning.  ``epsilon``: the rate of random actions in greedy rollouts; ``widening``:
    progressive widening (a node tries a new action only while its tried ones are fewer
    than ``widening * sqrt(visits) + 1``; 0: every action first, as the reference);
    ``greedy``: the rollouts' and the evaluation's greedy settings."""

    iterations: int = 1000
    exploration: float = 0.7
    max_depth: int = 12
    progress_scale: float = 20.0
    rollout: str = "random"
    epsilon: float = 0.0
    evaluation: str = "progress"
    widening: float = 0.0
    greedy: GreedySettings = field(default_factory=lambda: GreedySettings(depth=1))

    def array(self) -> FloatArray:
        """The kernel's ``Q``."""
        Q = np.zeros(k.IQ_SIZE, np.float64)
        Q[k.IQ_ITER] = self.iterations
        Q[k.IQ_EXPLORE] = self.exploration
        Q[k.IQ_DEPTH] = self.max_depth
        Q[k.IQ_SCALE] = self.progress_scale
        Q[k.IQ_ROLLOUT] = ROLLOUTS[self.rollout]
        Q[k.IQ_EPS] = self.epsilon
        Q[k.IQ_EVAL] = EVALUATIONS[self.evaluation]
        Q[k.IQ_WIDEN] = self.widening
        return Q


@dataclass(frozen=True)
class Decision:
    """The search's choice (an action id) and, per legal action of the root (in id order),
    its visits and mean value for the team to act."""

    action: int
    ids: IntArray
    visits: IntArray
    means: FloatArray


def ismcts_decide(
    tables: Tables,
    G: IntArray,
    seed: int,
    settings: SearchSettings | None = None,
    weights: FloatArray | None = None,
) -> Decision:
    """The search's choice for the team to act in the state array ``G``, seeded with
    ``seed`` (``weights``: the kernel's greedy weights, made from ``settings.greedy`` when
    not given).  Raises :class:`ValueError` when no team is to act and
    :class:`FastLimitError` when a determinization breaks a limit of the core."""
    chosen = settings or SearchSettings()
    W = weight_array(tables, chosen.greedy) if weights is None else weights
    stats = np.full((6 * tables.lmax + 64, k.IS_STATS), -1.0, np.float64)
    action = int(k.ismcts_decide(tables.T, np.asarray(G, np.int64), W, chosen.array(), seed, stats))
    if action == -1:
        raise ValueError("no team is to act in this state")
    if action < -1:
        raise FastLimitError(seed, -2 - action)
    used = int(np.count_nonzero(stats[:, 0] >= 0))
    visits = stats[:used, 1].astype(np.int64)
    totals = stats[:used, 2]
    means = np.divide(totals, visits, out=np.zeros(used), where=visits > 0)
    return Decision(action, stats[:used, 0].astype(np.int64), visits, means)


__all__ = ["EVALUATIONS", "ROLLOUTS", "Decision", "SearchSettings", "ismcts_decide"]
