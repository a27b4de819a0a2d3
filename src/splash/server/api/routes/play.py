"""``/ws/rooms/{room_id}``: the play socket (protocol ``splash/ws/1``, docs/protocol.md).

The first message joins: with a seat's token, the referee's token, or none (a spectator).
The token travels inside the message, never in the URL, so that no access log holds it.
Every message refused gets an ``error`` message with its code, the first one included (then
the socket is closed); nothing a client sends reaches the log as a traceback.
"""

from __future__ import annotations

import logging

from fastapi import APIRouter, WebSocket

from splash.core.actions import Json
from splash.server.api.deps import (
    HubDep,
    MetricsDep,
    SettingsDep,
    locale_of,
    room_moved_response,
)
from splash.server.client_messages import JoinMessage, read_client_message
from splash.server.handlers import handle
from splash.server.hub import RoomHub, RoomMovedError, RoomNotFoundError
from splash.server.logs import about, withheld
from splash.server.metrics import Metrics
from splash.server.options import Member
from splash.server.outbox import ConnectionGoneError, Outbox
from splash.server.protocol import (
    CLOSE_BAD_JOIN,
    CLOSE_BAD_TOKEN,
    CLOSE_MOVED,
    CLOSE_NO_ROOM,
    CLOSE_ROOM_CLOSED,
    ProtocolError,
    envelope,
    error_message,
)
from splash.server.settings import ServerSettings

router = APIRouter(tags=["socket"])
log = logging.getLogger("splash.server")
JOIN_CLOSE_CODES = {"bad_token": CLOSE_BAD_TOKEN, "room_closed": CLOSE_ROOM_CLOSED}


async def _receive(websocket: WebSocket) -> str | bytes | None:
    """The next message's payload, or ``None`` once the client is gone."""
    received = await websocket.receive()
    if received["type"] == "websocket.disconnect":
        return None
    text = received.get("text")
    if text is not None:
        return str(text)
    data = received.get("bytes")
    return bytes(data) if data is not None else b""


async def _tell(member: Member, error: ProtocolError, metrics: Metrics, ref: Json = None) -> bool:
    """Send ``member`` the ``error`` message of ``error``; whether the connection is open."""
    metrics.error_sent(error.code)
    try:
        await member.send(error_message(error, member.locale, ref))
    except ConnectionGoneError:
        return False
    return True


@router.websocket("/ws/rooms/{room_id}")
async def play(
    websocket: WebSocket, room_id: str, hub: HubDep, settings: SettingsDep, metrics: MetricsDep
) -> None:
    """Join a room, then exchange ``splash/ws/1`` messages until the client leaves."""
    locale = locale_of(websocket.query_params.get("lang"), websocket.headers.get("accept-language"))
    if hub.fenced:
        # Refused before the upgrade, so that a proxy counts a failure of this process and
        # tries the next one (docs/server.md, "Several processes").
        metrics.error_sent("room_moved", "http")
        await websocket.send_denial_response(room_moved_response(room_id, locale))
        return
    await websocket.accept()
    metrics.connections_opened.inc()
    metrics.connections.inc()
    outbox = Outbox(websocket, settings.send_queue_messages)
    member = Member("spectator", None, locale, outbox.send, disconnect=outbox.close)
    try:
        await _converse(websocket, room_id, hub, settings, member, metrics=metrics)
    finally:
        metrics.connections.dec()
        await outbox.finish()


async def _moved(member: Member, room_id: str) -> None:
    """Tell ``member`` that another process serves ``room_id`` (``moved``, then 4409)."""
    try:
        await member.send(envelope("moved", room=room_id, index=None))
    except ConnectionGoneError:
        return
    await member.disconnect(CLOSE_MOVED)


async def _converse(
    websocket: WebSocket,
    room_id: str,
    hub: RoomHub,
    settings: ServerSettings,
    member: Member,
    *,
    metrics: Metrics,
) -> None:
    async def refuse(error: ProtocolError, code: int) -> None:
        await _tell(member, error, metrics)
        await member.disconnect(code)

    try:
        room = await hub.get(room_id)
    except RoomNotFoundError:
        await refuse(ProtocolError("room_not_found", room=room_id), CLOSE_NO_ROOM)
        return
    except RoomMovedError:
        await _moved(member, room_id)
        return
    except Exception as error:
        log.error(
            "room %s could not be loaded (%s)",
            room_id,
            type(error).__name__,
            extra=about(room_id) | withheld(error),
        )
        await refuse(ProtocolError("internal"), CLOSE_BAD_JOIN)
        return
    raw = await _receive(websocket)
    if raw is None:
        return
    try:
        message = read_client_message(raw, limit=settings.max_message_bytes)
        if not isinstance(message, JoinMessage):
            raise ProtocolError("join_first")
        if message.lang is not None:
            member.locale = locale_of(message.lang, None)
        room = await hub.join(room, member, message.token, message.client_seed)
    except RoomMovedError:
        await _moved(member, room_id)
        return
    except ProtocolError as error:
        await refuse(error, JOIN_CLOSE_CODES.get(error.code, CLOSE_BAD_JOIN))
        return
    except Exception as error:
        log.error(
            "room %s: a join could not be handled (%s)",
            room.id,
            type(error).__name__,
            extra=about(room.id) | withheld(error),
        )
        await refuse(ProtocolError("internal"), CLOSE_BAD_JOIN)
        return
    try:
        while (raw := await _receive(websocket)) is not None:
            ref: Json = None
            try:
                message = read_client_message(raw, limit=settings.max_message_bytes)
                ref = message.ref
                await handle(room, member, message, hub=hub)
            except ProtocolError as error:
                if not await _tell(member, error, metrics, ref):
                    break
            except ConnectionGoneError:  # a direct answer (pong) to a client that left
                break
            except Exception as error:
                log.error(
                    "room %s: a message could not be handled (%s)",
                    room.id,
                    type(error).__name__,
                    extra=about(room.id, member.seat) | withheld(error),
                )
                if not await _tell(member, ProtocolError("internal"), metrics, ref):
                    break
    finally:
        await hub.leave(room, member)
