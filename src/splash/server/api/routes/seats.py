"""``/api/rooms/{room_id}/seats/{seat}``: take a seat as a person, or fill it with a bot."""

from __future__ import annotations

from fastapi import APIRouter, status

from splash.core.errors import ConfigError
from splash.core.i18n import message
from splash.server.api.deps import HubDep, LocaleDep, closed_conflict, http_error
from splash.server.hub import RoomClosedError, RoomNotFoundError, SeatTakenError
from splash.server.schemas import SeatClaim, SeatTaken

router = APIRouter(prefix="/api/rooms/{room_id}/seats", tags=["seats"])


@router.post("/{seat}", status_code=status.HTTP_201_CREATED)
async def take_seat(
    room_id: str, seat: int, body: SeatClaim, hub: HubDep, lang: LocaleDep
) -> SeatTaken:
    """Take an open seat; a person gets the seat's secret token (shown to nobody else)."""
    if body.bot is not None and body.name is not None:
        raise http_error(
            422, "bad_seat", message("a seat is taken by a person or by a bot, not both"), lang
        )
    if body.bot is not None and body.client_seed is not None:
        raise http_error(
            422,
            "bad_seat",
            message("a bot adds no seed to the room's chance: only a person does"),
            lang,
        )
    try:
        token = await hub.take_seat(
            room_id, seat, name=body.name, bot=body.bot, client_seed=body.client_seed
        )
    except RoomNotFoundError:
        raise http_error(
            404, "room_not_found", message("no room {room!r}", room=room_id), lang
        ) from None
    except RoomClosedError as error:
        raise closed_conflict(error, room_id, lang) from None
    except SeatTakenError:
        raise http_error(
            409, "seat_taken", message("seat {seat} is not open", seat=seat), lang
        ) from None
    except ConfigError as error:
        raise http_error(422, "bad_option", error.text, lang) from None
    return SeatTaken(seat=seat, token=token)
