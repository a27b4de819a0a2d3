"""What the server does with each client message of ``splash/ws/1`` once a connection joined.

Every refusal is a :class:`~splash.server.protocol.ProtocolError`, raised before anything
changes; the caller turns it into an ``error`` message for that connection alone.
"""

from __future__ import annotations

from functools import partial
from typing import Any, assert_never

from splash.core.actions import Json
from splash.core.errors import ActionError, OptionError, OutcomeError, SplashError
from splash.core.protocol import CHANCE
from splash.server.chat import chat
from splash.server.checks import THROTTLE, check_answer
from splash.server.client_messages import (
    ActMessage,
    AskMessage,
    ChatMessage,
    CheckMessage,
    ClientMessage,
    HideMessage,
    JoinMessage,
    OutcomeMessage,
    PingMessage,
    PreferMessage,
    RematchMessage,
    RevealMessage,
    SyncMessage,
    UndoAnswerMessage,
    UndoMessage,
    UndoRequestMessage,
)
from splash.server.hub import RoomHub
from splash.server.options import Member
from splash.server.protocol import ProtocolError, envelope, problem, room_closed
from splash.server.rematch import rematch
from splash.server.room import Room
from splash.server.rules import declaration, request_handler
from splash.server.undo import answer, request, undo


async def handle(room: Room, member: Member, message: ClientMessage, *, hub: RoomHub) -> None:
    """Carry out one checked client message for ``member`` (``hub``: the server's rooms,
    where a rematch is made)."""
    match message:
        case PingMessage():
            await member.send(envelope("pong", ref=message.ref))
            return
        case JoinMessage():
            raise ProtocolError("not_allowed", role=member.role)
        case SyncMessage():
            async with room.lock:
                await room.send(member, room.state_message(member))
        case RevealMessage() | HideMessage():
            async with room.lock:
                await _reveal(room, member, message.seat, show=message.type == "reveal")
        case ActMessage():
            async with room.lock:
                await _act(room, member, message)
        case OutcomeMessage():
            async with room.lock:
                await _outcome(room, member, message)
        case UndoMessage():
            async with room.lock:
                await undo(room, member, message)
        case UndoRequestMessage():
            async with room.lock:
                await request(room, member, message)
        case UndoAnswerMessage():
            async with room.lock:
                await answer(room, member, message)
        case ChatMessage():
            async with room.lock:
                await chat(room, member, message)
            return
        case RematchMessage():
            async with room.lock:
                await rematch(hub, room, member)
            return
        case PreferMessage():
            if member.role != "seat":
                raise ProtocolError("not_allowed", role=member.role)
            member.ask_always = message.ask_always
            async with room.lock:
                await room.close_window()
            return
        case AskMessage():
            if not THROTTLE.hit(member):
                raise ProtocolError("too_many_checks", limit=THROTTLE.per_second)
            async with room.lock:
                await _ask(room, member, message)
            return
        case CheckMessage():
            room.runtime.metrics.checks.inc()
            if not THROTTLE.hit(member):
                raise ProtocolError("too_many_checks", limit=THROTTLE.per_second)
            async with room.lock:
                await _check(room, member, message)
            return
        case _:
            assert_never(message)
    room.kick()


def _check_playing(room: Room, expected: int | None) -> None:
    if room.status == "closed":
        raise room_closed(room.id, room.closed_by)
    if room.status == "open":
        raise ProtocolError("not_started")
    if room.state.is_terminal():
        raise ProtocolError("game_over")
    if room.undo_request is not None:
        raise ProtocolError("undo_pending")
    if expected is not None and expected != room.index:
        raise ProtocolError("stale", expected=expected, found=room.index)


def _ack(room: Room, member: Member, ref: Json) -> Any:
    async def ack(index: int) -> None:
        await room.send(member, envelope("ack", ref=ref, index=index))

    return ack


