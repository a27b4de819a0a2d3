"""Power at 80 %: how many games a test needs to find an effect, and the smallest effect a
number of games can find.

Every formula is the normal approximation of the test the reports use, at the two-sided
level ``alpha`` (``z_a = Φ⁻¹(1 - alpha/2)``) and the power ``1 - β`` (``z_b = Φ⁻¹(1 - β)``).  Under
Holm's correction over ``m`` tests the first test is made at ``alpha/m``, and Holm rejects
whatever Bonferroni's ``alpha/m`` rejects: :func:`holm_level` is that level, and a power computed
at it holds whatever the other tests give.

- :func:`one_proportion_games`: the exact binomial test of a rate against ``p0``;
- :func:`two_proportion_observations`: Pearson's chi-square test of two rates (the pooled
  two-proportion z-test);
- :func:`mcnemar_detectable`: the exact McNemar test of paired wins;
- :func:`paired_detectable`: a test of the mean of paired differences (the paired
  permutation test, and the Wilcoxon signed-rank test through its efficiency ``3/π``).
"""

from __future__ import annotations

import math

from splash.core.errors import OptionError
from splash.core.i18n import message

ALPHA = 0.05
"""The level of the reports' tests, after Holm's correction."""

POWER = 0.8
"""The power the reports plan for."""

WILCOXON_EFFICIENCY = 3.0 / math.pi
"""The asymptotic relative efficiency of the Wilcoxon signed-rank test to the paired t-test
for normal differences (Pitman; Noether's sample size gives the same)."""


def _z(q: float) -> float:
    from scipy.stats import norm

    return float(norm.ppf(q))


def _levels(alpha: float, power: float) -> tuple[float, float]:
    if not 0.0 < alpha < 1.0:
        raise OptionError("alpha", alpha, message("must be strictly between 0 and 1"))
    if not 0.0 < power < 1.0:
        raise OptionError("power", power, message("must be strictly between 0 and 1"))
    return _z(1.0 - alpha / 2.0), _z(power)


def _probability(key: str, value: float) -> float:
    if not 0.0 < value < 1.0:
        raise OptionError(key, value, message("must be strictly between 0 and 1"))
    return value


def holm_level(tests: int, alpha: float = ALPHA) -> float:
    """``alpha/m``: the level of the first of ``m`` tests under Holm's correction."""
    if tests < 1:
        raise OptionError("tests", tests, message("must be a whole number >= 1"))
    return alpha / tests


def one_proportion_games(
    p0: float, delta: float, *, alpha: float = ALPHA, power: float = POWER
) -> int:
    """The games the two-sided test of a rate against ``p0`` needs to find a true rate
    ``p1 = p0 ± delta`` with probability ``power``, in whichever direction needs more.

    A rate of ``n`` games is about normal, with variance ``p0 q0 / n`` under the null and
    ``p1 q1 / n`` at ``p1`` (``q = 1 - p``).  The test rejects when ``|p̂ - p0|`` exceeds
    ``z_a √(p0 q0 / n)``; at ``p1 = p0 + Δ`` it does so with probability about
    ``Φ((Δ - z_a √(p0 q0 / n)) / √(p1 q1 / n))`` (the far tail neglected), which is ``1 - β``
    when ``√n Δ = z_a √(p0 q0) + z_b √(p1 q1)``::

        n = ⌈(z_a √(p0 q0) + z_b √(p1 q1))² / Δ²⌉

    A direction whose ``p1`` leaves ``(0, 1)`` is not counted.
    """
    z_a, z_b = _levels(alpha, power)
    _probability("p0", p0)
    if not 0.0 < delta < 1.0:
        raise OptionError("delta", delta, message("must be strictly between 0 and 1"))
    needed = []
    for p1 in (p0 + delta, p0 - delta):
        if 0.0 < p1 < 1.0:
            root = z_a * math.sqrt(p0 * (1 - p0)) + z_b * math.sqrt(p1 * (1 - p1))
            needed.append(math.ceil((root / delta) ** 2))
    if not needed:
        raise OptionError("delta", delta, message("must be strictly between 0 and 1"))
    return max(needed)


