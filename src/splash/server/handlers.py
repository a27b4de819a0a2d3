"""What the server does with each client message of ``splash/ws/1`` once a connection joined.

Every refusal is a :class:`~splash.server.protocol.ProtocolError`, raised before anything
changes; the caller turns it into an ``error`` message for that connection alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from splash.core.actions import Json
from splash.core.errors import OutcomeError
from splash.core.protocol import CHANCE
from splash.server.options import Member
from splash.server.protocol import (
    ProtocolError,
    envelope,
    field,
    optional_int,
    problem,
    room_closed,
)
from splash.server.room import Room
from splash.server.rules import reported_outcome


async def handle(room: Room, member: Member, doc: Mapping[str, Any]) -> None:
    """Carry out one parsed client message for ``member``."""
    kind = doc["type"]
    ref: Json = doc.get("ref") if isinstance(doc.get("ref"), str | int) else None
    if kind == "ping":
        await member.send(envelope("pong", ref=ref))
        return
    if kind == "join":
        raise ProtocolError("not_allowed", doc, role=member.role)
    async with room.lock:
        if kind == "sync":
            await room.send(member, room.state_message(member))
        elif kind in ("reveal", "hide"):
            await _reveal(room, member, doc, show=kind == "reveal")
        elif kind == "act":
            await _act(room, member, doc, ref)
        else:
            await _outcome(room, member, doc, ref)
    room.kick()


def _check_playing(room: Room, doc: Mapping[str, Any]) -> None:
    if room.status == "closed":
        raise room_closed(room.id, room.closed_by, doc)
    if room.status == "open":
        raise ProtocolError("not_started", doc)
    if room.state.is_terminal():
        raise ProtocolError("game_over", doc)
    expected = optional_int(doc, "expect")
    if expected is not None and expected != room.index:
        raise ProtocolError("stale", doc, expected=expected, found=room.index)


def _ack(room: Room, member: Member, ref: Json) -> Any:
    async def ack(index: int) -> None:
        await room.send(member, envelope("ack", ref=ref, index=index))

    return ack


async def _act(room: Room, member: Member, doc: Mapping[str, Any], ref: Json) -> None:
    if member.role == "spectator":
        raise ProtocolError("not_allowed", doc, role=member.role)
    _check_playing(room, doc)
    if "action" not in doc:
        raise ProtocolError("bad_field", doc, field="action")
    to_act = room.state.to_act()
    if member.role == "seat":
        seat = member.seat
    else:
        seat = optional_int(doc, "seat")
        seat = to_act if seat is None else seat
        if 0 <= seat < len(room.seats) and room.seats[seat].kind != "open":
            raise ProtocolError("seat_held", doc, seat=seat)
    if to_act == CHANCE:
        raise ProtocolError("awaiting_chance", doc)
    if seat != to_act:
        raise ProtocolError("not_your_turn", doc, seat=to_act)
    await room.commit(doc["action"], actor=to_act, source="human", ack=_ack(room, member, ref))


async def _outcome(room: Room, member: Member, doc: Mapping[str, Any], ref: Json) -> None:
    if member.role != "referee":
        raise ProtocolError("not_allowed", doc, role=member.role)
    _check_playing(room, doc)
    event = room.state.chance_event()
    if room.state.to_act() != CHANCE or event is None:
        raise ProtocolError("no_chance", doc)
    if event.kind in room.options.digital:
        raise ProtocolError("not_referee_chance", doc)
    if "report" in doc:
        report = field(doc, "report", dict)
        try:
            action: Any = reported_outcome(room.state, report)
        except OutcomeError as error:
            raise ProtocolError("bad_outcome", doc, **problem(error.text)) from None
    elif "action" in doc:
        action = doc["action"]
    else:
        raise ProtocolError("bad_field", doc, field="action")
    await room.commit(action, actor=CHANCE, source="referee", ack=_ack(room, member, ref))


async def _reveal(room: Room, member: Member, doc: Mapping[str, Any], *, show: bool) -> None:
    if member.role == "seat" and member.seat is not None:
        seat = member.seat
    elif member.role == "referee":
        seat = int(field(doc, "seat", int))
        if not 0 <= seat < len(room.seats):
            raise ProtocolError("bad_field", doc, field="seat")
        if room.seats[seat].kind != "open":
            raise ProtocolError("seat_held", doc, seat=seat)
    else:
        raise ProtocolError("not_allowed", doc, role=member.role)
    if show:
        room.revealed.add(seat)
    else:
        room.revealed.discard(seat)
    await room.broadcast_state(public_only=True)
