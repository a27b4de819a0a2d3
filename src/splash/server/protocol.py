"""The WebSocket protocol ``splash/ws/1``: message envelopes, parsing and error codes.

Every message, both ways, is a JSON object ``{"format": "splash/ws/1", "type": ..., ...}``.
docs/protocol.md describes every type; this module holds the names and the checks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

import orjson

from splash.core.actions import Json
from splash.core.documents import format_tag
from splash.core.errors import SplashError
from splash.core.i18n import N_, Message

WS_FORMAT: Final = format_tag("ws", 1)

CLOSE_BAD_JOIN: Final = 4400
"""The WebSocket close code after a first message that is not a valid join."""
CLOSE_BAD_TOKEN: Final = 4401
"""The close code after a join whose token opens nothing in the room."""
CLOSE_NO_ROOM: Final = 4404
"""The close code after a join to a room that does not exist."""
CLOSE_MOVED: Final = 4409
"""The close code after a ``moved`` message: another server process serves the room now;
the client connects again (through the proxy, which routes it to the room's owner)."""
CLOSE_ROOM_CLOSED: Final = 4410
"""The close code of every connection of a room its host closed (and of a join to it)."""

ERROR_TEXTS: Final[Mapping[str, str]] = {
    "bad_json": N_("the message is not valid JSON"),
    "bad_message": N_("the message is not an object with a 'format' and a 'type'"),
    "bad_format": N_("unsupported message format {found!r} (this server speaks {expected})"),
    "unknown_type": N_("unknown message type {found!r} (known: {known})"),
    "bad_field": N_("the field {field!r} is missing or has the wrong type"),
    "too_large": N_("the message has {size} bytes; the limit is {limit}"),
    "too_deep": N_("the message nests arrays and objects deeper than {limit} levels"),
    "bad_number": N_("a number of the message has more than {limit} digits or is not finite"),
    "join_first": N_("the first message must be a join"),
    "bad_token": N_("this token opens no seat of this room"),
    "not_allowed": N_("a {role} cannot do this"),
    "not_started": N_("the game has not started: some seats are still open"),
    "game_over": N_("the game is over"),
    "not_your_turn": N_("it is not this seat's turn (seat {seat} is to act)"),
    "seat_held": N_("seat {seat} is held by a person, who enters its decisions"),
    "no_chance": N_("no chance outcome is awaited now"),
    "awaiting_chance": N_("a chance outcome is awaited now, not a decision"),
    "not_referee_chance": N_("this room draws that outcome itself"),
    "stale": N_("the game moved on: action {expected} was expected, the log is at {found}"),
    "pass_held": N_("seat {seat} passed already; the pass is played when the window's time is up"),
    "malformed_action": N_("{problem}"),
    "illegal_action": N_("{problem}"),
    "bad_outcome": N_("{problem}"),
    "nothing_to_undo": N_("there is nothing to take back"),
    "undo_needs_consent": N_(
        "other people play this game: ask them with a takeback request (undo_request)"
    ),
    "undo_pending": N_("a takeback request is waiting for answers: wait for them first"),
    "no_undo_request": N_("no takeback request is waiting for an answer"),
    "not_asked": N_("this takeback request does not wait for this seat's answer"),
    "too_many_checks": N_("at most {limit} checks a second: wait a moment, then ask again"),
    "unknown_request": N_("{problem}"),
    "bad_request": N_("{problem}"),
    "chat_empty": N_("a chat message needs some text"),
    "chat_too_long": N_("a chat message has at most {limit} characters, not {size}"),
    "chat_rate": N_("at most {limit} chat messages in {seconds} seconds: wait a moment"),
    "chat_spectators": N_("spectators may not write in the chat of this room"),
    "not_over": N_("a rematch comes once the game is over, and this one goes on"),
    "too_many_rooms": N_(
        "the server has {limit} rooms open, its limit: try again when one has ended"
    ),
    "storage": N_("the action could not be stored; nothing changed"),
    "room_not_found": N_("no room {room!r}"),
    "room_closed": N_("room {room!r} was closed by its host"),
    "moved": N_("room {room!r} is served by another server process now: connect again"),
    "internal": N_("the server failed to handle this message; nothing changed"),
}
"""Every error code the server sends, with its message (rendered in the client's language)."""

ROOM_IDLE_TEXT: Final = N_("room {room!r} was closed after a long time without play")
"""The message of ``room_closed`` for a room the server closed because nobody played."""

CLOSED_REASONS: Final = ("host", "idle")
"""Why a room was closed: its host closed it, or it saw no activity for too long."""


class ProtocolError(SplashError):
    """A client message that the server refuses; ``code`` is one of :data:`ERROR_TEXTS`.

    ``extra`` holds the fields the ``error`` message carries beyond its code and text;
    ``ref`` is the reference of the message refused, when it had one.
    """

    def __init__(self, code: str, payload: object = None, **params: object) -> None:
        self.code = code
        self.payload = payload
        self.ref: Json = None
        self.extra: dict[str, Json] = {}
        super().__init__(Message(ERROR_TEXTS[code], params))


class RoomClosedProtocolError(ProtocolError):
    """``room_closed``: the room was closed for ``reason`` (``host``, or ``idle`` with its
    own message); the ``error`` message carries the ``reason``."""

    def __init__(self, room: str, reason: str | None, payload: object = None) -> None:
        super().__init__("room_closed", payload, room=room)
        self.reason = reason if reason in CLOSED_REASONS else "host"
        self.extra["reason"] = self.reason
        if self.reason == "idle":
            SplashError.__init__(self, Message(ROOM_IDLE_TEXT, {"room": room}))


def room_closed(room: str, reason: str | None, payload: object = None) -> ProtocolError:
    """The ``room_closed`` error of a room closed for ``reason`` (``host`` when unknown)."""
    return RoomClosedProtocolError(room, reason, payload)


def envelope(kind: str, **fields: Json) -> dict[str, Json]:
    """A server message of type ``kind``."""
    return {"format": WS_FORMAT, "type": kind, **fields}


def encode(doc: Mapping[str, Json]) -> str:
    """The JSON text of a server message, as it goes on the wire (encoded once, and the
    same text sent to every connection that receives it).

    orjson: about six times faster than the standard library on a Splash & Bash view,
    the largest part of every ``update``; keys that are not strings become strings, as
    the standard library makes them.
    """
    return orjson.dumps(doc, option=orjson.OPT_NON_STR_KEYS).decode()


def error_message(error: ProtocolError, locale: str, ref: Json = None) -> dict[str, Json]:
    """The ``error`` message for ``error``, its text in ``locale``; its ``ref`` is ``ref``,
    or else the refused message's own."""
    ref = error.ref if ref is None else ref
    return envelope(
        "error", code=error.code, message=error.localized(locale), ref=ref, **error.extra
    )


def problem(text: Message) -> dict[str, Message]:
    """The parameters of a ``malformed_action``/``illegal_action``/``bad_outcome`` error."""
    return {"problem": text}


__all__ = [
    "CLOSED_REASONS",
    "CLOSE_BAD_JOIN",
    "CLOSE_BAD_TOKEN",
    "CLOSE_MOVED",
    "CLOSE_NO_ROOM",
    "CLOSE_ROOM_CLOSED",
    "ERROR_TEXTS",
    "ROOM_IDLE_TEXT",
    "WS_FORMAT",
    "ProtocolError",
    "RoomClosedProtocolError",
    "encode",
    "envelope",
    "error_message",
    "problem",
    "room_closed",
]
