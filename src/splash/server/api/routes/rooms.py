"""``/api/rooms``: create a room, list the rooms, read one."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, status

from splash.core.errors import ConfigError
from splash.core.i18n import message
from splash.server import storage
from splash.server.api.deps import HubDep, LocaleDep, SettingsDep, http_error
from splash.server.hub import RoomHub, RoomNotFoundError
from splash.server.options import RoomOptions
from splash.server.schemas import RoomCreate, RoomCreated, RoomPublic, SeatPublic
from splash.server.storage import RoomRow

router = APIRouter(prefix="/api/rooms", tags=["rooms"])


async def room_public(hub: RoomHub, row: RoomRow) -> RoomPublic:
    """A room as everyone may see it, from memory when loaded, else from storage."""
    room = hub.cached(row.id)
    if room is not None:
        seats = [SeatPublic.model_validate(s) for s in room.seats_public()]
        actions: int | None = room.index
        state = room.status
    else:
        rows = await asyncio.to_thread(
            storage.list_seats, engine=hub.runtime.engine, room_id=row.id
        )
        seats = [
            SeatPublic(seat=s.seat, kind=s.kind, name=s.name, bot=s.bot, connected=False)
            for s in rows
        ]
        actions, state = None, row.status
    return RoomPublic(
        id=row.id,
        game=row.game,
        mode=row.mode,
        settings=row.settings,
        name=row.name,
        status=state,
        options=RoomOptions.model_validate(row.options),
        seats=seats,
        actions=actions,
        created_at=row.created_at,
    )


@router.post("", status_code=status.HTTP_201_CREATED)
async def create_room(body: RoomCreate, hub: HubDep, lang: LocaleDep) -> RoomCreated:
    """Create a room; a bad setting or bot is a 422 whose message names it."""
    try:
        room, referee_token = await hub.create(
            game_id=body.game,
            mode=body.mode,
            settings=body.settings,
            options=body.options,
            name=body.name,
            bots=body.bots,
        )
    except ConfigError as error:
        raise http_error(422, "bad_option", error.text, lang) from None
    return RoomCreated(room=await room_public(hub, room.row), referee_token=referee_token)


@router.get("")
async def list_rooms(hub: HubDep, settings: SettingsDep) -> list[RoomPublic]:
    """The newest rooms first."""
    rows = await hub.list(settings.max_rooms_listed)
    return [await room_public(hub, row) for row in rows]


@router.get("/{room_id}")
async def read_room(room_id: str, hub: HubDep, lang: LocaleDep) -> RoomPublic:
    """One room."""
    try:
        room = await hub.get(room_id)
    except RoomNotFoundError:
        raise http_error(
            404, "room_not_found", message("no room {room!r}", room=room_id), lang
        ) from None
    return await room_public(hub, room.row)
