"""The statistics of bot matches: intervals, tests and Elo ratings (numpy; scipy for one test).

- :func:`wilson`: the Wilson score interval of a proportion; :class:`Rate`: a count out of a
  total with that interval, as the simulator's summary and the reports show it.
- :func:`binomial_tail` and :func:`sign_test`: the exact one-sided binomial test that a bot
  wins more than half of its decisive games (draws are left out: the sign test).
- :func:`elo_ratings`: Elo ratings by maximum likelihood (Bradley-Terry on the Elo scale),
  with 95 % intervals from the observed Fisher information.
- :func:`difference_interval` and :func:`two_proportion_test`: two proportions compared;
  :func:`holm`: Holm's correction of a family of p-values.

Every function checks its input and raises :class:`~splash.core.errors.OptionError`,
naming the argument and carrying the value, for counts that cannot be.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from splash.core.errors import OptionError
from splash.core.i18n import message

Z_95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95 % interval."""

ELO_SCALE = 400.0 / math.log(10.0)
"""Elo points per unit of the natural logit: ``r = ELO_SCALE · θ`` (about 173.7)."""


def _count(key: str, value: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 0:
        raise OptionError(key, value, message("must be a whole number, 0 or more"))
    return int(value)


def wilson(count: int, total: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of the proportion ``p̂ = count / total``.

    With ``n = total``::

        centre = (p̂ + z²/2n) / (1 + z²/n)
        half   = z · sqrt(p̂(1 - p̂)/n + z²/4n²) / (1 + z²/n)

    and the interval is ``[centre - half, centre + half]``, clipped to ``[0, 1]`` (exactly 0
    below when ``count`` is 0, exactly 1 above when ``count`` is ``total``).  With no game at
    all (``total`` 0) it is ``(0, 1)``.
    """
    _count("total", total)
    if total <= 0:
        return 0.0, 1.0
    if _count("count", count) > total:
        raise OptionError("count", count, message("more than the {total} games", total=total))
    p = count / total
    denominator = 1 + z * z / total
    centre = (p + z * z / (2 * total)) / denominator
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / denominator
    low = 0.0 if count <= 0 else max(0.0, centre - half)
    high = 1.0 if count >= total else min(1.0, centre + half)
    return low, high


NO_VALUE = "\u2013"
"""How a number that does not exist is shown (an en dash): the rate of no game at all."""


def percent(value: float) -> str:
    """``value`` as a percentage with one decimal (``70.0 %``); :data:`NO_VALUE` for ``nan``."""
    return f"{100 * value:.1f} %" if math.isfinite(value) else NO_VALUE


@dataclass(frozen=True)
class Rate:
    """``count`` out of ``total`` (games won out of games played, say), with its 95 % Wilson
    interval.

    An empty total has no rate: :attr:`value` is ``nan``, shown :data:`NO_VALUE`, and the
    interval is the whole of ``(0, 1)``.  A count below 0 or above the total, or a total
    below 0, is an :class:`~splash.core.errors.OptionError`.
    """

    count: int
    total: int

    def __post_init__(self) -> None:
        if _count("count", self.count) > _count("total", self.total):
            raise OptionError(
                "count", self.count, message("more than the {total} games", total=self.total)
            )

    @property
    def value(self) -> float:
        """``count / total`` (``nan`` without a total)."""
        return self.count / self.total if self.total else float("nan")

    @property
    def interval(self) -> tuple[float, float]:
        """The 95 % Wilson interval (``(0, 1)`` without a total)."""
        return wilson(self.count, self.total)

    def percent(self) -> str:
        """The rate as a percentage (``70.0 %``; :data:`NO_VALUE` without a total)."""
        return percent(self.value)

    def interval_percent(self) -> str:
        """The interval in percent (``39.7 - 89.2 %``)."""
        low, high = self.interval
        return f"{100 * low:.1f} - {100 * high:.1f} %"


def binomial_tail(successes: int, trials: int, p: float = 0.5) -> float:
    """``P(X ≥ successes)`` for ``X ~ Binomial(trials, p)``: the exact one-sided p-value of
    ``successes`` out of ``trials`` against the rate ``p``.

    ``P(X ≥ k) = Σ_{i=k..n} C(n, i) pⁱ (1 - p)ⁿ⁻ⁱ``.  For ``p = 1/2`` the sum is computed with
    whole numbers, ``Σ C(n, i) / 2ⁿ``, and rounded once; otherwise term by term in logarithms.
    """
    n = _count("trials", trials)
    k = _count("successes", successes)
    if k > n:
        raise OptionError("successes", k, message("more than the {total} games", total=n))
    if not 0.0 <= p <= 1.0:
        raise OptionError("p", p, message("must be a probability, from 0 to 1"))
    if k == 0:
        return 1.0
    if p == 0.5:
        return sum(math.comb(n, i) for i in range(k, n + 1)) / (1 << n)
    if p == 0.0:
        return 0.0
    if p == 1.0:
        return 1.0
    logs = [
        math.lgamma(n + 1)
        - math.lgamma(i + 1)
        - math.lgamma(n - i + 1)
        + i * math.log(p)
        + (n - i) * math.log1p(-p)
        for i in range(k, n + 1)
    ]
    top = max(logs)
    return min(1.0, math.exp(top) * sum(math.exp(v - top) for v in logs))


def sign_test(wins: int, losses: int) -> float:
    """The one-sided p-value that a bot wins more often than it loses.

    Draws are left out (the sign test): of the ``n = wins + losses`` decisive games, the
    p-value is ``P(X ≥ wins)`` for ``X ~ Binomial(n, 1/2)`` (:func:`binomial_tail`); it is 1
    when no game was decisive.
    """
    return binomial_tail(_count("wins", wins), _count("wins", wins) + _count("losses", losses))


def elo_expected(difference: float) -> float:
    """The expected score of a player rated ``difference`` Elo points above its opponent:
    ``1 / (1 + 10^(-difference/400))``."""
    return 1.0 / (1.0 + math.pow(10.0, -difference / 400.0))


def elo_difference(score: float) -> float:
    """The Elo difference whose expected score is ``score`` (strictly between 0 and 1):
    ``400 · log10(score / (1 - score))``; a 75 % score is ``400 · log10 3 ≈ 190.8`` points."""
    if not 0.0 < score < 1.0:
        raise OptionError("score", score, message("must be strictly between 0 and 1"))
    return 400.0 * math.log10(score / (1.0 - score))


@dataclass(frozen=True)
class EloFit:
    """Elo ratings by maximum likelihood and their covariance (in Elo points squared).

    The ratings are anchored so that their mean is 0; the intervals are
    ``rating ± z · standard error``.
    """

    ratings: tuple[float, ...]
    covariance: tuple[tuple[float, ...], ...]
    z: float = Z_95

    def error(self, player: int) -> float:
        """The standard error of ``player``'s rating: ``sqrt(Σ_ii)``."""
        return math.sqrt(max(0.0, self.covariance[player][player]))

    def interval(self, player: int) -> tuple[float, float]:
        """The confidence interval of ``player``'s rating (95 % by default)."""
        half = self.z * self.error(player)
        return self.ratings[player] - half, self.ratings[player] + half

    def difference(self, player: int, other: int) -> float:
        """How many Elo points ``player`` is rated above ``other``."""
        return self.ratings[player] - self.ratings[other]

    def difference_interval(self, player: int, other: int) -> tuple[float, float]:
        """The confidence interval of :meth:`difference`, from
        ``Var(r_i - r_j) = Σ_ii + Σ_jj - 2 Σ_ij``."""
        c = self.covariance
        variance = c[player][player] + c[other][other] - 2 * c[player][other]
        half = self.z * math.sqrt(max(0.0, variance))
        centre = self.difference(player, other)
        return centre - half, centre + half


Matrix = NDArray[np.float64]


def _points_matrix(points: Sequence[Sequence[float]]) -> Matrix:
    w = np.asarray(points, dtype=np.float64)
    size = len(points)
    if w.ndim != 2 or w.shape != (size, size) or size < 2:
        raise OptionError("points", points, message("must be a square table of 2 players or more"))
    if not np.all(np.isfinite(w)) or np.any(w < 0):
        raise OptionError("points", points, message("must be finite numbers, 0 or more"))
    if np.any(np.diag(w) != 0):
        raise OptionError("points", points, message("a player does not play itself"))
    return w


def _reaches_all(edges: NDArray[np.bool_]) -> bool:
    seen = {0}
    todo = [0]
    while todo:
        node = todo.pop()
        for other in np.flatnonzero(edges[node]):
            if int(other) not in seen:
                seen.add(int(other))
                todo.append(int(other))
    return len(seen) == int(edges.shape[0])


def _log_likelihood(theta: Matrix, w: Matrix) -> float:
    d = theta[:, None] - theta[None, :]
    # log s(d) = -log(1 + e^-d), s the logistic function, computed without overflow.
    return float(-(w * np.logaddexp(0.0, -d)).sum())


def _information(theta: Matrix, n: Matrix) -> tuple[Matrix, Matrix]:
    d = theta[:, None] - theta[None, :]
    p = 1.0 / (1.0 + np.exp(-d))
    weights = n * p * (1.0 - p)
    return p, np.diag(weights.sum(axis=1)) - weights


def elo_ratings(
    points: Sequence[Sequence[float]], *, virtual_draws: float = 0.0, z: float = Z_95
) -> EloFit:
    """Elo ratings by maximum likelihood from a table of head-to-head points.

    ``points[i][j]`` is what player ``i`` scored against ``j`` (a win 1, a draw ½ to each),
    so ``n_ij = points[i][j] + points[j][i]`` games were played between them.  The model
    (Bradley-Terry on the Elo scale) gives ``i`` the expected score
    ``p_ij = 1 / (1 + 10^((r_j - r_i)/400)) = s(θ_i - θ_j)``, with the logistic function
    ``s(x) = 1 / (1 + e^-x)`` and ``θ = r / ELO_SCALE``;
    the ratings maximise ``L(θ) = Σ_ij points[i][j] · log s(θ_i - θ_j)`` under ``Σ r_i = 0``
    (Newton's method with step halving).

    ``virtual_draws`` adds that many drawn games to every pair that played (½ a point each
    way): a little shrinkage towards equal ratings, which keeps the estimate finite when a
    player won (or lost) every game.  Without it such tables raise :class:`OptionError`,
    since the maximum is then at infinity.

    The covariance is the inverse of the observed Fisher information
    ``I = -∇²L``, a weighted graph Laplacian ``I_ii = Σ_j n_ij p_ij (1 - p_ij)``,
    ``I_ij = -n_ij p_ij (1 - p_ij)``; its Moore-Penrose inverse is the covariance of the
    ratings anchored at mean 0, scaled by ``ELO_SCALE²``.
    """
    w = _points_matrix(points)
    if not math.isfinite(virtual_draws) or virtual_draws < 0:
        raise OptionError("virtual_draws", virtual_draws, message("must be a number >= 0"))
    played = (w + w.T) > 0
    w = w + played * (virtual_draws / 2.0)
    n = w + w.T
    edges = w > 0
    if not (_reaches_all(edges) and _reaches_all(edges.T)):
        raise OptionError(
            "points",
            points,
            message(
                "no finite Elo ratings: some players won, or lost, every game against the"
                " others (add virtual draws)"
            ),
        )
    theta = np.zeros(len(w))
    current = _log_likelihood(theta, w)
    for _ in range(200):
        p, information = _information(theta, n)
        gradient = (w - n * p).sum(axis=1)
        if float(np.abs(gradient).max()) < 1e-10 * max(1.0, float(n.sum())):
            break
        step = np.linalg.pinv(information) @ gradient
        scale = 1.0
        while scale > 1e-8:
            candidate = theta + scale * step
            candidate -= candidate.mean()
            value = _log_likelihood(candidate, w)
            if value >= current - 1e-12:
                theta, current = candidate, value
                break
            scale /= 2.0
        else:
            break
    _, information = _information(theta, n)
    covariance = np.linalg.pinv(information) * ELO_SCALE**2
    return EloFit(
        ratings=tuple(float(v) for v in theta * ELO_SCALE),
        covariance=tuple(tuple(float(v) for v in row) for row in covariance),
        z=z,
    )


def difference_interval(
    count_a: int, total_a: int, count_b: int, total_b: int, z: float = Z_95
) -> tuple[float, float, float]:
    """The difference of two proportions ``p_a - p_b`` and its interval (Newcombe's hybrid
    score interval, from the two :func:`wilson` intervals ``[l_a, u_a]`` and ``[l_b, u_b]``)::

        low  = d - sqrt((p_a - l_a)² + (u_b - p_b)²)
        high = d + sqrt((u_a - p_a)² + (p_b - l_b)²)

    With no game on one side the difference is undefined: ``(nan, -1, 1)``.
    """
    low_a, high_a = wilson(count_a, total_a, z)
    low_b, high_b = wilson(count_b, total_b, z)
    if total_a == 0 or total_b == 0:
        return math.nan, -1.0, 1.0
    p_a, p_b = count_a / total_a, count_b / total_b
    d = p_a - p_b
    low = d - math.sqrt((p_a - low_a) ** 2 + (high_b - p_b) ** 2)
    high = d + math.sqrt((high_a - p_a) ** 2 + (p_b - low_b) ** 2)
    return d, max(-1.0, low), min(1.0, high)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (NaN stays NaN and is left out of the family):
    with the ``m`` p-values sorted, ``p̃_(i) = max_{j≤i} min(1, (m - j + 1) p_(j))``."""
    values = np.asarray(p_values, dtype=np.float64)
    present = np.flatnonzero(~np.isnan(values))
    adjusted = np.full(values.shape, np.nan)
    order = present[np.argsort(values[present], kind="stable")]
    m = len(order)
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (m - rank) * float(values[index])))
        adjusted[index] = running
    return [float(v) for v in adjusted]


def two_proportion_test(count_a: int, total_a: int, count_b: int, total_b: int) -> float:
    """The two-sided p-value of Pearson's chi-square test that two proportions are equal (the
    pooled two-proportion z-test; no continuity correction, ``scipy.stats.chi2_contingency``);
    1 when either group is empty or every observation falls on one side."""
    from scipy.stats import chi2_contingency

    table = [[count_a, total_a - count_a], [count_b, total_b - count_b]]
    if min(total_a, total_b) == 0 or count_a + count_b in (0, total_a + total_b):
        return 1.0
    return float(chi2_contingency(table, correction=False).pvalue)
