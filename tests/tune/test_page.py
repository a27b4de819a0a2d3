"""The shading of a target on the plots of ``splash tune``'s page."""

from __future__ import annotations

import math

from splash.tune.page import band_limits
from splash.tune.targets import parse_target


def test_a_target_far_from_every_candidate_is_shaded_where_it_is() -> None:
    size = parse_target("|first_seat_advantage|<=0.02")
    assert band_limits(size, [0.10, 0.12, 0.15]) == (-0.02, 0.02)
    upper = parse_target("first_seat_advantage<=0.02")
    low, high = band_limits(upper, [0.10, 0.15]) or (math.nan, math.nan)
    assert high == 0.02 and math.isclose(low, 0.02 - 0.05)
    lower = parse_target("balance>=0.9")
    low, high = band_limits(lower, [0.5, 0.6]) or (math.nan, math.nan)
    assert low == 0.9 and math.isclose(high, 0.9 + 0.1)


def test_a_target_among_the_candidates_is_cut_to_their_spread() -> None:
    span = parse_target("duration_turns=150..220")
    assert band_limits(span, [100.0, 160.0]) == (150.0, 220.0)
    upper = parse_target("first_seat_advantage<=0.02")
    assert band_limits(upper, [0.0, 0.04]) == (-0.04, 0.02)
    assert band_limits(upper, [math.nan]) is None
