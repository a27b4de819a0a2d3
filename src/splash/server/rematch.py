"""Rematches: ``rematch`` from a seat or the referee of a game that is over.

The first request makes the new room (:meth:`~splash.server.hub.RoomHub.create_rematch`)
and tells every connection of the room its id, each person's connection with its own new
token; a later request gets the same room, and its sender alone its token.  A token is
never sent to anyone but its person: it derives from the secret they joined with.
"""

from __future__ import annotations

from splash.core.actions import Json
from splash.server.hub import RoomHub, TooManyRoomsError, rematch_token
from splash.server.line import REFEREE
from splash.server.options import Member
from splash.server.protocol import ProtocolError, envelope, room_closed
from splash.server.room import Room


def _key(member: Member) -> int | None:
    """The seat a person's connection holds, ``None`` for the referee."""
    return member.seat if member.role == "seat" else None


def _check(room: Room, member: Member) -> str:
    """The token ``member`` joined with, when it may ask for a rematch of ``room``."""
    if room.status == "closed":
        raise room_closed(room.id, room.closed_by)
    if member.role == "spectator" or member.token is None:
        raise ProtocolError("not_allowed", role=member.role)
    if room.status != "over" or not room.state.is_terminal():
        raise ProtocolError("not_over")
    return member.token


def rematch_message(room: Room, rematch_id: str, *, by: int, token: str | None) -> dict[str, Json]:
    """The ``rematch`` message of ``room``: the new room's id, who asked for it (a seat,
    :data:`~splash.server.line.REFEREE` for the referee) and, for a person, their own
    ``token`` (a spectator's message has none)."""
    doc = envelope("rematch", room=room.id, rematch=rematch_id, by=by)
    if token is not None:
        doc["token"] = token
    return doc


async def rematch(hub: RoomHub, room: Room, member: Member) -> None:
    """``rematch``: make the game's rematch, or find the one made; the caller holds the
    lock of ``room``."""
    token = _check(room, member)
    by = REFEREE if member.role == "referee" else _key(member)
    assert by is not None
    made = room.row.rematch
    if made is not None:
        mine = await hub.claim_rematch(made, _key(member), token)
        await room.send(member, rematch_message(room, made, by=by, token=mine))
        return
    held = {_key(m): m.token for m in room.members if m.role != "spectator" and m.token}
    try:
        new = await hub.create_rematch(room, held)
    except TooManyRoomsError as error:
        raise ProtocolError("too_many_rooms", limit=error.limit) from None
    for each in list(room.members):
        own = rematch_token(each.token, new.id) if each.role != "spectator" and each.token else None
        await room.send(each, rematch_message(room, new.id, by=by, token=own))


__all__ = ["rematch", "rematch_message"]
