"""Two designs side by side (``splash compare A.parquet B.parquet``): every metric of
:mod:`splash.report.metric_ids` on each, with its interval, the difference ``B - A`` with its
interval, a test of it, Holm's correction over the tests, and a summary line.

The two sets of games are taken as independent samples (their seeds may be the same or
not): a ``rate`` by Pearson's chi-square test with Newcombe's interval of the difference, a
``mean`` by Welch's t-test and its interval, a ``statistic`` by a permutation test of the
games (the games of both designs pooled and dealt out again, seeded) with a percentile
bootstrap interval of the difference.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from splash.core.errors import DocumentError
from splash.core.i18n import Message, current_locale, message
from splash.games import GAMES
from splash.report.estimates import (
    RESAMPLES,
    Distinct,
    Estimate,
    Floats,
    GamesTable,
    Metric,
    Reduce,
    estimate,
    games_table,
)
from splash.report.html import Cell, Page, format_number
from splash.report.levels import levels_section
from splash.report.metric_ids import table_metrics
from splash.report.outcomes import outcome_tests
from splash.report.power import ALPHA
from splash.report.results import Results
from splash.report.runs import run_row
from splash.report.verdicts import conclude, summary_lines
from splash.sim.stats import difference_interval, holm, two_proportion_test

PERMUTATIONS = 1999
"""Resamples of the permutation test of a ``statistic`` (the smallest p-value is 1/2000, still
significant after Holm's correction over the 20-odd metrics)."""

TESTS: dict[str, Message] = {
    "rate": message("Pearson's chi-square test"),
    "mean": message("Welch's t-test"),
    "statistic": message("permutation test"),
}
"""The test of each kind of metric."""


@dataclass(frozen=True)
class Compared:
    """One metric on both designs: each value, the difference ``B - A`` with its 95 %
    interval, the p-value of its test and the Holm-adjusted p-value."""

    metric: Metric
    a: Estimate
    b: Estimate
    difference: float
    low: float
    high: float
    p_value: float
    adjusted: float = math.nan

    @property
    def significant(self) -> bool:
        """The adjusted p-value is below 0.05."""
        return math.isfinite(self.adjusted) and self.adjusted < ALPHA


def check_comparable(a: Results, b: Results) -> None:
    """Refuse two designs of different games, or with different numbers of teams (their
    win rates would not match team by team): a :class:`DocumentError` naming both files."""
    first, second = a.runs[0].path, b.runs[0].path
    if a.game != b.game:
        raise DocumentError(
            message(
                "{first} holds {found} games, {second} holds {other} games: compare two "
                "designs of one game",
                first=str(first),
                found=a.game,
                second=str(second),
                other=b.game,
            )
        )
    if len(a.team_seats()) != len(b.team_seats()):
        raise DocumentError(
            message(
                "{first} has {teams} teams, {second} has {other}: compare designs with the "
                "same number of teams",
                first=str(first),
                teams=len(a.team_seats()),
                second=str(second),
                other=len(b.team_seats()),
            )
        )


def _pooled_statistic(distinct: Distinct, reduce: Reduce) -> Callable[..., Floats]:
    """``reduce`` of the second group less that of the first, each given by the indices of
    its games among the pooled games (vectorised over resamples)."""

    def statistic(first: Floats, second: Floats, axis: int = -1) -> Floats:
        ia = np.moveaxis(first, axis, -1).astype(np.int64)
        ib = np.moveaxis(second, axis, -1).astype(np.int64)
        rows = distinct.rows
        return np.asarray(
            reduce(rows, distinct.counts(ib)) - reduce(rows, distinct.counts(ia)), np.float64
        )

    return statistic


def _compare_statistic(
    metric: Metric, a: GamesTable, b: GamesTable, seed: int
) -> tuple[float, float, float]:
    from scipy import stats

    rows_a, rows_b = metric.per_game(a), metric.per_game(b)
    if (
        rows_a is None
        or rows_b is None
        or min(len(rows_a), len(rows_b)) < 2
        or metric.reduce is None
    ):
        return math.nan, math.nan, math.nan
    pooled = np.concatenate([rows_a, rows_b])
    statistic = _pooled_statistic(Distinct.of(pooled), metric.reduce)
    first = np.arange(len(rows_a))
    second = np.arange(len(rows_a), len(pooled))
    rng = np.random.default_rng(seed)
    interval = stats.bootstrap(
        (first, second),
        statistic,
        vectorized=True,
        n_resamples=RESAMPLES,
        batch=200,
        method="percentile",
        rng=rng,
    ).confidence_interval
    tested = stats.permutation_test(
        (first, second),
        statistic,
        permutation_type="independent",
        vectorized=True,
        n_resamples=PERMUTATIONS,
        batch=500,
        rng=rng,
    )
    return float(interval.low), float(interval.high), float(tested.pvalue)


def compare_metric(metric: Metric, a: GamesTable, b: GamesTable, *, seed: int = 0) -> Compared:
    """``metric`` on both tables and the test of ``B - A`` (``seed`` seeds the resampling of
    a ``statistic``); the adjusted p-value is left to :func:`compare_tables`."""
    ea, eb = estimate(metric, a, seed=seed), estimate(metric, b, seed=seed)
    nan = math.nan
    if not (ea.available and eb.available):
        return Compared(metric, ea, eb, nan, nan, nan, nan)
    difference = eb.value - ea.value
    match metric.kind:
        case "rate":
            va, vb = metric.per_game(a), metric.per_game(b)
            if va is None or vb is None:
                return Compared(metric, ea, eb, nan, nan, nan, nan)
            ca, cb = int(va.sum()), int(vb.sum())
            # The designs have the same teams, hence the same reference: B - A is a
            # difference of the two rates.
            _, low, high = difference_interval(cb, len(vb), ca, len(va))
            p = two_proportion_test(cb, len(vb), ca, len(va))
            return Compared(metric, ea, eb, difference, low, high, p)
        case "mean":
            from scipy import stats

            va, vb = metric.per_game(a), metric.per_game(b)
            if va is None or vb is None:
                return Compared(metric, ea, eb, nan, nan, nan, nan)
            xa, xb = va[np.isfinite(va)], vb[np.isfinite(vb)]
            if min(len(xa), len(xb)) < 2 or (xa.var() == 0 and xb.var() == 0):
                same = float(xa.mean()) == float(xb.mean())
                return Compared(metric, ea, eb, difference, nan, nan, 1.0 if same else nan)
            result = stats.ttest_ind(xb, xa, equal_var=False)
            interval = result.confidence_interval(0.95)
            return Compared(
                metric,
                ea,
                eb,
                difference,
                float(interval.low),
                float(interval.high),
                float(result.pvalue),
            )
        case "statistic":
            low, high, p = _compare_statistic(metric, a, b, seed)
            return Compared(metric, ea, eb, difference, low, high, p)


def compare_tables(a: GamesTable, b: GamesTable, *, seed: int = 0) -> list[Compared]:
    """Every metric of the tables compared, Holm's correction over the tests made."""
    found = [compare_metric(m, a, b, seed=seed + index) for index, m in enumerate(table_metrics(a))]
    adjusted = holm([c.p_value for c in found])
    return [replace(c, adjusted=p) for c, p in zip(found, adjusted, strict=True)]


def _value(found: Estimate) -> str:
    if not found.available:
        return format_number(math.nan)
    if not (math.isfinite(found.low) and math.isfinite(found.high)):
        return format_number(found.value)
    return (
        f"{format_number(found.value)} ({format_number(found.low)} … {format_number(found.high)})"
    )


def _signed(value: float) -> str:
    text = format_number(value)
    return f"+{text}" if math.isfinite(value) and value > 0 else text


def _difference(c: Compared) -> str:
    if not math.isfinite(c.difference):
        return format_number(math.nan)
    if not (math.isfinite(c.low) and math.isfinite(c.high)):
        return _signed(c.difference)
    return f"{_signed(c.difference)} ({_signed(c.low)} … {_signed(c.high)})"


def _p(value: float) -> str:
    return f"{value:.2g}" if math.isfinite(value) else format_number(math.nan)


def summary_line(found: Sequence[Compared]) -> Message:
    """Which metrics differ between the designs after Holm's correction, in one sentence."""
    tested = sum(1 for c in found if math.isfinite(c.p_value))
    differ = [c for c in found if c.significant]
    if not differ:
        return message(
            "No metric differs between A and B after Holm's correction over the {tests} tests.",
            tests=tested,
        )
    return message(
        "B differs from A in {count} of the {tests} metrics tested, after Holm's correction: "
        "{metrics}.",
        count=len(differ),
        tests=tested,
        metrics="; ".join(
            f"{c.metric.id} {_signed(c.difference)} (p = {_p(c.adjusted)})" for c in differ
        ),
    )


def compare_page(
    a: Results, b: Results, *, title: str | None = None, delta: float = 0.03, seed: int = 0
) -> tuple[Page, list[Compared]]:
    """The page comparing the designs of ``a`` and ``b`` (checked with
    :func:`check_comparable`), with each design's verdicts against the tolerance ``delta``."""
    from splash.sim.runner import shipped_data

    check_comparable(a, b)
    name = GAMES[a.game].name
    page = Page(
        title or str(message("{game}: two designs compared", game=name)),
        language=current_locale(),
    )
    found = compare_tables(games_table(a), games_table(b), seed=seed)
    page.introduction.append(
        str(
            message(
                "A: {a} ({a_games} games); B: {b} ({b_games} games). Intervals are 95 %; each "
                "difference B - A is tested as between independent games, with Holm's "
                "correction over the tests.",
                a=str(a.runs[0].path),
                a_games=a.games,
                b=str(b.runs[0].path),
                b_games=b.games,
            )
        )
    )
    summary = page.section(message("Summary"), anchor="summary")
    summary.paragraph(summary_line(found))
    for label, results in (("A", a), ("B", b)):
        lines = summary_lines(conclude(outcome_tests(results), delta), delta)
        summary.items([f"{label}: {line}" for line in lines[1:]])
    designs = page.section(message("Designs"), anchor="designs")
    shipped = shipped_data(a.game)
    designs.table(
        [
            message("design"),
            message("file"),
            message("games"),
            message("options (--set)"),
            message("bots"),
            message("data files"),
        ],
        [[label, *run_row(results.runs[0], shipped)] for label, results in (("A", a), ("B", b))],
    )
    for label, results in (("A", a), ("B", b)):
        levels_section(page, results, delta, heading=label)
    section = page.section(message("Metrics"), anchor="metrics")
    rows: list[list[Cell]] = [
        [
            c.metric.id,
            str(c.metric.unit),
            _value(c.a),
            _value(c.b),
            _difference(c),
            str(TESTS[c.metric.kind]),
            _p(c.p_value),
            _p(c.adjusted),
        ]
        for c in found
    ]
    section.table(
        [
            message("metric"),
            message("unit"),
            message("A (95 % interval)"),
            message("B (95 % interval)"),
            message("B - A (95 % interval)"),
            message("test"),
            message("p-value"),
            message("p (Holm)"),
        ],
        rows,
        emphasis=[c.significant for c in found],
    )
    page.section(message("Definitions"), anchor="definitions").definitions(
        [(c.metric.id, c.metric.definition) for c in found]
        + [(TESTS[kind], _TEST_DEFINITIONS[kind]) for kind in ("rate", "mean", "statistic")]
    )
    return page, found


_TEST_DEFINITIONS: dict[str, Message] = {
    "rate": message(
        "A share of games: the two shares compared by Pearson's chi-square test of the 2x2 "
        "table (no continuity correction); the difference with Newcombe's hybrid score "
        "interval."
    ),
    "mean": message(
        "A mean over games: Welch's t-test (unequal variances) and its interval of the "
        "difference of the means; games without the value are left out."
    ),
    "statistic": message(
        "A function of all the games (Balance, OutcomeUniformity): the games of both designs "
        "pooled and dealt out again at random ({resamples} times, seeded) for the p-value; "
        "the 95 % percentile bootstrap interval of the difference ({bootstrap} resamples).",
        resamples=PERMUTATIONS,
        bootstrap=RESAMPLES,
    ),
}
