"""The WebSocket protocol ``splash/ws/1``: message envelopes, parsing and error codes.

Every message, both ways, is a JSON object ``{"format": "splash/ws/1", "type": ..., ...}``.
docs/protocol.md describes every type; this module holds the names and the checks.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

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
CLOSE_ROOM_CLOSED: Final = 4410
"""The close code of every connection of a room its host closed (and of a join to it)."""

CLIENT_TYPES: Final = frozenset({"join", "act", "outcome", "reveal", "hide", "sync", "ping"})
"""What a client may send."""

ERROR_TEXTS: Final[Mapping[str, str]] = {
    "bad_json": N_("the message is not valid JSON"),
    "bad_message": N_("the message is not an object with a 'format' and a 'type'"),
    "bad_format": N_("unsupported message format {found!r} (this server speaks {expected})"),
    "unknown_type": N_("unknown message type {found!r} (known: {known})"),
    "bad_field": N_("the field {field!r} is missing or has the wrong type"),
    "too_large": N_("the message has {size} bytes; the limit is {limit}"),
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
    "malformed_action": N_("{problem}"),
    "illegal_action": N_("{problem}"),
    "bad_outcome": N_("{problem}"),
    "storage": N_("the action could not be stored; nothing changed"),
    "room_not_found": N_("no room {room!r}"),
    "room_closed": N_("room {room!r} was closed by its host"),
    "internal": N_("the server failed to handle this message; nothing changed"),
}
"""Every error code the server sends, with its message (rendered in the client's language)."""

ROOM_IDLE_TEXT: Final = N_("room {room!r} was closed after a long time without play")
"""The message of ``room_closed`` for a room the server closed because nobody played."""

CLOSED_REASONS: Final = ("host", "idle")
"""Why a room was closed: its host closed it, or it saw no activity for too long."""


class ProtocolError(SplashError):
    """A client message that the server refuses; ``code`` is one of :data:`ERROR_TEXTS`.

    ``extra`` holds the fields the ``error`` message carries beyond its code and text.
    """

    def __init__(self, code: str, payload: object = None, **params: object) -> None:
        self.code = code
        self.payload = payload
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


def error_message(error: ProtocolError, locale: str, ref: Json = None) -> dict[str, Json]:
    """The ``error`` message for ``error``, its text in ``locale``."""
    return envelope(
        "error", code=error.code, message=error.localized(locale), ref=ref, **error.extra
    )


def parse_client_message(raw: str | bytes, *, limit: int) -> dict[str, Any]:
    """A client message checked for size, JSON, envelope, format version and type."""
    size = len(raw.encode() if isinstance(raw, str) else raw)
    if size > limit:
        raise ProtocolError("too_large", None, size=size, limit=limit)
    try:
        doc = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise ProtocolError("bad_json") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("type"), str):
        raise ProtocolError("bad_message", doc)
    if doc.get("format") != WS_FORMAT:
        raise ProtocolError("bad_format", doc, found=doc.get("format"), expected=WS_FORMAT)
    if doc["type"] not in CLIENT_TYPES:
        raise ProtocolError(
            "unknown_type", doc, found=doc["type"], known=", ".join(sorted(CLIENT_TYPES))
        )
    return doc


def field(doc: Mapping[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    """``doc[name]`` checked to be of ``kind`` (``bad_field`` otherwise)."""
    value = doc.get(name)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise ProtocolError("bad_field", doc, field=name)
    return value


def optional_int(doc: Mapping[str, Any], name: str) -> int | None:
    """``doc[name]`` if it is an integer, ``None`` if absent (``bad_field`` otherwise)."""
    if doc.get(name) is None:
        return None
    return int(field(doc, name, int))


def problem(text: Message) -> dict[str, Message]:
    """The parameters of a ``malformed_action``/``illegal_action``/``bad_outcome`` error."""
    return {"problem": text}


__all__ = [
    "CLIENT_TYPES",
    "CLOSED_REASONS",
    "CLOSE_BAD_JOIN",
    "CLOSE_BAD_TOKEN",
    "CLOSE_NO_ROOM",
    "CLOSE_ROOM_CLOSED",
    "ERROR_TEXTS",
    "ROOM_IDLE_TEXT",
    "WS_FORMAT",
    "ProtocolError",
    "RoomClosedProtocolError",
    "envelope",
    "error_message",
    "field",
    "optional_int",
    "parse_client_message",
    "problem",
    "room_closed",
]
