"""``splash serve``: run the play server (rooms, seats, WebSocket play) with uvicorn."""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Annotated, Any, Final

import typer

from splash.core.i18n import N_

if TYPE_CHECKING:
    from types import FrameType

    from fastapi import FastAPI

    from splash.server.settings import ServerSettings


class LogLevel(enum.StrEnum):
    """How much the server logs."""

    CRITICAL = "critical"
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"
    DEBUG = "debug"


class LogFormat(enum.StrEnum):
    """How the server writes its log lines."""

    TEXT = "text"
    JSON = "json"


GRACEFUL_SHUTDOWN_S: Final = 10.0
"""How long a stopping server (SIGTERM) waits for its connections to end before it closes
them."""
WS_PING_INTERVAL_S: Final = 2.0
"""uvicorn's own WebSocket ping: every this many seconds after the last pong, so that a
proxy in front sees traffic on every socket (docs/server.md, "Several processes")."""
WS_PING_TIMEOUT_S: Final = 2.0
"""A socket whose ping got no pong within this many seconds is dropped: a client cut off is
dropped within ``WS_PING_INTERVAL_S + WS_PING_TIMEOUT_S``, the bound of the pages' own
heartbeat (docs/protocol.md)."""


def serve_command(
    *,
    host: Annotated[
        str,
        typer.Option(
            help=N_(
                "Address to listen on. The default, 127.0.0.1, serves this machine only;"
                " 0.0.0.0 exposes the server to the network."
            )
        ),
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help=N_("Port to listen on."), min=0, max=65535)] = 8000,
    db: Annotated[
        str,
        typer.Option(
            help=N_(
                "Database URL: sqlite:///splash.db, or"
                " postgresql+psycopg://user:password@host/database."
            )
        ),
    ] = "sqlite:///splash.db",
    turn_timer: Annotated[
        float | None,
        typer.Option(
            help=N_("Default turn timer of new rooms, in seconds (none by default)."), min=0.1
        ),
    ] = None,
    workers: Annotated[
        int, typer.Option(help=N_("Threads for bots and chance draws."), min=1, max=64)
    ] = 4,
    max_open_rooms: Annotated[
        int,
        typer.Option(
            help=N_("Most rooms open at once (not ended, not closed); more are refused."), min=1
        ),
    ] = 500,
    room_creations_per_minute: Annotated[
        int,
        typer.Option(help=N_("Most rooms one client address may create in a minute."), min=1),
    ] = 20,
    idle_room_close_s: Annotated[
        float,
        typer.Option(
            help=N_(
                "Close a room after this many seconds without play and without anyone"
                " connected; 0 never closes one."
            ),
            min=0,
        ),
    ] = 86400,
    cluster: Annotated[
        bool,
        typer.Option(
            help=N_(
                "Several server processes share this PostgreSQL database: each room is"
                " served by one of them at a time (docs/server.md)."
            )
        ),
    ] = False,
    instance: Annotated[
        str | None,
        typer.Option(
            help=N_(
                "This process's name among the processes of the database (with --cluster);"
                " the host name and the port by default."
            )
        ),
    ] = None,
    log_level: Annotated[
        LogLevel, typer.Option(help=N_("How much the server logs (every request at info)."))
    ] = LogLevel.INFO,
    log_format: Annotated[
        LogFormat,
        typer.Option(
            help=N_(
                "How each log line is written: text, or json (one JSON object a line, with"
                " the time, level, event, room, seat and instance)."
            ),
            envvar="SPLASH_LOG_FORMAT",
        ),
    ] = LogFormat.TEXT,
) -> None:
    """Serve the play server: a lobby at /, the API under /api, games over /ws."""
    from pydantic import ValidationError

    from splash.server.settings import ServerSettings

    try:
        settings = ServerSettings(
            database_url=db,
            host=host,
            port=port,
            turn_timer_s=turn_timer,
            workers=workers,
            max_open_rooms=max_open_rooms,
            room_creations_per_minute=room_creations_per_minute,
            idle_room_close_s=idle_room_close_s,
            cluster=cluster,
            instance=instance,
        )
    except ValidationError as error:
        first = error.errors()[0]
        field = str(first["loc"][0]) if first["loc"] else ""
        option = OPTION_OF.get(field, "--" + field.replace("_", "-")) if field else None
        problem = str(first["msg"]).removeprefix("Value error, ")
        raise typer.BadParameter(problem, param_hint=option) from None
    serve(settings, log_level.value, log_format.value)


