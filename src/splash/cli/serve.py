"""``splash serve``: run the play server (rooms, seats, WebSocket play) with uvicorn."""

from __future__ import annotations

from typing import Annotated

import typer

from splash.core.i18n import N_


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
) -> None:
    """Serve the play server: a lobby at /, the API under /api, games over /ws."""
    import uvicorn

    from splash.server.app import create_app
    from splash.server.settings import ServerSettings

    settings = ServerSettings(
        database_url=db,
        host=host,
        port=port,
        turn_timer_s=turn_timer,
        workers=workers,
        max_open_rooms=max_open_rooms,
        room_creations_per_minute=room_creations_per_minute,
        idle_room_close_s=idle_room_close_s,
    )
    uvicorn.run(create_app(settings), host=settings.host, port=settings.port)
