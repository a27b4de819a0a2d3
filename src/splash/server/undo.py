"""Takebacks: ``undo`` (a referee room's referee; a person whose every opponent is a bot)
and ``undo_request`` / ``undo_answer`` among people.

What a takeback removes is always a whole stretch at the end of the line of play: back to
the last entry someone made (a referee), or to a person's own last decision, with the chance
outcomes and bot moves after it.  The server's chance outcomes come from (the room's seed,
the index), so the same index draws the same outcome again: a takeback cannot re-roll.
"""

from __future__ import annotations

import asyncio
from typing import Final

from splash.core.actions import Json
from splash.server.client_messages import UndoAnswerMessage, UndoMessage, UndoRequestMessage
from splash.server.line import AUTOMATIC_SOURCES, REFEREE
from splash.server.options import PLAY, Member
from splash.server.protocol import ProtocolError, envelope, room_closed
from splash.server.room import Room, UndoRequest

UNDO_ANSWER_S: Final = 30.0
"""How long the people asked have to accept a takeback request."""

DECISION_SOURCES: Final = frozenset({"human", "timer"})
"""The sources of a seat's own decisions (the turn timer's included)."""


def check_line(room: Room, expected: int | None) -> None:
    """Refuse a takeback when the game is not under way, or the line is not at
    ``expected``."""
    if room.status == "closed":
        raise room_closed(room.id, room.closed_by)
    if room.status == "open":
        raise ProtocolError("not_started")
    if room.state.is_terminal() or room.status == "over":
        raise ProtocolError("game_over")
    if room.undo_request is not None:
        raise ProtocolError("undo_pending")
    if expected is not None and expected != room.index:
        raise ProtocolError("stale", expected=expected, found=room.index)


def last_entry(room: Room) -> int:
    """The index of the line's last entry made by someone (not a move the server played by
    itself); raises ``nothing_to_undo`` when there is none."""
    for index in range(len(room.line_sources) - 1, -1, -1):
        if room.line_sources[index][1] not in AUTOMATIC_SOURCES:
            return index
    raise ProtocolError("nothing_to_undo")


def last_decision(room: Room, seat: int) -> int:
    """The index of ``seat``'s last decision in the line; ``nothing_to_undo`` when none."""
    for index in range(len(room.line_sources) - 1, -1, -1):
        actor, source = room.line_sources[index]
        if actor == seat and source in DECISION_SOURCES:
            return index
    raise ProtocolError("nothing_to_undo")


def people_to_ask(room: Room, seat: int) -> set[int]:
    """The other seats held by people (bots accept every takeback)."""
    return {s.seat for s in room.seats if s.kind == "human" and s.seat != seat}


def _seat_of(room: Room, member: Member) -> int:
    if member.role != "seat" or member.seat is None or room.row.mode != PLAY:
        raise ProtocolError("not_allowed", role=member.role)
    return member.seat


async def undo(room: Room, member: Member, message: UndoMessage) -> None:
    """``undo``: a takeback at once; the caller holds the lock."""
    if member.role == "referee":
        check_line(room, message.expect)
        await room.take_back(last_entry(room), actor=REFEREE)
        return
    seat = _seat_of(room, member)
    check_line(room, message.expect)
    if people_to_ask(room, seat):
        raise ProtocolError("undo_needs_consent")
    await room.take_back(last_decision(room, seat), actor=seat)


async def request(room: Room, member: Member, message: UndoRequestMessage) -> None:
    """``undo_request``: ask the other people; the caller holds the lock.  With nobody to
    ask (bots only), the takeback is made at once."""
    seat = _seat_of(room, member)
    check_line(room, message.expect)
    to = last_decision(room, seat)
    waiting = people_to_ask(room, seat)
    pending = UndoRequest(
        by=seat,
        to=to,
        index=room.index,
        waiting=waiting,
        asked_at=room.runtime.clock(),
        timeout=UNDO_ANSWER_S,
    )
    if not waiting:
        await _settle(room, pending, accepted=True, reason="accepted", answered_by=None)
        return
    room.undo_request = pending
    room.pause_timer()
    pending.clock = asyncio.create_task(_time_out(room, pending), name=f"undo-{room.id}")
    doc = room.undo_asked()
    assert doc is not None
    for each in list(room.members):
        await room.send(each, doc)


async def answer(room: Room, member: Member, message: UndoAnswerMessage) -> None:
    """``undo_answer``: one person's answer; the caller holds the lock."""
    pending = room.undo_request
    if pending is None:
        raise ProtocolError("no_undo_request")
    if member.role != "seat" or member.seat not in pending.waiting:
        raise ProtocolError("not_asked")
    seat = member.seat
    if not message.accept:
        await _settle(room, pending, accepted=False, reason="refused", answered_by=seat)
        return
    pending.waiting.discard(seat)
    if not pending.waiting:
        await _settle(room, pending, accepted=True, reason="accepted", answered_by=seat)


async def _time_out(room: Room, pending: UndoRequest) -> None:
    await asyncio.sleep(pending.timeout)
    async with room.lock:
        if room.undo_request is pending:
            await _settle(room, pending, accepted=False, reason="timeout", answered_by=None)
    room.kick()


async def _settle(
    room: Room, pending: UndoRequest, *, accepted: bool, reason: str, answered_by: int | None
) -> None:
    """End a request: tell everyone, then take back (accepted) or play on."""
    room.drop_undo_request()
    fields: dict[str, Json] = {
        "room": room.id,
        "by": pending.by,
        "to": pending.to,
        "accepted": accepted,
        "reason": reason,
        "answered_by": answered_by,
    }
    doc = envelope("undo_result", **fields)
    for each in list(room.members):
        await room.send(each, doc)
    if not accepted:
        room.resume_timer()
        return
    try:
        await room.take_back(pending.to, actor=pending.by)
    except ProtocolError:
        room.resume_timer()
        raise


__all__ = [
    "DECISION_SOURCES",
    "UNDO_ANSWER_S",
    "answer",
    "check_line",
    "last_decision",
    "last_entry",
    "people_to_ask",
    "request",
    "undo",
]
