"""What a client may send over ``splash/ws/1``: one pydantic model per message type, all in
one union told apart by ``type`` (:data:`ClientMessage`).

:func:`read_client_message` turns a WebSocket payload into one of these models or raises the
:class:`~splash.server.protocol.ProtocolError` that the client is told: the JSON limits
first (``too_large``, ``bad_json``, ``too_deep``, ``bad_number``), then the envelope
(``bad_message``, ``bad_format``, ``unknown_type``), then the fields (``bad_field``).
docs/protocol.md shows the JSON Schema of the union (:func:`client_message_schema`).
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    StrictBool,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
)

from splash.core.actions import Json
from splash.server.protocol import WS_FORMAT, ProtocolError
from splash.server.schemas import valid_client_seed
from splash.server.wire_json import WireJsonError, load_limited

Ref = StrictStr | StrictInt
"""A client's reference of a request, echoed in its ``ack`` or ``error``."""


class _Message(BaseModel):
    """Every client message: the protocol's format tag and an optional reference.  Fields
    the protocol does not name are ignored (a newer client may send more)."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    format: Literal["splash/ws/1"]
    ref: Ref | None = None


class JoinMessage(_Message):
    """The first message of every connection: a seat's or the referee's token, or none (a
    spectator); ``lang`` picks the language of the server's texts."""

    type: Literal["join"]
    token: StrictStr | None = None
    lang: StrictStr | None = None
    client_seed: Annotated[StrictStr | None, AfterValidator(valid_client_seed)] = None
    """A person's seed for the room's chance, for a seat that has none yet while the room
    has not started (a rematch waits for its people's seeds); ignored otherwise."""


class ActMessage(_Message):
    """A decision: ``action`` for the seat to act (a seat's own, or for the referee the
    ``seat`` given, the one to act by default); ``expect`` is the index it must get."""

    type: Literal["act"]
    action: JsonValue
    expect: StrictInt | None = None
    seat: StrictInt | None = None


class OutcomeMessage(_Message):
    """The referee's chance outcome: an ``action``, or a physical ``report`` the server
    turns into one (a placement's result)."""

    type: Literal["outcome"]
    action: JsonValue = None
    report: dict[str, JsonValue] | None = None
    expect: StrictInt | None = None

    @property
    def has_action(self) -> bool:
        """Whether ``action`` was sent (``null`` included)."""
        return "action" in self.model_fields_set


class CheckMessage(_Message):
    """Ask whether the rules would take ``action`` now, without playing it (answered by a
    ``check`` message); ``seat`` and ``expect`` as for ``act``."""

    type: Literal["check"]
    action: JsonValue
    expect: StrictInt | None = None
    seat: StrictInt | None = None


class RevealMessage(_Message):
    """Show a seat's hand on the public screens (the referee names the ``seat``)."""

    type: Literal["reveal"]
    seat: StrictInt | None = None


class HideMessage(_Message):
    """Hide again a hand shown by ``reveal``."""

    type: Literal["hide"]
    seat: StrictInt | None = None


class UndoMessage(_Message):
    """Take back at once: in a referee room (the referee) the last entry and the automatic
    moves after it; in a game where every other seat is a bot (the seat) its own last
    decision and everything after it.  ``expect`` is the index the line must be at."""

    type: Literal["undo"]
    expect: StrictInt | None = None


class UndoRequestMessage(_Message):
    """Ask the other people of the game to take back this seat's last decision and
    everything after it (answered by each with ``undo_answer``)."""

    type: Literal["undo_request"]
    expect: StrictInt | None = None


class UndoAnswerMessage(_Message):
    """A seat's answer to the pending takeback request: ``accept`` it or not."""

    type: Literal["undo_answer"]
    accept: StrictBool


class ChatMessage(_Message):
    """A line of plain text for everyone in the room (answered by a ``chat`` message to
    every connection)."""

    type: Literal["chat"]
    text: StrictStr


class RematchMessage(_Message):
    """Ask for a new game of the same settings and seats, once the game is over (answered
    by a ``rematch`` message with the new room)."""

    type: Literal["rematch"]


