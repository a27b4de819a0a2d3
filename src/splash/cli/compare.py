"""``splash compare A.parquet B.parquet -o compare.html``: two designs side by side.

Reads two results files of ``splash simulate`` of the same game with the same number of
teams and writes one HTML page (:mod:`splash.report.compare`): every metric of each with its
interval, the difference with its interval and a test, Holm's correction, a summary line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from splash.cli.common import guarded, make_console, say
from splash.cli.report import TitleOption, ToleranceOption
from splash.core.i18n import N_, message
from splash.report.html import write_page
from splash.report.verdicts import TOLERANCE_POINTS, tolerance


def compare_command(
    first: Annotated[
        Path, typer.Argument(help=N_("The results file of design A."), show_default=False)
    ],
    second: Annotated[
        Path, typer.Argument(help=N_("The results file of design B."), show_default=False)
    ],
    out: Annotated[Path, typer.Option("--out", "-o", help=N_("The HTML file to write."))] = Path(
        "compare.html"
    ),
    title: TitleOption = None,
    tolerance_points: ToleranceOption = TOLERANCE_POINTS,
) -> None:
    """Compare two designs: each metric with its interval, the difference and its test."""
    console = make_console()
    with guarded():
        delta = tolerance(tolerance_points)
        from splash.report.compare import compare_page, summary_line
        from splash.report.levels import level_lines
        from splash.report.results import load_results

        a, b = load_results([first]), load_results([second])
        page, found = compare_page(a, b, title=title, delta=delta)
        write_page(out, page)
        say(console, summary_line(found))
        for label, results in (("A", a), ("B", b)):
            for line in level_lines(results, delta):
                say(console, f"{label}: {line.render()}")
        say(console, message("The comparison is in {file}.", file=str(out)))
