"""The statistics of the reports, on data whose answers are known."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest

from splash.core.errors import OptionError
from splash.sim.stats import (
    NO_VALUE,
    Rate,
    binomial_tail,
    elo_difference,
    elo_expected,
    elo_ratings,
    sign_test,
    wilson,
)


def test_a_biased_coin_is_significant() -> None:
    assert sign_test(700, 300) < 1e-30
    assert sign_test(60, 40) < 0.05


def test_a_fair_coin_is_not() -> None:
    assert sign_test(500, 500) == pytest.approx(0.5126125, abs=1e-6)
    flips = np.random.default_rng(20240601).integers(0, 2, size=1000)
    heads = int(flips.sum())
    assert sign_test(heads, 1000 - heads) > 0.05


def test_the_binomial_tail_by_hand() -> None:
    # P(X >= 9) for X ~ Binomial(10, 1/2) = (C(10,9) + C(10,10)) / 2^10 = 11 / 1024.
    assert binomial_tail(9, 10) == 11 / 1024
    assert binomial_tail(0, 10) == 1.0
    # P(X >= 2) for X ~ Binomial(3, 0.3) = 3 * 0.09 * 0.7 + 0.027.
    assert binomial_tail(2, 3, 0.3) == pytest.approx(0.216)
    assert sign_test(0, 0) == 1.0


def test_the_wilson_interval_by_hand() -> None:
    z = 1.959963984540054
    n, p = 8, 6 / 8
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    assert wilson(6, 8) == pytest.approx((centre - half, centre + half))
    assert wilson(6, 8) == pytest.approx((0.4093, 0.9285), abs=1e-4)
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_seven_of_ten_by_hand() -> None:
    """p̂ = 0.7, n = 10, z = 1.959964, z² = 3.841459:

    - 1 + z²/n = 1.3841459 and z²/2n = 0.1920729, so the centre is
      (0.7 + 0.1920729) / 1.3841459 = 0.6444934;
    - p̂(1 - p̂)/n = 0.021 and z²/4n² = 0.0096036, whose sum has the root 0.1749390, so the
      half width is 1.959964 · 0.1749390 / 1.3841459 = 0.2477153;
    - the interval is 0.6444934 ∓ 0.2477153 = (0.3967781, 0.8922087).
    """
    rate = Rate(7, 10)
    assert rate.value == 0.7
    assert rate.interval == pytest.approx((0.3967781, 0.8922087), abs=1e-7)
    assert (rate.percent(), rate.interval_percent()) == ("70.0 %", "39.7 - 89.2 %")


def test_an_empty_total_has_no_rate_and_the_whole_interval() -> None:
    """0 games out of 0: no share can be computed (0/0), so the rate is nan and shown as a
    dash, and nothing narrows the interval: every proportion from 0 to 1 remains possible."""
    rate = Rate(0, 0)
    assert math.isnan(rate.value)
    assert rate.percent() == NO_VALUE == "\u2013"
    assert rate.interval == (0.0, 1.0)
    assert rate.interval_percent() == "0.0 - 100.0 %"


def test_a_rate_refuses_counts_that_cannot_be() -> None:
    for count, total in ((3, 2), (-1, 4), (1, -1), (1, 0)):
        with pytest.raises(OptionError):
            Rate(count, total)


def test_a_75_percent_head_to_head_is_191_elo() -> None:
    fit = elo_ratings([[0, 75], [25, 0]])
    assert fit.difference(0, 1) == pytest.approx(400 * math.log10(3))
    assert fit.ratings[0] == pytest.approx(-fit.ratings[1])
    assert elo_difference(0.75) == pytest.approx(190.85, abs=0.01)
    assert elo_expected(fit.difference(0, 1)) == pytest.approx(0.75)


def test_the_interval_comes_from_the_fisher_information() -> None:
    fit = elo_ratings([[0, 75], [25, 0]])
    # Var(θ_0 - θ_1) = 1 / (n p (1 - p)), in Elo points: (400 / ln 10)^2 / 18.75.
    se = 400 / math.log(10) / math.sqrt(100 * 0.75 * 0.25)
    low, high = fit.difference_interval(0, 1)
    assert (high - low) / 2 == pytest.approx(1.959964 * se, rel=1e-5)
    assert fit.error(0) == pytest.approx(se / 2, rel=1e-6)


def test_the_interval_shrinks_with_more_games() -> None:
    widths = []
    for scale in (1, 4, 16):
        fit = elo_ratings([[0, 3 * scale], [scale, 0]])
        low, high = fit.interval(0)
        widths.append(high - low)
        assert low < fit.ratings[0] < high
    assert widths[0] > 1.9 * widths[1] > 3.6 * widths[2]


def test_three_players_in_order() -> None:
    fit = elo_ratings([[0, 4, 1], [6, 0, 3], [9, 7, 0]])
    assert fit.ratings[0] < fit.ratings[1] < fit.ratings[2]
    assert sum(fit.ratings) == pytest.approx(0, abs=1e-9)


def test_a_sweep_needs_virtual_draws() -> None:
    with pytest.raises(OptionError, match="virtual draws"):
        elo_ratings([[0, 6], [0, 0]])
    fit = elo_ratings([[0, 6], [0, 0]], virtual_draws=1)
    assert fit.difference(0, 1) == pytest.approx(elo_difference(6.5 / 7))


@pytest.mark.parametrize(
    "call",
    [
        lambda: wilson(11, 10),
        lambda: wilson(-1, 10),
        lambda: binomial_tail(3, 2),
        lambda: binomial_tail(1, 2, 1.5),
        lambda: elo_ratings([[0, 1]]),
        lambda: elo_ratings([[1, 1], [1, 0]]),
        lambda: elo_ratings([[0, -1], [1, 0]]),
        lambda: elo_ratings([[0, 1], [1, 0]], virtual_draws=-1),
        lambda: elo_difference(1.0),
    ],
)
def test_impossible_counts_are_refused(call: Callable[[], object]) -> None:
    with pytest.raises(OptionError):
        call()