class SyncMessage(_Message):
    """Ask for the whole current state."""

    type: Literal["sync"]


class PingMessage(_Message):
    """Ask for a ``pong`` (a keep-alive)."""

    type: Literal["ping"]


class AskMessage(_Message):
    """An extra request of the room's game (``request``: its kind, such as a Splash! placer's
    ``placements``) with its ``body``; answered by an ``answer`` to this connection alone."""

    type: Literal["ask"]
    request: Annotated[StrictStr, Field(max_length=40)]
    body: dict[str, JsonValue] = Field(default_factory=dict)


class PreferMessage(_Message):
    """A seat's person says how it wants to be asked: with ``ask_always``, even when passing
    is all the seat may do; otherwise the server passes for it when the window's time is
    up (:mod:`splash.server.hold`).  Kept while the connection lasts."""

    type: Literal["prefer"]
    ask_always: StrictBool


ClientMessage = Annotated[
    JoinMessage
    | ActMessage
    | OutcomeMessage
    | CheckMessage
    | RevealMessage
    | HideMessage
    | UndoMessage
    | UndoRequestMessage
    | UndoAnswerMessage
    | ChatMessage
    | RematchMessage
    | SyncMessage
    | PingMessage
    | AskMessage
    | PreferMessage,
    Field(discriminator="type"),
]
"""Any client message, by its ``type``."""

_ADAPTER: Final[TypeAdapter[ClientMessage]] = TypeAdapter(ClientMessage)


def _types() -> tuple[str, ...]:
    models = get_args(get_args(ClientMessage)[0])
    return tuple(str(get_args(model.model_fields["type"].annotation)[0]) for model in models)


CLIENT_TYPES: Final = _types()
"""The types a client may send (read from :data:`ClientMessage`)."""


def client_message_schema() -> dict[str, Any]:
    """The JSON Schema of :data:`ClientMessage` (shown in docs/protocol.md)."""
    return _ADAPTER.json_schema()


def _ref_of(doc: dict[str, Any]) -> Json:
    ref = doc.get("ref")
    return ref if isinstance(ref, str | int) and not isinstance(ref, bool) else None


def read_client_message(raw: str | bytes, *, limit: int) -> ClientMessage:
    """The message ``raw`` holds, checked; raises :class:`ProtocolError` otherwise (its
    ``ref`` the message's own when it had a readable one)."""
    try:
        doc = load_limited(raw, max_bytes=limit)
    except WireJsonError as error:
        raise ProtocolError(error.code, **error.params) from None
    if not isinstance(doc, dict) or not isinstance(doc.get("type"), str):
        raise ProtocolError("bad_message")
    try:
        return _ADAPTER.validate_python(doc)
    except ValidationError as invalid:
        refusal = _refusal(doc, invalid)
    refusal.ref = _ref_of(doc)
    raise refusal


def _refusal(doc: dict[str, Any], invalid: ValidationError) -> ProtocolError:
    """The refusal of a message whose envelope is an object with a ``type``."""
    first = invalid.errors(include_url=False, include_input=False)[0]
    if first["type"] == "union_tag_invalid":
        found = doc["type"][:40]
        return ProtocolError("unknown_type", found=found, known=", ".join(CLIENT_TYPES))
    name = str(first["loc"][1]) if len(first["loc"]) > 1 else "type"
    if name == "format":
        found = doc.get("format")
        shown = found[:40] if isinstance(found, str) else found if found is None else "..."
        return ProtocolError("bad_format", found=shown, expected=WS_FORMAT)
    return ProtocolError("bad_field", field=name)


__all__ = [
    "CLIENT_TYPES",
    "ActMessage",
    "AskMessage",
    "ChatMessage",
    "CheckMessage",
    "ClientMessage",
    "HideMessage",
    "JoinMessage",
    "OutcomeMessage",
    "PingMessage",
    "PreferMessage",
    "Ref",
    "RematchMessage",
    "RevealMessage",
    "SyncMessage",
    "UndoAnswerMessage",
    "UndoMessage",
    "UndoRequestMessage",
    "client_message_schema",
    "read_client_message",
]
