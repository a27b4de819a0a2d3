"""The designer metrics Ludii popularised, computed from game outcomes and evaluation traces.

Notation (after Ludii's ``metrics`` package): ``N`` games of ``n`` players; in a game, the
moves ``m_1 … m_T`` and the states ``s_0 … s_T``; ``v_p(s_i)`` the evaluation of player
``p`` at state ``s_i``, in ``[-1, 1]``; ``u_p`` the final utility of ``p`` from the ranks and
``w_p = (u_p + 1)/2`` its partial win; ``W`` the players whose final rank is top.

Three places where Ludii's code departs from what its comments say are computed here as
documented (the report says so in its definitions): ``W`` is the set of the final winners
(Ludii's code takes it from a freshly started game, where every player ties); Balance and
DecisivenessMoves use real arithmetic (Ludii's adds into integers, so only sole outright
wins count and each game's DecisivenessMoves is 0 or 1); Drawishness leaves out the games
that hit the turn cap, as its comment says.

Every function takes numpy arrays and returns a float (``nan`` when undefined).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence

import numpy as np
from numpy.typing import NDArray

Array = NDArray[np.float64]


def utilities(players: int, winners: Collection[int]) -> tuple[float, ...]:
    """``u_p = 1 - 2(rank_p - 1)/(n - 1)`` from the ranks: the ``k`` winners share the top ranks,
    the others the ranks below; without a winner every utility is 0."""
    n, k = players, len(winners)
    if n < 2 or k in (0, n):
        return (0.0,) * n
    top, rest = (k + 1) / 2, k + (n - k + 1) / 2
    return tuple(1.0 - 2.0 * ((top if p in winners else rest) - 1.0) / (n - 1) for p in range(n))


def top_players(final: Sequence[float]) -> tuple[int, ...]:
    """``W``: the players whose final utility (hence rank) is the highest."""
    best = max(final)
    return tuple(p for p, u in enumerate(final) if u == best)


# ----- outcome metrics: ``u`` is an (N, n) array of utilities -----------------------------


def _mean(values: Array) -> float:
    return float(values.mean()) if values.size else float("nan")


def advantage_p1(u: Array) -> float:
    """AdvantageP1: ``(1/N) Σ w_1``, the first player's mean partial win (fair ≈ 0.5)."""
    return _mean((u[:, 0] + 1.0) / 2.0) if len(u) else float("nan")


def partial_wins(u: Array) -> Array:
    """``r_p = (1/N) Σ w_p`` for every player."""
    return np.asarray(((u + 1.0) / 2.0).mean(axis=0), dtype=np.float64)


def balance(u: Array) -> float:
    """Balance: ``1 - max_{p<q} |r_p - r_q|`` (1 is perfectly balanced)."""
    if not len(u):
        return float("nan")
    r = partial_wins(u)
    return float(1.0 - (r.max() - r.min()))


def completion(has_winner: Array) -> float:
    """Completion: the share of games with a winner."""
    return _mean(has_winner.astype(np.float64))


def drawishness(u: Array, timeouts: Array) -> float:
    """Drawishness: the share of games that end with every ``u_p = 0``, timeouts left out of
    the count (not out of ``N``)."""
    draws = np.all(u == 0.0, axis=1) & ~timeouts.astype(bool)
    return _mean(draws.astype(np.float64))


def timeouts(capped: Array) -> float:
    """Timeouts: the share of games ended by the turn cap."""
    return _mean(capped.astype(np.float64))


def outcome_uniformity(u: Array) -> float:
    """OutcomeUniformity: ``1 - (1/n) Σ_p Var_{N-1}(u_p)`` (sample variance over games)."""
    if len(u) < 2:
        return float("nan")
    return float(1.0 - u.var(axis=0, ddof=1).mean())


def ideal_duration_scores(turns: Array, low: float = 0.0, high: float = 1000.0) -> Array:
    """IdealDuration's score of each game: ``t/low`` below ``low``, ``1 - min(1, (t -
    high)/high)`` above ``high``, 1 between."""
    t = turns.astype(np.float64)
    scores = np.ones_like(t)
    if low > 0:
        scores = np.where(t < low, t / low, scores)
    return np.asarray(
        np.where(t > high, 1.0 - np.minimum(1.0, (t - high) / high), scores), dtype=np.float64
    )


