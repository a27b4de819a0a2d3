"""``splash db``: upgrade, back up, restore and check the play server's store."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from splash.cli.common import USAGE_EXIT, error_line, make_console, say
from splash.cli.help_text import LocalisedGroup
from splash.core.errors import SplashError
from splash.core.i18n import N_

if TYPE_CHECKING:
    from sqlalchemy import Engine

app = typer.Typer(
    name="db",
    cls=LocalisedGroup,
    help=N_("Upgrade, back up, restore and check the play server's store."),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)

DbOption = Annotated[
    str,
    typer.Option(
        "--db",
        help=N_(
            "Database URL: sqlite:///splash.db, or"
            " postgresql+psycopg://user:password@host/database."
        ),
    ),
]
DEFAULT_DB = "sqlite:///splash.db"

CHECK_FAILED_EXIT = 1
"""The exit code of ``splash db check`` when it found a problem."""


def _url(db: str, *, exists: bool = True) -> str:
    """``db`` once it names a store this command can open (``exists``: an SQLite file that
    is there); else the usage error of ``--db``."""
    from splash.server.backup import sqlite_path
    from splash.server.settings import openable_database

    try:
        openable_database(db)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--db") from None
    path = sqlite_path(db)
    if exists and path is not None and not path.is_file():
        raise typer.BadParameter(f"{db}: there is no store at {str(path)!r}", param_hint="--db")
    return db


def _fail(error: SplashError) -> typer.Exit:
    error_line(make_console(stderr=True), error)
    return typer.Exit(USAGE_EXIT)


def _engine(db: str) -> Engine:
    from splash.server.storage import make_engine

    return make_engine(db)


@app.command("upgrade", help=N_("Bring the store to this version's schema; say what was done."))
def upgrade_command(db: DbOption = DEFAULT_DB) -> None:
    """Upgrade the store of ``--db`` (an empty or missing SQLite file becomes a store)."""
    from sqlalchemy.exc import SQLAlchemyError

    from splash.server.migrate import upgrade_store

    engine = _engine(_url(db, exists=False))
    try:
        done = upgrade_store(engine)
    except SplashError as error:
        raise _fail(error) from None
    except SQLAlchemyError as error:
        raise _unreachable(db, error) from None
    finally:
        engine.dispose()
    say(make_console(), done.describe())


def _unreachable(db: str, error: Exception) -> typer.BadParameter:
    from sqlalchemy.engine import make_url

    why = str(getattr(error, "orig", None) or error).strip().splitlines()[0]
    shown = make_url(db).render_as_string(hide_password=True)
    return typer.BadParameter(f"{shown}: the database cannot be reached: {why}", param_hint="--db")


@app.command("backup", help=N_("Copy the store to FILE while a server may be writing to it."))
def backup_command(
    file: Annotated[Path, typer.Argument(help=N_("The copy to write."), show_default=False)],
    db: DbOption = DEFAULT_DB,
    force: Annotated[bool, typer.Option(help=N_("Overwrite FILE if it exists."))] = False,
) -> None:
    """Back up the store of ``--db`` to ``FILE``."""
    from splash.server.backup import backup, postgresql_commands, sqlite_path

    url = _url(db)
    if sqlite_path(url) is None:
        dump, _ = postgresql_commands(url, str(file))
        say(make_console(stderr=True), f"back up a PostgreSQL store with pg_dump:\n  {dump}")
        raise typer.Exit(USAGE_EXIT)
    try:
        copied = backup(url, file, force=force)
    except SplashError as error:
        raise _fail(error) from None
    say(make_console(), f"backed up {copied.describe()}")


@app.command(
    "restore", help=N_("Replace the store by the backup FILE (no server may be using it).")
)
def restore_command(
    file: Annotated[Path, typer.Argument(help=N_("The backup to restore."), show_default=False)],
    db: DbOption = DEFAULT_DB,
) -> None:
    """Restore ``FILE`` as the store of ``--db``."""
    from splash.server.backup import postgresql_commands, restore, sqlite_path

    url = _url(db, exists=False)
    if sqlite_path(url) is None:
        _, load = postgresql_commands(url, str(file))
        say(make_console(stderr=True), f"restore a PostgreSQL store with pg_restore:\n  {load}")
        raise typer.Exit(USAGE_EXIT)
    try:
        restored = restore(url, file)
    except SplashError as error:
        raise _fail(error) from None
    say(make_console(), restored.describe())


@app.command(
    "check",
    help=N_(
        "Check the store: integrity, foreign keys, every room's log numbered without gaps,"
        " replayed through its game, ended where it says, and its seats."
    ),
)
def check_command(db: DbOption = DEFAULT_DB) -> None:
    """Check the store of ``--db``; print one line a problem and exit 1 on any."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
    from sqlalchemy.exc import SQLAlchemyError

    from splash.server.store_check import check_store

    engine = _engine(_url(db))
    console = make_console()
    try:
        with Progress(
            TextColumn("rooms"),
            BarColumn(),
            MofNCompleteColumn(),
            console=make_console(stderr=True),
        ) as bar:
            task = bar.add_task("check", total=None)
            report = check_store(
                engine, progress=lambda done, total: bar.update(task, completed=done, total=total)
            )
    except SQLAlchemyError as error:
        raise _unreachable(db, error) from None
    finally:
        engine.dispose()
    for finding in report.findings:
        say(console, finding.line())
    say(console, report.summary())
    if not report.ok:
        raise typer.Exit(CHECK_FAILED_EXIT)
