"""The summary's verdicts: balanced, imbalanced or undecided, with their numbers and tests."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from splash.core.errors import OptionError
from splash.core.i18n import message
from splash.report.html import Page
from splash.report.outcomes import outcome_tests
from splash.report.power import one_proportion_games
from splash.report.verdicts import Quantity, conclude, summary_lines, summary_section, tolerance
from tests.report.test_outcomes import coin_games, synthetic


def quantity(difference: float, low: float, high: float, p: float) -> Quantity:
    return Quantity(
        message("first-seat advantage (team A)"),
        message("observed"),
        difference,
        low,
        high,
        p,
        message("two-sided exact binomial test"),
        lambda delta, alpha: one_proportion_games(0.5, delta, alpha=alpha),
    )


def test_an_interval_inside_the_tolerance_is_balanced() -> None:
    (verdict,) = conclude([quantity(0.004, -0.02, 0.028, 0.7)], 0.03)
    assert verdict.kind == "balanced" and verdict.games_needed is None


def test_a_significant_difference_is_imbalanced() -> None:
    (verdict,) = conclude([quantity(0.115, 0.066, 0.161, 4.9e-6)], 0.03)
    assert verdict.kind == "imbalanced"


def test_a_small_difference_known_well_is_balanced_even_when_significant() -> None:
    (verdict,) = conclude([quantity(0.01, 0.005, 0.015, 1e-4)], 0.03)
    assert verdict.kind == "balanced"


def test_otherwise_undecided_with_the_games_for_80_percent_power() -> None:
    verdicts = conclude([quantity(0.02, -0.03, 0.07, 0.4), quantity(0.2, 0.1, 0.3, 0.001)], 0.03)
    assert [v.kind for v in verdicts] == ["undecided", "imbalanced"]
    # Two tests: the power is planned at 0.05/2, 2638 games (test_power's hand value).
    assert verdicts[0].games_needed == 2638
    assert verdicts[1].adjusted == pytest.approx(0.002)
    text = verdicts[0].text(0.03).render()
    assert "undecided" in text and "+2.0 points (95 % interval -3.0 to +7.0)" in text
    assert "two-sided exact binomial test, p = 0.4, 0.4 after Holm's correction (m = 2)" in text
    assert "About 2638 games in all would find a difference of 3 points with 80 % power" in text


def test_holm_can_turn_a_significant_test_undecided() -> None:
    verdicts = conclude([quantity(0.05, 0.001, 0.1, 0.03)] * 3, 0.03)
    assert all(v.kind == "undecided" for v in verdicts)
    assert verdicts[0].adjusted == pytest.approx(0.09)


def test_the_lines_put_the_imbalanced_first() -> None:
    verdicts = conclude([quantity(0.0, -0.01, 0.01, 0.9), quantity(0.2, 0.1, 0.3, 1e-6)], 0.03)
    head, first, second = (line.render() for line in summary_lines(verdicts, 0.03))
    assert head.startswith("2 quantities tested against a tolerance of ±3 points: 1 imbalanced")
    assert "imbalanced" in first and "balanced" in second


def test_a_biased_first_seat_is_imbalanced_and_a_fair_one_is_not() -> None:
    biased = synthetic(list(coin_games(4, 2000, 0.56)), 2)
    (verdict,) = conclude(outcome_tests(biased), 0.03)
    assert verdict.kind == "imbalanced"
    assert "First-seat advantage (team A)" in verdict.text(0.03).render()
    fair = synthetic(list(coin_games(5, 6000, 0.5)), 2)
    (verdict,) = conclude(outcome_tests(fair), 0.03)
    assert verdict.kind == "balanced"


def test_three_teams_test_every_team_against_a_third() -> None:
    two = synthetic(list(coin_games(6, 300, 0.5, seats=3)), 3)
    options = '{"options.teams": 3}'
    run = replace(two.runs[0], options=options)
    results = replace(two, runs=(run,), frame=two.frame.assign(options=options))
    found = outcome_tests(results)
    assert [t.label.render() for t in found] == [
        "First-seat advantage (team A)",
        "Win rate of team B",
        "Win rate of team C",
    ]
    wins = [int((results.frame["winner_team"] == t).sum()) for t in range(3)]
    assert [t.difference for t in found] == pytest.approx([w / 300 - 1 / 3 for w in wins])
    assert all(math.isfinite(t.p_value) for t in found)


def test_the_section_lists_every_verdict() -> None:
    page = Page("t")
    verdicts = conclude([quantity(0.2, 0.1, 0.3, 1e-6)], 0.05)
    summary_section(page, verdicts, 0.05)
    html = page.render()
    assert '<section id="summary">' in html and '<li class="significant">' in html
    assert "inside ±5 points" in html


@pytest.mark.parametrize("points", [0.0, -1.0, 100.0, math.nan, math.inf])
def test_a_tolerance_outside_0_to_100_points_is_refused(points: float) -> None:
    with pytest.raises(OptionError) as error:
        tolerance(points)
    assert error.value.key == "--tolerance"


def test_a_tolerance_in_points_is_a_fraction() -> None:
    assert tolerance(3) == pytest.approx(0.03)
    assert tolerance(0.5) == pytest.approx(0.005)
