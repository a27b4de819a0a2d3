"""The ``splash`` command: global options and one sub-command per game."""

from __future__ import annotations

import enum
import os
from importlib import metadata
from typing import Annotated

import typer

from splash.cli import bash, tower
from splash.cli.ladder import ladder_command
from splash.cli.report import report_command
from splash.cli.serve import serve_command
from splash.cli.simulate_all import simulate_all_command
from splash.cli.sweep import sweep_command
from splash.core.i18n import N_, set_locale

DISTRIBUTION = "splash-games"

app = typer.Typer(
    name="splash",
    help=N_("Splash! and Splash & Bash: play, referee, simulate."),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)
app.add_typer(bash.app, name="bash")
app.add_typer(tower.app, name="tower")
app.command("simulate")(simulate_all_command)
app.command("ladder")(ladder_command)
app.command("sweep")(sweep_command)
app.command("report")(report_command)
app.command("serve")(serve_command)


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
        typer.Option(help=N_("Language of the messages (default: from LANG)."), show_default=False),
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
