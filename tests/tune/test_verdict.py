"""The verdict of ``splash tune``: "met" at every level, one sentence per finalist, and the
closest finalist's level when none met the targets; the page's plot of every level."""

from __future__ import annotations

import html

from splash.report.estimates import Estimate
from splash.tune.levels import Level
from splash.tune.measure import Measure
from splash.tune.page import levels_figure, tune_page
from splash.tune.search import TunePlan, TuneResult
from splash.tune.verdict import closest_sentence, finalist_sentence, met, verdict_sentences

LEVELS = (Level(("random", "random")), Level(("greedy", "greedy")), Level(("expectimax",) * 2))


def design(edges: list[tuple[float, float, float]], length: float, **values: object) -> Measure:
    levels = tuple(
        {
            "first_seat_advantage": Estimate(value, low, high, 2900),
            "duration_turns": Estimate(length, length - 1, length + 1, 2900),
        }
        for value, low, high in edges
    )
    widest = max(levels, key=lambda level: abs(level["first_seat_advantage"].value))
    return Measure(dict(values), (widest["first_seat_advantage"],), 0.0, 3 * 2900, levels)


DRAFT = design([(0.03, 0.01, 0.05), (0.11, 0.09, 0.13), (0.15, 0.10, 0.20)], 150.0)
FAIR = design(
    [(0.004, -0.014, 0.022), (0.01, -0.008, 0.028), (0.0, -0.029, 0.029)],
    144.0,
    **{"options.turn_order": "snake"},
)
CLOSE = design(
    [(0.004, -0.014, 0.022), (0.02, 0.002, 0.038), (0.0, -0.029, 0.029)],
    150.0,
    **{"options.turn_order": "rotate"},
)
LONG = design(
    [(0.004, -0.014, 0.022), (0.01, -0.008, 0.028), (0.0, -0.029, 0.029)],
    180.0,
    **{"options.turn_order": "seat"},
)


def test_met_wants_every_levels_interval_inside_3_points_and_the_length_within_15_percent() -> None:
    assert met(FAIR, DRAFT, LEVELS)
    assert not met(CLOSE, DRAFT, LEVELS)  # greedy's interval reaches +3.8
    assert not met(LONG, DRAFT, LEVELS)  # 20 % longer at greedy


def test_a_finalist_that_met_them_gets_one_sentence_with_its_intervals() -> None:
    text = finalist_sentence(FAIR, DRAFT, LEVELS).render()
    assert text == (
        "options.turn_order=snake: met: first-team edge within ±3 points at all 3 levels (95 %: "
        "random +0.4 [-1.4, +2.2], 2900 games; greedy +1.0 [-0.8, +2.8], 2900 games; "
        "expectimax +0.0 [-2.9, +2.9], 2900 games), games 4 % shorter than the draft's at "
        "greedy."
    )
    assert "not within ±15 %" in finalist_sentence(LONG, DRAFT, LEVELS).render()


def test_without_a_finalist_that_met_them_the_closest_names_its_level() -> None:
    sentence = closest_sentence([CLOSE, LONG], DRAFT, LEVELS)
    assert sentence is not None
    assert sentence.render() == (
        "No candidate met the targets at level greedy; the closest (options.turn_order=rotate) left "
        "+2.0 [+0.2, +3.8]."
    )
    assert closest_sentence([FAIR, CLOSE], DRAFT, LEVELS) is None
    only_long = closest_sentence([LONG], DRAFT, LEVELS)
    assert only_long is not None and "20 % longer" in only_long.render()


def test_the_page_plots_every_level_and_ends_its_fairness_with_the_sentences() -> None:
    plan = TunePlan.of(
        "bash",
        targets=["|first_seat_advantage|<=0.03"],
        vary=["options.turn_order=seat,rotate,snake"],
        skills=["random", "greedy", "expectimax"],
        budget=10**6,
    )
    result = TuneResult(plan, (FAIR, CLOSE), (FAIR, CLOSE), draft=DRAFT)
    sentences = [s.render() for s in verdict_sentences(result)]
    assert len(sentences) == 2 and sentences[0].startswith("options.turn_order=snake: met")
    figure = levels_figure(result)
    assert len(figure.axes) == 2
    page = tune_page(result).render()
    assert "Fairness at every level" in page and html.escape(sentences[1]) in page