OPTION_OF = {"database_url": "--db", "turn_timer_s": "--turn-timer"}
"""The option of ``splash serve`` that sets a setting, where its name is not the setting's."""


def serve(settings: ServerSettings, log_level: str = "info", log_format: str = "text") -> None:
    """Run the play server of ``settings`` as ``splash serve`` does (its uvicorn options:
    :func:`uvicorn_options`) until SIGTERM or SIGINT; the server's log and uvicorn's go to
    the standard error at ``log_level``, in ``log_format`` (:mod:`splash.server.logs`)."""
    from splash.server.app import create_app

    _check_database(settings)
    if settings.cluster:
        _check_instance(settings)
    run_uvicorn(create_app(settings), **uvicorn_options(settings, log_level, log_format))


def _check_database(settings: ServerSettings) -> None:
    """Refuse to start, naming ``--db`` (its password hidden) and why, when the database
    cannot be reached or holds a store newer than this version (the server brings an older
    or empty store to its schema as it starts, and logs what it did)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import SQLAlchemyError

    from splash.server.migrate import StoreSchemaError, check_revision
    from splash.server.storage import make_engine

    url = make_url(settings.database_url)
    shown = url.render_as_string(hide_password=True)
    engine = make_engine(settings.database_url, connect_timeout=10)
    try:
        check_revision(engine)
    except SQLAlchemyError as error:
        why = str(getattr(error, "orig", None) or error).strip().splitlines()[0]
        raise typer.BadParameter(
            f"{shown}: the database cannot be reached: {why}", param_hint="--db"
        ) from None
    except StoreSchemaError as error:
        raise typer.BadParameter(f"{shown}: {error.localized()}", param_hint="--db") from None
    finally:
        engine.dispose()


def _check_instance(settings: ServerSettings) -> None:
    """Refuse to start, with a clear message, when a live process runs as this instance."""
    import psycopg

    from splash.server.leases import libpq_url
    from splash.server.storage import postgres_params

    name = settings.instance_name()
    url = libpq_url(settings.database_url)
    try:
        with psycopg.connect(url, autocommit=True, **postgres_params()) as conn:
            row = conn.execute("SELECT pg_try_advisory_lock(hashtext(%s))", (name,)).fetchone()
    except psycopg.Error as error:
        raise typer.BadParameter(f"the database cannot be reached: {error}") from None
    if row is None or not row[0]:
        raise typer.BadParameter(
            f"another server process runs as instance {name!r} on this database;"
            " give this one another --instance"
        )


def run_uvicorn(app: FastAPI, **options: Any) -> None:
    """Serve ``app`` with uvicorn until SIGTERM or SIGINT; from the signal on, the app's
    readiness route answers 503 while the connections drain."""
    import uvicorn

    class DrainingServer(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            app.state.stopping = True
            super().handle_exit(sig, frame)

    DrainingServer(uvicorn.Config(app, **options)).run()


def uvicorn_options(
    settings: ServerSettings, log_level: str = "info", log_format: str = "text"
) -> dict[str, Any]:
    """What ``splash serve`` gives uvicorn: the address, a WebSocket door that refuses a
    frame longer than the protocol's limit before reading it, without compression, that
    pings every socket and drops one that does not answer, and the log's configuration
    (uvicorn's lines in ``log_format`` too)."""
    from splash.server.logs import log_config

    return {
        "host": settings.host,
        "port": settings.port,
        "ws_max_size": settings.max_message_bytes,
        "ws_per_message_deflate": False,
        "ws_ping_interval": WS_PING_INTERVAL_S,
        "ws_ping_timeout": WS_PING_TIMEOUT_S,
        "log_level": log_level,
        "log_config": log_config(log_format, log_level, settings.instance_name()),
        "timeout_graceful_shutdown": GRACEFUL_SHUTDOWN_S,
    }
