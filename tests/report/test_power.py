"""The power formulas against values computed by hand, and against the power of the very
tests they approximate (computed exactly where it can be, simulated with a seed otherwise)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from splash.core.errors import OptionError
from splash.report.power import (
    WILCOXON_EFFICIENCY,
    holm_level,
    mcnemar_detectable,
    one_proportion_games,
    paired_detectable,
    two_proportion_observations,
)


def test_one_proportion_games_by_hand() -> None:
    # z_a = 1.959964, z_b = 0.841621, p1 = 0.53:
    # (1.959964·0.5 + 0.841621·√(0.53·0.47))² / 0.03² = (0.979982 + 0.420052)² / 0.0009
    # = 1.400034² / 0.0009 = 2177.88 → 2178.
    assert one_proportion_games(0.5, 0.03) == 2178
    # At 0.05/2 (two tests under Holm) z_a = 2.241403: (1.120702 + 0.420052)² / 0.0009
    # = 2637.69 → 2638.
    assert one_proportion_games(0.5, 0.03, alpha=holm_level(2)) == 2638
    # Three teams, p0 = 1/3: p1 = 0.3633 needs more than 0.3033:
    # (1.959964·0.471405 + 0.841621·0.480960)² / 0.0009 = 1.328723² / 0.0009 = 1961.67.
    assert one_proportion_games(1 / 3, 0.03) == 1962


def exact_binomial_power(n: int, p1: float, alpha: float) -> float:
    """The power of scipy's two-sided exact binomial test of 1/2 at the true rate ``p1``."""
    ks = np.arange(n + 1)
    p_values = np.minimum(
        1.0, 2 * np.minimum(stats.binom.cdf(ks, n, 0.5), stats.binom.sf(ks - 1, n, 0.5))
    )
    return float(stats.binom.pmf(ks, n, p1)[p_values <= alpha].sum())


@pytest.mark.parametrize("alpha", [0.05, 0.05 / 14])
def test_the_games_give_the_exact_binomial_test_80_percent_power(alpha: float) -> None:
    n = one_proportion_games(0.5, 0.03, alpha=alpha)
    assert exact_binomial_power(n, 0.53, alpha) == pytest.approx(0.8, abs=0.02)
    assert exact_binomial_power(n // 2, 0.53, alpha) < 0.6


def test_two_proportion_observations_by_hand() -> None:
    # f = 1/2, p2 = 0.5, p1 = 0.53, pooled 0.515: z_a √(0.249775·4) = 1.959082,
    # z_b √(0.2491·2 + 0.25·2) = 0.840864; (2.799946 / 0.03)² = 8710.77 → 8711.
    assert two_proportion_observations(0.5, 0.03, 0.5) == 8711
    # A smaller first group needs more observations.
    assert two_proportion_observations(0.5, 0.03, 0.1) > 8711


def test_the_observations_give_the_chi_square_test_80_percent_power() -> None:
    total = two_proportion_observations(0.4, 0.05, 0.3)
    first = round(0.3 * total)
    second = total - first
    rng = np.random.default_rng(20261201)
    wins_a = rng.binomial(first, 0.45, 4000)
    wins_b = rng.binomial(second, 0.4, 4000)
    # Pearson's statistic of a 2x2 table is the square of the pooled two-proportion z.
    pooled = (wins_a + wins_b) / total
    z = (wins_a / first - wins_b / second) / np.sqrt(
        pooled * (1 - pooled) * (1 / first + 1 / second)
    )
    p_values = stats.chi2.sf(z**2, 1)
    table = [[wins_a[0], first - wins_a[0]], [wins_b[0], second - wins_b[0]]]
    assert p_values[0] == pytest.approx(stats.chi2_contingency(table, correction=False).pvalue)
    assert np.mean(p_values < 0.05) == pytest.approx(0.8, abs=0.025)


def test_mcnemar_detectable_by_hand() -> None:
    # n = 400, ψ = 1/2: √ψ (20·1.959964 + 0.841621·√(400 - 3.841459 + 0.708326))
    # / (400 + 0.708326) = 0.707107 · 55.96565 / 400.708326 = 0.098760.
    assert mcnemar_detectable(400, 0.5) == pytest.approx(0.098760, abs=2e-6)
    assert math.isnan(mcnemar_detectable(400, 0.0))
    assert math.isnan(mcnemar_detectable(0, 0.5))
    assert mcnemar_detectable(3, 0.2) == pytest.approx(0.2)  # never more than the discordance


def exact_mcnemar_power(n: int, discordant: float, delta: float, alpha: float) -> float:
    """The power of the exact McNemar test (the two-sided binomial test of the discordant
    pairs) when a share ``discordant`` of ``n`` pairs are discordant and the change is
    ``delta``: each discordant pair turns towards the variant with ``(1 + delta/ψ)/2``."""
    towards = (1 + delta / discordant) / 2
    power = 0.0
    for d in range(1, n + 1):
        gains = np.arange(d + 1)
        p_values = np.minimum(
            1.0, 2 * np.minimum(stats.binom.cdf(gains, d, 0.5), stats.binom.sf(gains - 1, d, 0.5))
        )
        rejected = stats.binom.pmf(gains, d, towards)[p_values <= alpha].sum()
        power += stats.binom.pmf(d, n, discordant) * rejected
    return float(power)


@pytest.mark.parametrize(("pairs", "discordant"), [(400, 0.5), (200, 0.2)])
def test_the_detectable_change_gives_the_mcnemar_test_80_percent_power(
    pairs: int, discordant: float
) -> None:
    delta = mcnemar_detectable(pairs, discordant, alpha=0.025)
    assert exact_mcnemar_power(pairs, discordant, delta, 0.025) == pytest.approx(0.8, abs=0.03)


def test_paired_detectable_by_hand() -> None:
    # (1.959964 + 0.841621) · 30 / √400 = 4.202378; with the efficiency 3/π,
    # divided by √(3/π) = 0.977205: 4.300405.
    assert paired_detectable(400, 30.0) == pytest.approx(4.202378, abs=1e-6)
    assert paired_detectable(400, 30.0, efficiency=WILCOXON_EFFICIENCY) == pytest.approx(
        4.300405, abs=1e-6
    )
    assert math.isnan(paired_detectable(1, 30.0))


def test_the_detectable_shift_gives_the_wilcoxon_test_80_percent_power() -> None:
    pairs = 120
    shift = paired_detectable(pairs, 30.0, efficiency=WILCOXON_EFFICIENCY)
    rng = np.random.default_rng(20261202)
    differences = rng.normal(shift, 30.0, size=(2000, pairs))
    p_values = stats.wilcoxon(differences, axis=1).pvalue
    assert np.mean(p_values < 0.05) == pytest.approx(0.8, abs=0.03)


@pytest.mark.parametrize(
    ("call", "key"),
    [
        (lambda: one_proportion_games(0.0, 0.03), "p0"),
        (lambda: one_proportion_games(0.5, 0.0), "delta"),
        (lambda: one_proportion_games(0.5, 0.03, alpha=1.5), "alpha"),
        (lambda: two_proportion_observations(0.5, 0.03, 1.0), "share"),
        (lambda: mcnemar_detectable(10, 0.5, power=1.0), "power"),
        (lambda: holm_level(0), "tests"),
    ],
)
def test_impossible_inputs_are_refused(call: object, key: str) -> None:
    assert callable(call)
    with pytest.raises(OptionError) as error:
        call()
    assert error.value.key == key
