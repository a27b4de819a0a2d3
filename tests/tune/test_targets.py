"""Targets and searched parameters of ``splash tune``, with misses worked out by hand."""

from __future__ import annotations

import math

import pytest

from splash.core.errors import OptionError
from splash.tune.targets import parse_parameter, parse_target


def test_an_upper_bound_misses_by_its_excess_over_the_bound() -> None:
    target = parse_target("first_seat_advantage<=0.02")
    assert (target.low, target.high, target.scale) == (-math.inf, 0.02, 0.02)
    assert target.miss(0.01) == 0.0
    assert target.miss(0.05) == pytest.approx(1.5)  # (0.05 - 0.02) / 0.02
    assert target.miss(-0.30) == 0.0


def test_a_size_bound_counts_either_sign() -> None:
    target = parse_target("|first_seat_advantage|<=0.02")
    assert target.absolute
    assert target.miss(-0.05) == pytest.approx(1.5)
    assert target.met(-0.01)
    assert target.met_by_interval(-0.015, 0.019)
    assert not target.met_by_interval(-0.03, 0.01)


def test_a_range_misses_by_its_distance_in_half_widths() -> None:
    target = parse_target("duration_turns=150..220")
    assert target.scale == 35.0
    assert target.miss(100.0) == pytest.approx(50 / 35)
    assert target.miss(290.0) == pytest.approx(2.0)
    assert target.miss(170.0) == 0.0
    assert target.met_by_interval(160.0, 200.0)
    assert not target.met_by_interval(140.0, 200.0)
    assert target.miss(math.nan) == math.inf


def test_a_lower_bound_and_a_team_rate() -> None:
    target = parse_target("team_win_rate_1>=0.45")
    assert target.metric.id == "team_win_rate_1"
    assert target.miss(0.36) == pytest.approx(0.2)  # (0.45 - 0.36) / 0.45


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("first_seat_advantage", "expected METRIC<=X"),
        ("fun<=3", "no such metric"),
        ("duration_turns=220..150", "low end is above"),
        ("duration_turns<=many", "many is not a number"),
        ("|balance<=1", "a size is written |METRIC|"),
    ],
)
def test_a_wrong_target_is_refused_with_the_reason(text: str, says: str) -> None:
    with pytest.raises(OptionError) as error:
        parse_target(text)
    assert says in str(error.value)


def test_ranges_of_whole_numbers_of_floats_and_lists() -> None:
    outer = parse_parameter("board.lanes.outer=30..48")
    assert (outer.kind, outer.ends()) == ("int", [30, 48])
    assert outer.text == "board.lanes.outer=30..48"
    angle = parse_parameter("options.fall_angle_deg=8..20.5")
    assert (angle.kind, angle.ends()) == ("float", [8.0, 20.5])
    listed = parse_parameter("decks.high_tide.undertow=0,2,4")
    assert (listed.kind, listed.ends()) == ("list", [0, 2, 4])
    assert listed.assignment(2) == "decks.high_tide.undertow=2"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("board.lanes.outer", "expected KEY=A..B"),
        ("board.lanes.outer=48..30", "not below its high end"),
        ("board.lanes.outer=", "no values to try"),
        ("board..outer=1..2", "expected KEY=A..B"),
    ],
)
def test_a_wrong_parameter_is_refused_with_the_reason(text: str, says: str) -> None:
    with pytest.raises(OptionError) as error:
        parse_parameter(text)
    assert error.value.key == "--vary"
    assert says in str(error.value)
