"""The designer's balance report of ``splash simulate`` results: :func:`balance_report`.

One self-contained HTML page: the runs read, who wins (per seat and team, the first seat's
advantage, games without a winner), the game's duration, the designer metrics Ludii
popularised, then the sections of the game (Splash & Bash: lanes, incidents, cards;
Splash!: falls by height, placements per seat, how games are won, the skill curve).
"""

from __future__ import annotations

import json

from splash.core.i18n import current_locale, message
from splash.games import GAMES
from splash.report.designer import duration_section, metrics_section
from splash.report.games import REPORTED_GAMES
from splash.report.html import Page
from splash.report.outcomes import outcome_section
from splash.report.results import Results


def balance_report(results: Results, title: str | None = None) -> Page:
    """The report page of ``results`` (``title`` replaces the default title)."""
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
    _runs_section(page, results)
    outcome_section(page, results)
    duration_section(page, results)
    metrics_section(page, results)
    REPORTED_GAMES[results.game].sections(page, results)
    return page


def _runs_section(page: Page, results: Results) -> None:
    section = page.section(message("Games read"), anchor="runs")
    section.table(
        [message("file"), message("games"), message("options (--set)"), message("bots")],
        [
            [
                run.path.name,
                run.games,
                ", ".join(
                    f"{k}={json.dumps(v)}" for k, v in sorted(json.loads(run.options).items())
                )
                or str(message("defaults")),
                ", ".join(run.bots),
            ]
            for run in results.runs
        ],
    )
    if len(results.runs) > 1:
        section.paragraph(
            message(
                "The games of every file are pooled in the sections below; only the skill "
                "curve tells the settings apart."
            ),
            note=True,
        )
