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
from splash.core.errors import DocumentError
from splash.core.i18n import N_, message


def write_report(paths: list[Path], out: Path, title: str | None = None) -> int:
    """Read ``paths``, write the report to ``out``; returns the number of games.

    Raises :class:`DocumentError` for a file that cannot be read as results, or an ``out``
    that cannot be written.
    """
    import matplotlib

    matplotlib.use("Agg")
    from splash.report.balance import balance_report
    from splash.report.results import load_results

    results = load_results(paths)
    page = balance_report(results, title)
    try:
        out.write_text(page.render(), encoding="utf-8")
    except OSError as error:
        raise DocumentError(
            message("cannot write {file}: {error}", file=str(out), error=error.strerror)
        ) from None
    return results.games


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
    title: Annotated[
        str | None, typer.Option(help=N_("The title of the page (default: the game's)."))
    ] = None,
) -> None:
    """Write the designer's balance report (one HTML page with plots) of simulated games."""
    console = make_console()
    with guarded():
        games = write_report(results, out, title)
        say(console, message("{games} games: the report is in {file}.", games=games, file=str(out)))
