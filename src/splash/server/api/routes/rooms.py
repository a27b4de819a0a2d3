"""``/api/rooms``: create a room, list the rooms, read one, close one (its host only)."""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Depends, status
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from splash.core.errors import ConfigError
from splash.core.fairness import commitment
from splash.core.i18n import message
from splash.server import storage
from splash.server.api.deps import (
    AddressDep,
    HubDep,
    LocaleDep,
    SettingsDep,
    ThrottleDep,
    closed_conflict,
    http_error,
    room_or_404,
)
from splash.server.hub import (
    HostTokenError,
    RoomClosedError,
    RoomHub,
    RoomNotFoundError,
    TooManyRoomsError,
)
from splash.server.options import RoomOptions
from splash.server.room import Room
from splash.server.schemas import RoomCreate, RoomCreated, RoomPublic, SeatPublic
from splash.server.storage import RoomRow, SeatRow

router = APIRouter(prefix="/api/rooms", tags=["rooms"])

HostCredentials = Annotated[
    HTTPAuthorizationCredentials | None,
    Depends(HTTPBearer(auto_error=False, description="The room's host token.")),
]


async def room_public(
    hub: RoomHub,
    row: RoomRow,
    room: Room | None = None,
    stored: tuple[list[SeatRow], bool] | None = None,
) -> RoomPublic:
    """A room as everyone may see it, from memory when loaded, else from storage
    (``stored``: its seats' rows and whether a live process serves it, when read already;
    a seat is marked connected when that process recorded connections to it)."""
    room = room or hub.cached(row.id)
    if room is not None:
        seats = [SeatPublic.model_validate(s) for s in room.seats_public()]
        actions: int | None = room.index
        state = room.status
    else:
        if stored is None:
            found = await _stored_seats(hub, [row.id])
            stored = found[row.id]
        rows, served = stored
        seats = [
            SeatPublic(
                client_seed=s.client_seed,
                seat=s.seat,
                kind=s.kind,
                name=s.name,
                bot=s.bot,
                connected=served and s.connections > 0,
            )
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
        commitment=commitment(bytes.fromhex(row.secret)) if row.secret else None,
    )


async def _stored_seats(hub: RoomHub, room_ids: list[str]) -> dict[str, tuple[list[SeatRow], bool]]:
    """The stored seats of ``room_ids`` and whether a live process serves each room: with
    several processes, the one whose lease has not run out; alone, none (this process
    holds every room that is served, in memory)."""
    engine = hub.runtime.engine
    seats = await asyncio.to_thread(storage.seats_of, engine=engine, room_ids=room_ids)
    served: set[str] = set()
    if hub.leases is not None:
        served = await asyncio.to_thread(storage.held_rooms, engine=engine, room_ids=room_ids)
    return {room_id: (seats[room_id], room_id in served) for room_id in room_ids}


@router.post("", status_code=status.HTTP_201_CREATED)
async def create_room(
    body: RoomCreate,
    hub: HubDep,
    lang: LocaleDep,
    throttle: ThrottleDep,
    address: AddressDep,
) -> RoomCreated:
    """Create a room; a bad setting or bot is a 422 whose message names it.

    Refused with 429 ``too_many_creations`` (and ``Retry-After``) when this client address
    created ``room_creations_per_minute`` rooms in the last minute, and with 503
    ``too_many_rooms`` when ``max_open_rooms`` rooms are open.
    """
    wait = throttle.hit(address)
    if wait is not None:
        raise http_error(
            429,
            "too_many_creations",
            message(
                "too many rooms created from this address: try again in {seconds} s",
                seconds=wait,
            ),
            lang,
            headers={"Retry-After": str(wait)},
        )
    try:
        room, host_token, referee_token = await hub.create(
            game_id=body.game,
            mode=body.mode,
            settings=body.settings,
            options=body.options,
            name=body.name,
            bots=body.bots,
        )
    except ConfigError as error:
        raise http_error(422, "bad_option", error.text, lang) from None
    except TooManyRoomsError as error:
        raise http_error(
            503,
            "too_many_rooms",
            message(
                "the server has {limit} rooms open, its limit: try again when one has ended",
                limit=error.limit,
            ),
            lang,
        ) from None
    return RoomCreated(
        room=await room_public(hub, room.row),
        host_token=host_token,
        referee_token=referee_token,
    )


@router.get("")
async def list_rooms(hub: HubDep, settings: SettingsDep) -> list[RoomPublic]:
    """The newest rooms first (closed rooms are not listed)."""
    rows = await hub.list(settings.max_rooms_listed)
    stored = await _stored_seats(hub, [row.id for row in rows if hub.cached(row.id) is None])
    return [await room_public(hub, row, stored=stored.get(row.id)) for row in rows]


@router.get("/{room_id}")
async def read_room(room_id: str, hub: HubDep, lang: LocaleDep) -> RoomPublic:
    """One room (a closed one too, with the status ``closed``)."""
    room = await room_or_404(hub, room_id, lang)
    return await room_public(hub, room.row, room)


@router.delete("/{room_id}")
async def close_room(
    room_id: str, hub: HubDep, lang: LocaleDep, credentials: HostCredentials
) -> RoomPublic:
    """Close a room with its host token (``Authorization: Bearer TOKEN``): a running game
    ends without a winner, every connection receives ``closed`` and is closed (4410).

    401 ``no_token`` without the header, 403 ``bad_host_token`` for another token, 404
    ``room_not_found``, 409 ``room_closed`` when it is closed already.
    """
    if credentials is None or not credentials.credentials:
        raise http_error(
            401,
            "no_token",
            message("closing a room needs its host token (Authorization: Bearer TOKEN)"),
            lang,
            headers={"WWW-Authenticate": "Bearer"},
        )
    try:
        room = await hub.close_room(room_id, credentials.credentials)
    except RoomNotFoundError:
        raise http_error(
            404, "room_not_found", message("no room {room!r}", room=room_id), lang
        ) from None
    except HostTokenError:
        raise http_error(
            403, "bad_host_token", message("this token is not the host token of this room"), lang
        ) from None
    except RoomClosedError as error:
        raise closed_conflict(error, room_id, lang) from None
    return await room_public(hub, room.row, room)
