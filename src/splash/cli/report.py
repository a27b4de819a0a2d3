"""``splash report RESULTS.parquet ... -o report.html``: the designer's balance report.

Reads one or more results files of ``splash simulate`` (of the same game: games at different
steadiness, say) and writes one self-contained HTML page with plots
(:mod:`splash.report.balance`).  The report modules are imported when the command runs:
pandas, pyarrow and matplotlib take a while to load.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from splash.cli.common import guarded, make_console, say
from splash.core.i18n import N_, Message, message
from splash.report.html import write_page
from splash.report.verdicts import TOLERANCE_POINTS, tolerance


def write_report(
    paths: list[Path],
    out: Path,
    title: str | None = None,
    *,
    tolerance_points: float = TOLERANCE_POINTS,
) -> tuple[int, list[Message]]:
    """Read ``paths``, write the report to ``out``; returns the number of games and the
    summary's lines (then one per level of play when the games hold several).

    Raises :class:`OptionError` for a bad tolerance (in points), :class:`DocumentError` for a
    file that cannot be read as results, or an ``out`` that cannot be written.
    """
    delta = tolerance(tolerance_points)
    import matplotlib

    matplotlib.use("Agg")
    from splash.report.balance import balance_report, report_verdicts
    from splash.report.levels import level_lines
    from splash.report.results import load_results
    from splash.report.verdicts import summary_lines

    results = load_results(paths)
    page = balance_report(results, title, delta=delta)
    write_page(out, page)
    lines = summary_lines(report_verdicts(results, delta), delta)
    return results.games, lines + level_lines(results, delta)


TitleOption = Annotated[
    str | None, typer.Option(help=N_("The title of the page (default: the game's)."))
]
ToleranceOption = Annotated[
    float,
    typer.Option(
        "--tolerance",
        help=N_(
            "The tolerance in points: a quantity whose 95 % interval lies inside ± it is balanced."
        ),
    ),
]


def report_command(
    results: Annotated[
        list[Path],
        typer.Argument(
            help=N_("Results files of splash simulate, of the same game."), show_default=False
        ),
    ],
    out: Annotated[Path, typer.Option("--out", "-o", help=N_("The HTML file to write."))] = Path(
        "report.html"
    ),
    title: TitleOption = None,
    tolerance_points: ToleranceOption = TOLERANCE_POINTS,
) -> None:
    """Write the designer's balance report (one HTML page with plots) of simulated games."""
    console = make_console()
    with guarded():
        games, lines = write_report(results, out, title, tolerance_points=tolerance_points)
        for line in lines:
            say(console, line)
        say(console, message("{games} games: the report is in {file}.", games=games, file=str(out)))