def two_proportion_observations(
    p_control: float,
    delta: float,
    share: float,
    *,
    alpha: float = ALPHA,
    power: float = POWER,
) -> int:
    """The observations ``M`` Pearson's chi-square test of two rates needs to find a
    difference ``delta`` with probability ``power``, a ``share`` ``f`` of them in the first
    group (``n1 = f M``, ``n2 = (1 - f) M``) and the second group's rate ``p2 = p_control``.

    With ``p1 = p2 + Δ`` and the pooled rate ``p̄ = f p1 + (1 - f) p2``, the difference of
    the two rates has the variance ``p̄ q̄ (1/n1 + 1/n2)`` under the null and
    ``p1 q1 / n1 + p2 q2 / n2`` at the alternative; as for one rate, ``1 - β`` is reached at::

        M = ⌈(z_a √(p̄ q̄ (1/f + 1/(1 - f))) + z_b √(p1 q1 / f + p2 q2 / (1 - f)))² / Δ²⌉

    (``p1`` is ``p2 - Δ`` when ``p2 + Δ`` leaves ``(0, 1)``).
    """
    z_a, z_b = _levels(alpha, power)
    p2 = _probability("p_control", p_control)
    f = _probability("share", share)
    if not 0.0 < delta < 1.0:
        raise OptionError("delta", delta, message("must be strictly between 0 and 1"))
    p1 = p2 + delta if p2 + delta < 1.0 else p2 - delta
    if not 0.0 < p1 < 1.0:
        raise OptionError("delta", delta, message("must be strictly between 0 and 1"))
    pooled = f * p1 + (1 - f) * p2
    null = math.sqrt(pooled * (1 - pooled) * (1 / f + 1 / (1 - f)))
    alternative = math.sqrt(p1 * (1 - p1) / f + p2 * (1 - p2) / (1 - f))
    return math.ceil(((z_a * null + z_b * alternative) / delta) ** 2)


def mcnemar_detectable(
    pairs: int, discordant: float, *, alpha: float = ALPHA, power: float = POWER
) -> float:
    """The smallest change ``Δ`` of a paired win rate that the exact McNemar test of
    ``pairs`` pairs finds with probability ``power``, a share ``ψ = discordant`` of the pairs
    being discordant (one game won, the other not); ``nan`` without pairs or without a
    discordant pair.

    Connor's (1987) normal approximation: of the ``nψ`` discordant pairs a share
    ``(1 + Δ/ψ)/2`` turn towards the variant, and the test needs
    ``n = (z_a √ψ + z_b √(ψ - Δ²))² / Δ²`` pairs.  Solved for ``Δ`` (a quadratic,
    ``(n + z_b²)Δ² - 2 z_a √(nψ) Δ + (z_a² - z_b²)ψ = 0``, its larger root)::

        Δ = √ψ (√n z_a + z_b √(n - z_a² + z_b²)) / (n + z_b²)

    and at most ``ψ`` (no change can turn more pairs than the discordant ones).
    """
    z_a, z_b = _levels(alpha, power)
    if pairs < 1 or not 0.0 < discordant <= 1.0:
        return math.nan
    n = float(pairs)
    root = n - z_a * z_a + z_b * z_b
    if root < 0:
        return discordant
    delta = math.sqrt(discordant) * (math.sqrt(n) * z_a + z_b * math.sqrt(root)) / (n + z_b * z_b)
    return min(delta, discordant)


def paired_detectable(
    pairs: int,
    sd: float,
    *,
    alpha: float = ALPHA,
    power: float = POWER,
    efficiency: float = 1.0,
) -> float:
    """The smallest mean of paired differences (of standard deviation ``sd``) that a test of
    ``pairs`` pairs finds with probability ``power``; ``nan`` for fewer than two pairs.

    The paired test's statistic is about normal with the standard error ``sd / √n``, so
    ``Δ = (z_a + z_b) sd / √n``; a test of relative efficiency ``e`` to it (the Wilcoxon
    signed-rank test: ``e = 3/π`` for normal differences) needs ``n / e`` pairs for the same
    power, hence ``Δ = (z_a + z_b) sd / √(e n)``.
    """
    z_a, z_b = _levels(alpha, power)
    if pairs < 2 or not math.isfinite(sd):
        return math.nan
    return (z_a + z_b) * sd / math.sqrt(efficiency * pairs)