def _deciding_seat(room: Room, member: Member, message: ActMessage | CheckMessage) -> int:
    """The seat to act, when ``member`` may decide for it now; raises otherwise."""
    if member.role == "spectator":
        raise ProtocolError("not_allowed", role=member.role)
    _check_playing(room, message.expect)
    to_act = room.state.to_act()
    if member.role == "seat":
        seat = member.seat
    else:
        seat = to_act if message.seat is None else message.seat
        if 0 <= seat < len(room.seats) and room.seats[seat].kind != "open":
            raise ProtocolError("seat_held", seat=seat)
    if to_act == CHANCE:
        raise ProtocolError("awaiting_chance")
    if seat != to_act:
        raise ProtocolError("not_your_turn", seat=to_act)
    return to_act


async def _act(room: Room, member: Member, message: ActMessage) -> None:
    to_act = _deciding_seat(room, member, message)
    if room.held(to_act):
        raise ProtocolError("pass_held", seat=to_act)
    try:
        action = room.game.parse_action(message.action)
    except ActionError as error:
        raise ProtocolError("malformed_action", message.action, **problem(error.text)) from None
    if room.holds(action, to_act):  # sent on when the window's time is up (server.hold)
        room.hold(action, _ack(room, member, message.ref))
        return
    await room.commit(
        message.action, actor=to_act, source="human", ack=_ack(room, member, message.ref)
    )


async def _ask(room: Room, member: Member, message: AskMessage) -> None:
    """Answer the game's extra request ``request`` to ``member`` alone (as its seat; a
    spectator or referee asks as a public screen)."""
    seat = member.seat if member.role == "seat" else None
    try:
        request_handler(room.row.game, message.request, room.row.mode)
    except OptionError as error:
        raise ProtocolError("unknown_request", message.request, **problem(error.problem)) from None
    index = room.index
    try:
        found = await room.answer(message.request, seat, message.body)
    except SplashError as error:
        raise ProtocolError("bad_request", message.request, **problem(error.text)) from None
    doc = envelope("answer", ref=message.ref)
    doc.update({"request": message.request, "index": index, "answer": found})
    await room.send(member, doc)


async def _check(room: Room, member: Member, message: CheckMessage) -> None:
    """Answer whether the rules would take the action, with the engine's own test (in the
    physics thread when the physics checks it: T06), changing nothing."""
    _deciding_seat(room, member, message)
    ask = partial(
        check_answer,
        room.state,
        message.action,
        index=room.index,
        locale=member.locale,
        ref=message.ref,
    )
    answer = await room.run(ask) if room.uses_physics else ask()
    await room.send(member, answer)


async def _outcome(room: Room, member: Member, message: OutcomeMessage) -> None:
    if member.role != "referee":
        raise ProtocolError("not_allowed", role=member.role)
    _check_playing(room, message.expect)
    event = room.state.chance_event()
    if room.state.to_act() != CHANCE or event is None:
        raise ProtocolError("no_chance")
    if event.kind in room.options.digital:
        raise ProtocolError("not_referee_chance")
    if message.report is not None:
        parse = declaration(room.state).referee.report
        if parse is None:  # the game's outcomes are picked, never described
            raise ProtocolError("bad_field", field="report")
        try:
            action: Any = parse(room.state, message.report)
        except OutcomeError as error:
            raise ProtocolError("bad_outcome", **problem(error.text)) from None
    elif message.has_action:
        action = message.action
    else:
        raise ProtocolError("bad_field", field="action")
    await room.commit(action, actor=CHANCE, source="referee", ack=_ack(room, member, message.ref))


async def _reveal(room: Room, member: Member, asked: int | None, *, show: bool) -> None:
    if member.role == "seat" and member.seat is not None:
        seat = member.seat
    elif member.role == "referee":
        if asked is None or not 0 <= asked < len(room.seats):
            raise ProtocolError("bad_field", field="seat")
        if room.seats[asked].kind != "open":
            raise ProtocolError("seat_held", seat=asked)
        seat = asked
    else:
        raise ProtocolError("not_allowed", role=member.role)
    if show:
        room.revealed.add(seat)
    else:
        room.revealed.discard(seat)
    await room.broadcast_state(public_only=True)
