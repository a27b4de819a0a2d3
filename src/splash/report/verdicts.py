"""The conclusions of a report, in words: each tested quantity is balanced, imbalanced or
undecided (:func:`conclude`, :func:`summary_section`).

A *tested quantity* (:class:`Quantity`) is a difference from what a fair game gives (the first
team's win rate less its fair share, a card's effect on the win rate), with its 95 % interval
and the p-value of its test.  Against a tolerance ``δ`` (3 points by default):

- **balanced**: the 95 % interval lies inside ``±δ``;
- **imbalanced**: otherwise, when the test's p-value is below 0.05 after Holm's correction
  over every quantity of the summary;
- **undecided**: otherwise; then the number of games at which the test would find a
  difference of ``δ`` with 80 % power, at the level ``0.05/m`` Holm's correction applies
  first (:mod:`splash.report.power`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from splash.core.errors import OptionError
from splash.core.i18n import Message, message
from splash.report.html import Page
from splash.report.power import ALPHA, POWER, holm_level
from splash.sim.stats import holm

TOLERANCE_POINTS = 3.0
"""The default tolerance ``δ``, in points (hundredths)."""

VerdictKind = Literal["balanced", "imbalanced", "undecided"]

WORDS: dict[VerdictKind, Message] = {
    "balanced": message("balanced"),
    "imbalanced": message("imbalanced"),
    "undecided": message("undecided"),
}


def tolerance(points: float) -> float:
    """The tolerance ``δ`` as a fraction from ``--tolerance`` in points (``3`` is 0.03);
    an :class:`OptionError` unless ``0 < points < 100``."""
    number = isinstance(points, int | float) and not isinstance(points, bool)
    if not (number and math.isfinite(points) and 0.0 < points < 100.0):
        raise OptionError(
            "--tolerance", points, message("must be a number of points above 0 and below 100")
        )
    return points / 100.0


@dataclass(frozen=True)
class Quantity:
    """A quantity tested against what a fair game gives."""

    label: Message
    """What it is (``first-seat advantage (team A)``)."""
    observed: Message
    """What was observed, in words with its counts."""
    difference: float
    """The difference from the fair value (a fraction)."""
    low: float
    high: float
    """Its 95 % interval."""
    p_value: float
    test: Message
    """The test's name (``exact binomial test``)."""
    games_for: Callable[[float, float], int | None]
    """The games in all at which the test finds a difference ``δ`` at the level ``alpha`` with
    80 % power (``(δ, alpha) -> games``; ``None`` when it cannot be said)."""


@dataclass(frozen=True)
class Verdict:
    """What a tested quantity comes to against the tolerance."""

    tested: Quantity
    kind: VerdictKind
    adjusted: float
    """The p-value after Holm's correction over the ``tests`` quantities."""
    tests: int
    games_needed: int | None
    """Undecided: the games in all for 80 % power against a difference of ``δ``."""

    def text(self, delta: float) -> Message:
        """The verdict in one sentence, with its numbers and its test."""
        t = self.tested
        parts: dict[str, object] = {
            "label": t.label,
            "verdict": WORDS[self.kind],
            "observed": t.observed,
            "difference": _points(t.difference),
            "low": _points(t.low),
            "high": _points(t.high),
            "test": t.test,
            "p": _p(t.p_value),
            "adjusted": _p(self.adjusted),
            "tests": self.tests,
        }
        sentence = message(
            "{label}: {verdict} — {observed}: {difference} points (95 % interval {low} to "
            "{high}); {test}, p = {p}, {adjusted} after Holm's correction (m = {tests}).",
            **parts,
        )
        if self.kind != "undecided":
            return sentence
        if self.games_needed is None:
            return message(
                "{sentence} How many games would decide it cannot be said.", sentence=sentence
            )
        return message(
            "{sentence} About {games} games in all would find a difference of {delta} points "
            "with {power} % power (at the level 0.05/{tests}).",
            sentence=sentence,
            games=self.games_needed,
            delta=_number(100 * delta),
            power=_number(100 * POWER),
            tests=self.tests,
        )


def _number(value: float) -> str:
    return f"{value:g}"


def _points(value: float) -> str:
    return f"{100 * value:+.1f}" if math.isfinite(value) else "\u2013"


def _p(value: float) -> str:
    return f"{value:.2g}" if math.isfinite(value) else "\u2013"


def conclude(tested: Sequence[Quantity], delta: float) -> list[Verdict]:
    """The verdict on each of ``tested`` against the tolerance ``delta`` (a fraction), Holm's
    correction taken over all of them."""
    adjusted = holm([t.p_value for t in tested])
    tests = sum(1 for t in tested if math.isfinite(t.p_value))
    verdicts = []
    for t, p in zip(tested, adjusted, strict=True):
        kind: VerdictKind
        needed = None
        if -delta < t.low and t.high < delta:
            kind = "balanced"
        elif math.isfinite(p) and p < ALPHA:
            kind = "imbalanced"
        else:
            kind = "undecided"
            needed = t.games_for(delta, holm_level(max(1, tests)))
        verdicts.append(Verdict(t, kind, p, tests, needed))
    return verdicts


ORDER: tuple[VerdictKind, ...] = ("imbalanced", "undecided", "balanced")


def summary_lines(verdicts: Sequence[Verdict], delta: float) -> list[Message]:
    """The summary in words: one line of counts, then one per verdict, imbalanced first."""
    counts = {kind: sum(1 for v in verdicts if v.kind == kind) for kind in ORDER}
    head = message(
        "{count} quantities tested against a tolerance of ±{delta} points: {imbalanced} "
        "imbalanced, {undecided} undecided, {balanced} balanced.",
        count=len(verdicts),
        delta=_number(100 * delta),
        **counts,
    )
    ordered = sorted(verdicts, key=lambda v: ORDER.index(v.kind))
    return [head, *(v.text(delta) for v in ordered)]


def summary_section(page: Page, verdicts: Sequence[Verdict], delta: float) -> None:
    """The summary at the top of a page."""
    section = page.section(message("Summary"), anchor="summary")
    head, *lines = summary_lines(verdicts, delta)
    section.paragraph(head)
    ordered = sorted(verdicts, key=lambda v: ORDER.index(v.kind))
    section.items(lines, emphasis=[v.kind == "imbalanced" for v in ordered])
    section.paragraph(
        message(
            "A quantity is balanced when its 95 % interval lies inside ±{delta} points (the "
            "tolerance, --tolerance), imbalanced when its test gives p < 0.05 after Holm's "
            "correction over the tests of this summary (m = {tests}), and otherwise "
            "undecided; the games an undecided quantity needs are those at which its test "
            "finds a difference of {delta} points with 80 % power at the level 0.05/m, where "
            "Holm's correction starts (normal approximation of the test). A card's effect is "
            "an association, not a cause.",
            delta=_number(100 * delta),
            tests=max((v.tests for v in verdicts), default=0),
        ),
        note=True,
    )
