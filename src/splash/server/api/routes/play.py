"""``/ws/rooms/{room_id}``: the play socket (protocol ``splash/ws/1``, docs/protocol.md).

The first message joins: with a seat's token, the referee's token, or none (a spectator).
The token travels inside the message, never in the URL, so that no access log holds it.
"""

from __future__ import annotations

import json
import logging

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketState

from splash.core.actions import Json
from splash.server.api.deps import HubDep, SettingsDep, locale_of
from splash.server.handlers import handle
from splash.server.hub import RoomNotFoundError
from splash.server.options import Member
from splash.server.protocol import (
    CLOSE_BAD_JOIN,
    CLOSE_BAD_TOKEN,
    CLOSE_NO_ROOM,
    CLOSE_ROOM_CLOSED,
    ProtocolError,
    error_message,
    parse_client_message,
)

router = APIRouter(tags=["play"])
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


@router.websocket("/ws/rooms/{room_id}")
async def play(websocket: WebSocket, room_id: str, hub: HubDep, settings: SettingsDep) -> None:
    """Join a room, then exchange ``splash/ws/1`` messages until the client leaves."""
    locale = locale_of(websocket.query_params.get("lang"), websocket.headers.get("accept-language"))
    await websocket.accept()

    async def send(doc: dict[str, Json]) -> None:
        if websocket.application_state == WebSocketState.CONNECTED:
            await websocket.send_text(json.dumps(doc))

    async def disconnect(code: int) -> None:
        if websocket.application_state == WebSocketState.CONNECTED:
            await websocket.close(code)

    async def refuse(error: ProtocolError, code: int, ref: Json = None) -> None:
        await send(error_message(error, locale, ref))
        await disconnect(code)

    try:
        room = await hub.get(room_id)
    except RoomNotFoundError:
        await refuse(ProtocolError("room_not_found", room=room_id), CLOSE_NO_ROOM)
        return
    member = Member("spectator", None, locale, send, disconnect=disconnect)
    raw = await _receive(websocket)
    if raw is None:
        return
    try:
        doc = parse_client_message(raw, limit=settings.max_message_bytes)
        if doc["type"] != "join":
            raise ProtocolError("join_first", doc)
        token = doc.get("token")
        if token is not None and not isinstance(token, str):
            raise ProtocolError("bad_field", doc, field="token")
        if isinstance(doc.get("lang"), str):
            member.locale = locale = locale_of(doc["lang"], None)
        await hub.join(room, member, token)
    except ProtocolError as error:
        await refuse(error, JOIN_CLOSE_CODES.get(error.code, CLOSE_BAD_JOIN))
        return
    try:
        while True:
            raw = await _receive(websocket)
            if raw is None:
                break
            ref: Json = None
            try:
                doc = parse_client_message(raw, limit=settings.max_message_bytes)
                ref = doc.get("ref") if isinstance(doc.get("ref"), str | int) else None
                await handle(room, member, doc)
            except ProtocolError as error:
                await send(error_message(error, member.locale, ref))
            except Exception:
                log.exception("room %s: a message could not be handled", room.id)
                await send(error_message(ProtocolError("internal"), member.locale, ref))
    finally:
        await hub.leave(room, member)
