"""The ``splash`` command: global options and one sub-command per game."""

from __future__ import annotations

import enum
import os
from importlib import metadata
from typing import Annotated

import typer

from splash.cli import db
from splash.cli.compare import compare_command
from splash.cli.games import GAME_COMMANDS, simulate_all_command
from splash.cli.help_text import LocalisedGroup
from splash.cli.ladder import ladder_command
from splash.cli.report import report_command
from splash.cli.serve import serve_command
from splash.cli.sweep import sweep_command
from splash.cli.train import app as train_app
from splash.cli.tune import tune_command
from splash.cli.verify import verify_command
from splash.core.i18n import N_, set_locale

DISTRIBUTION = "splash-games"

app = typer.Typer(
    name="splash",
    cls=LocalisedGroup,
    help=N_("Splash! and Splash & Bash: play, referee, simulate."),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)
for game_id, commands in GAME_COMMANDS.items():
    app.add_typer(commands.app, name=game_id)
app.command(
    "simulate",
    help=N_("Play bot games on a backend, store one row per game, summarise wins and lengths."),
)(simulate_all_command)
app.command(
    "ladder",
    help=N_("Play a round robin between bots; report win rates, Elo and each level's test."),
)(ladder_command)
app.command(
    "sweep",
    help=N_(
        "Play every combination of the --vary values with the same seeds; test what each"
        " change does to balance and game length."
    ),
)(sweep_command)
app.command(
    "tune",
    help=N_("Search settings that meet targets on the metrics of the report."),
)(tune_command)
app.command(
    "report",
    help=N_("Write the designer's balance report (one HTML page with plots) of simulated games."),
)(report_command)
app.command(
    "compare",
    help=N_("Compare two designs: each metric with its interval, the difference and its test."),
)(compare_command)
app.command(
    "serve", help=N_("Serve the play server: a lobby at /, the API under /api, games over /ws.")
)(serve_command)
app.command(
    "verify",
    help=N_(
        "Check a finished game's chance: its commitment, then each draw, ruling and bot"
        " decision of its replay derived again."
    ),
)(verify_command)
app.add_typer(db.app, name="db")
app.add_typer(train_app, name="train")


class Lang(enum.StrEnum):
    """The languages of the messages."""

    EN = "en"
    FR = "fr"
    CS = "cs"
    IT = "it"


def _version(value: bool) -> None:
    if value:
        typer.echo(f"splash {metadata.version(DISTRIBUTION)}")
        raise typer.Exit()


@app.callback()
def root(
    lang: Annotated[
        Lang | None,
        typer.Option(
            help=N_("Language of the messages (default: from LANG)."),
            show_default=False,
            is_eager=True,
        ),
    ] = None,
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help=N_("Print the version and stop.")
        ),
    ] = False,
) -> None:
    """Splash! and Splash & Bash: play, referee, simulate."""
    set_locale(lang.value if lang is not None else os.environ.get("LANG", "en"))


def main() -> None:
    """The console script."""
    app()
