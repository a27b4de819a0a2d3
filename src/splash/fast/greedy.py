"""The greedy bot of :mod:`splash.bots.bash_greedy` in the compiled core.

The heuristic, its look-ahead and the other teams' fixed reactions are compiled in
:mod:`splash.fast.kernel` (section "the greedy bot"; one module, so numba's disk cache never
keeps a stale callee).  This module turns the reference bot's settings into the kernel's
weight array and chooses for one state.

Like the reference, a decision starts by redrawing every other team's hand from the cards
the team cannot see (the high tide deck and those hands, each keeping its size), so it
reads nothing the team may not see.  The redraw and the tie-break use the core's own
generator (SplitMix64), not the reference bot's :class:`numpy.random.Generator`: the same
heuristic, not the same games.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from splash.core.errors import OptionError
from splash.core.i18n import message
from splash.fast import kernel as k
from splash.fast.tables import Tables
from splash.games.bash.config import HAND_DECK
from splash.games.bash.greedy_weights import GREEDY_WEIGHTS

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

_ORDER = ("rival", "tide", "threat", "obstacle", "slip", "exact", "hold_lifebuoy", "hold_card")
LIFEBUOY = "lifebuoy"


@dataclass(frozen=True)
class GreedySettings:
    """The reference greedy bot's settings: ``depth`` (decisions of its own looked
    through), ``samples`` (redraws averaged) and the heuristic's weights."""

    depth: int = 3
    samples: int = 1
    weights: Mapping[str, float] = field(default_factory=lambda: dict(GREEDY_WEIGHTS))


def weight_array(tables: Tables, settings: GreedySettings | None = None) -> FloatArray:
    """The kernel's ``W`` for ``settings`` (default: the reference bot's defaults)."""
    chosen = settings or GreedySettings()
    weights = dict(GREEDY_WEIGHTS)
    for key, value in chosen.weights.items():
        if key not in GREEDY_WEIGHTS:
            known = ", ".join(sorted(GREEDY_WEIGHTS))
            raise OptionError(
                "bot",
                key,
                message("unknown key {part!r} (known here: {known})", part=key, known=known),
            )
        weights[key] = float(value)
    W = np.zeros(k.GW_SIZE, np.float64)
    for i, key in enumerate(_ORDER):
        W[i] = weights[key]
    W[k.GW_DEPTH] = max(1, min(3, int(chosen.depth)))
    W[k.GW_SAMPLES] = max(1, int(chosen.samples))
    cards = list(tables.game.settings.decks[HAND_DECK].cards)
    for c, name in enumerate(cards):
        W[k.GW_CARD + c] = weights["hold_lifebuoy" if name == LIFEBUOY else "hold_card"]
    return W


def policies(teams: int, greedy: Sequence[int]) -> IntArray:
    """The kernel's ``P``: :data:`~splash.fast.kernel.POLICY_GREEDY` for the teams in
    ``greedy``, random for the others."""
    P = np.full(teams, k.POLICY_RANDOM, np.int64)
    for team in greedy:
        P[team] = k.POLICY_GREEDY
    return P


def greedy_action(tables: Tables, G: IntArray, seed: int, W: FloatArray | None = None) -> int:
    """The compiled greedy bot's action id in the state array ``G`` (the team to act), its
    redraws and tie-break seeded with ``seed``; -1 when no team is to act."""
    return greedy_scores(tables, G, seed, W)[0]


def greedy_scores(
    tables: Tables, G: IntArray, seed: int, W: FloatArray | None = None, *, redeal: bool = True
) -> tuple[int, FloatArray]:
    """The compiled greedy bot's action id in ``G`` and the scores of the legal actions (in
    id order; a single legal action is not scored).  ``redeal`` False scores ``G`` as it is,
    hidden hands included: only for comparing with the reference bot's scores."""
    weights = weight_array(tables) if W is None else W
    scores = np.zeros(6 * tables.lmax + 64, np.float64)
    choice = int(
        k.greedy_decide(tables.T, np.asarray(G, np.int64), weights, np.int64(seed), scores, redeal)
    )
    return choice, scores


__all__ = ["GreedySettings", "greedy_action", "greedy_scores", "policies", "weight_array"]
