"""Dependencies of the routes: the room hub, the database engine, the client's language.

They are coroutines although none of them waits for anything: FastAPI runs a plain
function dependency in a worker thread, a hop per dependency and request.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, HTTPException, Query, Request
from fastapi.responses import JSONResponse
from sqlalchemy import Engine
from starlette.requests import HTTPConnection

from splash.core.i18n import Message, message, normalise_locale
from splash.server.hub import RoomClosedError, RoomHub, RoomNotFoundError
from splash.server.metrics import Metrics
from splash.server.protocol import ROOM_IDLE_TEXT
from splash.server.room import Room
from splash.server.settings import ServerSettings
from splash.server.throttle import CreationThrottle


async def get_hub(connection: HTTPConnection) -> RoomHub:
    """The room hub the application's lifespan started."""
    hub: RoomHub = connection.app.state.hub
    return hub


async def get_engine(request: Request) -> Engine:
    """The database engine."""
    engine: Engine = request.app.state.engine
    return engine


async def get_settings(connection: HTTPConnection) -> ServerSettings:
    """The server's settings."""
    settings: ServerSettings = connection.app.state.settings
    return settings


async def get_metrics(connection: HTTPConnection) -> Metrics:
    """The process's metrics."""
    metrics: Metrics = connection.app.state.metrics
    return metrics


async def get_throttle(request: Request) -> CreationThrottle:
    """How often each client address may create rooms."""
    throttle: CreationThrottle = request.app.state.throttle
    return throttle


async def client_address(request: Request) -> str:
    """The client's address, as the ASGI server gives it (behind a proxy, the proxy's,
    unless the server is told to trust its forwarded headers)."""
    return request.client.host if request.client is not None else "unknown"


def locale_of(lang: str | None, accept_language: str | None) -> str:
    """The language asked for: ``lang`` first, then the first of ``Accept-Language``."""
    if lang:
        return normalise_locale(lang)
    if accept_language:
        first = accept_language.split(",")[0].split(";")[0].strip()
        return normalise_locale(first)
    return normalise_locale(None)


def room_moved_response(room_id: str, locale: str) -> JSONResponse:
    """503 ``room_moved`` with ``Retry-After: 1``: another process serves ``room_id`` (or
    may, once this one is fenced off), so a proxy, or the client, tries again."""
    text = message("room {room!r} is served by another server process now: try again", room=room_id)
    return JSONResponse(
        {"detail": {"code": "room_moved", "message": text.render(locale)}},
        status_code=503,
        headers={"Retry-After": "1"},
    )


async def get_locale(
    lang: Annotated[str | None, Query(max_length=20)] = None,
    accept_language: Annotated[str | None, Header()] = None,
) -> str:
    """The client's language (en, fr, cs or it)."""
    return locale_of(lang, accept_language)


HubDep = Annotated[RoomHub, Depends(get_hub)]
EngineDep = Annotated[Engine, Depends(get_engine)]
SettingsDep = Annotated[ServerSettings, Depends(get_settings)]
MetricsDep = Annotated[Metrics, Depends(get_metrics)]
LocaleDep = Annotated[str, Depends(get_locale)]
ThrottleDep = Annotated[CreationThrottle, Depends(get_throttle)]
AddressDep = Annotated[str, Depends(client_address)]


def http_error(
    status: int,
    code: str,
    text: Message,
    locale: str,
    headers: dict[str, str] | None = None,
) -> HTTPException:
    """An HTTP error whose body is ``{"detail": {"code": ..., "message": ...}}``."""
    return HTTPException(
        status, detail={"code": code, "message": text.render(locale)}, headers=headers
    )


def closed_conflict(error: RoomClosedError, room_id: str, locale: str) -> HTTPException:
    """The 409 ``room_closed`` for a room closed by its host or for lack of activity."""
    if error.reason == "idle":
        text = Message(ROOM_IDLE_TEXT, {"room": room_id})
    else:
        text = message("room {room!r} was closed by its host", room=room_id)
    return http_error(409, "room_closed", text, locale)


async def room_or_404(hub: RoomHub, room_id: str, locale: str) -> Room:
    """The room ``room_id`` to read (loaded if need be: :meth:`RoomHub.peek`), or a 404
    ``room_not_found`` in ``locale``."""
    try:
        return await hub.peek(room_id)
    except RoomNotFoundError:
        raise http_error(
            404, "room_not_found", message("no room {room!r}", room=room_id), locale
        ) from None
