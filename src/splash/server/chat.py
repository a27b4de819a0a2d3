"""The chat of a room: ``{"type": "chat", "text": ...}``, broadcast as ``chat``.

Plain text (the pages show it as text, never as markup), at most :data:`CHAT_MAX_CHARS`
characters, at most :data:`CHAT_RATE` messages in any :data:`CHAT_WINDOW_S` seconds per
connection.  Seats and the referee may always write; spectators only where the room's
option ``spectator_chat`` lets them, and they may always read.  Bots never write.  Each
message is stored in the room's log (:class:`~splash.server.line.ChatLine`), so that a
finished game's replay holds it.
"""

from __future__ import annotations

from collections import deque
from typing import Final

from splash.server.client_messages import ChatMessage
from splash.server.line import ChatLine
from splash.server.options import Member
from splash.server.protocol import ProtocolError, room_closed
from splash.server.room import Room

CHAT_MAX_CHARS: Final = 200
"""The most characters of one chat message."""
CHAT_RATE: Final = 5
"""How many chat messages one connection may send in any :data:`CHAT_WINDOW_S` seconds."""
CHAT_WINDOW_S: Final = 10.0
"""The window of :data:`CHAT_RATE`, in seconds."""


def plain_text(text: str) -> str:
    """``text`` on one line: control characters (line breaks included) become spaces, and
    the spaces around it go."""
    return "".join(" " if ch.isspace() or not ch.isprintable() else ch for ch in text).strip()


def _count(member: Member, now: float) -> None:
    """Count one message of ``member`` at ``now``; raises ``chat_rate`` (not counted) when
    it sent :data:`CHAT_RATE` in the last :data:`CHAT_WINDOW_S` seconds."""
    sent: deque[float] = member.extra.setdefault("chat_sent", deque())
    while sent and sent[0] <= now - CHAT_WINDOW_S:
        sent.popleft()
    if len(sent) >= CHAT_RATE:
        raise ProtocolError("chat_rate", limit=CHAT_RATE, seconds=f"{CHAT_WINDOW_S:g}")
    sent.append(now)


async def chat(room: Room, member: Member, message: ChatMessage) -> None:
    """``chat``: check the message, store it and send it to every connection; the caller
    holds the lock."""
    if room.status == "closed":
        raise room_closed(room.id, room.closed_by)
    if member.role == "spectator" and not room.options.spectator_chat:
        raise ProtocolError("chat_spectators", message.text[:40])
    text = plain_text(message.text)
    if not text:
        raise ProtocolError("chat_empty", message.text[:40])
    if len(text) > CHAT_MAX_CHARS:
        raise ProtocolError("chat_too_long", text[:40], limit=CHAT_MAX_CHARS, size=len(text))
    now = room.runtime.clock()
    _count(member, now)
    seat = member.seat if member.role == "seat" else None
    name = room.seats[seat].name if seat is not None else None
    await room.post_chat(ChatLine(member.role, seat, name, text, now, room.index))


__all__ = ["CHAT_MAX_CHARS", "CHAT_RATE", "CHAT_WINDOW_S", "chat", "plain_text"]
