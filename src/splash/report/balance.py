"""The designer's balance report of ``splash simulate`` results: :func:`balance_report`.

One self-contained HTML page: a summary in words (:mod:`splash.report.verdicts`), the runs
read, who wins (per seat and team, the first seat's
advantage, games without a winner), the game's duration, the designer metrics Ludii
popularised, then the sections of the game (Splash & Bash: lanes, incidents, cards;
Splash!: falls by height, placements per seat, how games are won, the skill curve).
"""

from __future__ import annotations

from splash.core.i18n import current_locale, message
from splash.games import GAMES
from splash.report.designer import duration_section, metrics_section
from splash.report.games import reported
from splash.report.html import Page
from splash.report.levels import levels_section
from splash.report.outcomes import outcome_section, outcome_tests
from splash.report.results import Results
from splash.report.runs import runs_section
from splash.report.verdicts import TOLERANCE_POINTS, Verdict, conclude, summary_section


def report_verdicts(results: Results, delta: float = TOLERANCE_POINTS / 100) -> list[Verdict]:
    """The verdicts of the report's summary: the first-seat advantage, the other teams' win
    rates (more than two teams), and the game's own tested quantities (the cards)."""
    tested = outcome_tests(results) + reported(results.game).tested(results)
    return conclude(tested, delta)


def balance_report(
    results: Results, title: str | None = None, *, delta: float = TOLERANCE_POINTS / 100
) -> Page:
    """The report page of ``results`` (``title`` replaces the default title), its summary
    made against the tolerance ``delta`` (a fraction: 0.03 is 3 points)."""
    name = GAMES[results.game].name
    page = Page(
        title or str(message("{game}: balance report", game=name)), language=current_locale()
    )
    page.introduction.append(
        str(
            message(
                "{games} simulated games of {game} with {seats} seats, from {files} results "
                "file(s). Intervals are 95 %; a test is significant below 0.05.",
                games=results.games,
                game=name,
                seats=results.seats,
                files=len(results.runs),
            )
        )
    )
    summary_section(page, report_verdicts(results, delta), delta)
    levels_section(page, results, delta)
    runs_section(page, results)
    outcome_section(page, results)
    duration_section(page, results)
    metrics_section(page, results)
    reported(results.game).sections(page, results)
    return page