def ideal_duration(turns: Array, low: float = 0.0, high: float = 1000.0) -> float:
    """IdealDuration: the mean over games of :func:`ideal_duration_scores`."""
    return _mean(ideal_duration_scores(turns, low, high))


# ----- state-evaluation metrics of one game: ``trace`` is a (T+1, n) array ---------------


def lead_change(trace: Array) -> float:
    """LeadChange: ``#{i < T : L_i ≠ L_{i-1}} / T`` with ``L_i`` the set of players with the
    highest evaluation at ``s_i`` (exact ties) and ``L_{-1} = ∅``."""
    before = trace[:-1]
    if not len(before):
        return float("nan")
    changes, previous = 0, frozenset[int]()
    for row in before:
        leaders = frozenset(int(p) for p in np.flatnonzero(row == row.max()))
        changes += leaders != previous
        previous = leaders
    return changes / len(before)


def stability(trace: Array) -> float:
    """Stability: ``Σ_p`` of the population variance over ``s_0 … s_{T-1}`` of ``v_p``."""
    before = trace[:-1]
    return float(before.var(axis=0).sum()) if len(before) else float("nan")


def decisiveness_threshold(trace: Array, winners: Collection[int]) -> float:
    """DecisivenessThreshold ``θ``: the highest evaluation of any player not in ``W`` over
    ``s_0 … s_{T-1}``, starting at -1."""
    before = trace[:-1]
    others = [p for p in range(trace.shape[1]) if p not in winners]
    if not len(before) or not others:
        return -1.0
    return float(max(-1.0, before[:, others].max()))


def decisiveness_moves(trace: Array, winners: Collection[int]) -> float:
    """DecisivenessMoves: ``i*/T``, ``i*`` the first ``i < T`` at which some winner's
    evaluation exceeds ``θ`` (``T`` if none)."""
    before = trace[:-1]
    if not len(before):
        return float("nan")
    theta = decisiveness_threshold(trace, winners)
    above = np.flatnonzero((before[:, sorted(winners)] > theta).any(axis=1))
    first = int(above[0]) if above.size else len(before)
    return first / len(before)


def drama_sequence(trace: Array, winners: Collection[int]) -> Array:
    """Drama's ``d_i`` over ``s_0 … s_{T-1}``: the mean over the winners of
    ``max_q v_q(s_i) - v_w(s_i)``."""
    before = trace[:-1]
    if not len(before):
        return np.zeros(0)
    gaps = before.max(axis=1, keepdims=True) - before[:, sorted(winners)]
    return np.asarray(gaps.mean(axis=1), dtype=np.float64)


def _slope(values: Array) -> float:
    if len(values) < 2:
        return 0.0
    x = np.arange(len(values), dtype=np.float64)
    return float(np.polyfit(x, values, 1)[0])


def _max_from_zero(values: Array) -> float:
    return float(max(0.0, values.max())) if len(values) else 0.0


AGGREGATORS: Mapping[str, Callable[[Array], float]] = {
    "Average": lambda d: float(d.mean()) if len(d) else float("nan"),
    "Median": lambda d: float(np.median(d)) if len(d) else float("nan"),
    "Max": _max_from_zero,
    "Variance": lambda d: float(d.var()) if len(d) else float("nan"),
    "ChangeLineBestFit": _slope,
}
"""The aggregators of a per-state sequence that the report shows (Max starts at 0)."""


def trace_metrics(trace: Array, winners: Collection[int]) -> dict[str, float]:
    """Every state-evaluation metric of one game (``nan`` when it has no move)."""
    drama = drama_sequence(trace, winners)
    values = {
        "LeadChange": lead_change(trace),
        "Stability": stability(trace),
        "DecisivenessThreshold": decisiveness_threshold(trace, winners)
        if len(trace) > 1
        else float("nan"),
        "DecisivenessMoves": decisiveness_moves(trace, winners),
    }
    for name, aggregate in AGGREGATORS.items():
        values[f"Drama{name}"] = aggregate(drama) if len(drama) else float("nan")
    return values
