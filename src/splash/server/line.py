"""The line of play of a stored log: the actions in force once the takebacks are applied.

The stored log only grows: a takeback appends an ``undo`` entry (its ``source``), naming
who took back (``actor``: a seat, or :data:`REFEREE` for a referee room's referee) and the
length of the line of play after it (its action ``{"kind": "undo", "to": n}``).  The rows
of the log are numbered by their place in the stored log; an action's *index* is its place
in the line of play, the ``index`` of the protocol.  A log without ``undo`` entries (every
log written before takebacks existed) is its own line of play.

The chat of a room is kept in the same log, each message an entry with ``source``
:data:`CHAT_SOURCE` (:class:`ChatLine`): it is no part of the line of play.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from splash.core.actions import Json
from splash.core.protocol import CHANCE
from splash.server.options import Role
from splash.server.storage import ActionRow

UNDO_SOURCE: Final = "undo"
"""The ``source`` of a takeback's entry in the stored log."""
UNDO_KIND: Final = "undo"
"""The ``kind`` of a takeback entry's action."""
REFEREE: Final = CHANCE
"""The ``actor`` of a takeback entered by a referee room's referee."""
CHAT_SOURCE: Final = "chat"
"""The ``source`` of a chat message's entry in the stored log."""
SPECTATOR: Final = -3
"""The ``actor`` of a chat entry written by a spectator (a referee's is :data:`REFEREE`)."""
AUTOMATIC_SOURCES: Final = frozenset({"chance", "auto", "bot"})
"""The sources of the moves the server plays by itself: a takeback goes back past them to
the last move someone entered."""


def undo_action(to: int) -> dict[str, Json]:
    """The action of a takeback entry: back to a line of play of ``to`` actions."""
    return {"kind": UNDO_KIND, "to": to}


@dataclass(frozen=True)
class LineEntry:
    """An action of the line of play: its index there, its place in the stored log, and
    who played it how."""

    index: int
    stored: int
    action: Json
    actor: int
    source: str


@dataclass(frozen=True)
class Takeback:
    """A takeback of the stored log: who (``actor``, ``source`` ``undo``), the length of
    the line before (``before``) and after (``to``), and its place in the stored log."""

    stored: int
    actor: int
    before: int
    to: int

    def to_json(self) -> dict[str, Json]:
        """``{"by": actor, "from": before, "to": to}``, as a replay lists it."""
        return {"by": self.actor, "from": self.before, "to": self.to}


_ROLES: Final[dict[str, Role]] = {"seat": "seat", "spectator": "spectator", "referee": "referee"}


@dataclass(frozen=True)
class ChatLine:
    """A chat message: who wrote it (``role``; the ``seat`` and its ``name`` for a seat),
    its ``text``, when (``at``, seconds since the epoch) and how many actions the line of
    play held then (``index``)."""

    role: Role
    seat: int | None
    name: str | None
    text: str
    at: float
    index: int

    def to_json(self) -> dict[str, Json]:
        """The message's fields, as the ``chat`` message, the log and the replay hold them."""
        return {
            "role": self.role,
            "seat": self.seat,
            "name": self.name,
            "text": self.text,
            "at": self.at,
            "index": self.index,
        }

    @classmethod
    def from_json(cls, doc: Json) -> ChatLine:
        """The chat message of a stored entry; raises :class:`ValueError` for one that is
        not."""
        if not isinstance(doc, dict):
            raise ValueError(f"not a chat entry: {doc!r}")
        role = _ROLES.get(str(doc.get("role")))
        seat, name = doc.get("seat"), doc.get("name")
        text, at, index = doc.get("text"), doc.get("at"), doc.get("index")
        if (
            role is None
            or not (seat is None or isinstance(seat, int))
            or not (name is None or isinstance(name, str))
            or not isinstance(text, str)
            or not isinstance(at, int | float)
            or not isinstance(index, int)
        ):
            raise ValueError(f"not a chat entry: {doc!r}")
        return cls(role, seat, name, text, float(at), index)


def chat_actor(line: ChatLine) -> int:
    """The ``actor`` of a chat entry: the seat, :data:`REFEREE` or :data:`SPECTATOR`."""
    if line.role == "seat" and line.seat is not None:
        return line.seat
    return REFEREE if line.role == "referee" else SPECTATOR


@dataclass(frozen=True)
class Line:
    """The line of play of a stored log, the takebacks made, and the log's length."""

    entries: list[LineEntry]
    takebacks: list[Takeback]
    stored: int
    """How many rows the stored log holds (the place the next row gets)."""
    chat: list[ChatLine] = field(default_factory=list)
    """The chat messages of the log, in order."""

    @property
    def actions(self) -> list[Json]:
        """The actions of the line of play, in order."""
        return [e.action for e in self.entries]

    def rows(self) -> list[ActionRow]:
        """The line of play as rows numbered by their index in it."""
        return [ActionRow(e.index, e.action, e.actor, e.source) for e in self.entries]


def undo_target(action: Json) -> int:
    """The length of the line of play that a takeback entry's ``action`` goes back to."""
    if not isinstance(action, dict) or action.get("kind") != UNDO_KIND:
        raise ValueError(f"not a takeback entry: {action!r}")
    to = action.get("to")
    if not isinstance(to, int) or isinstance(to, bool) or to < 0:
        raise ValueError(f"a takeback entry without a length: {action!r}")
    return to


def line_of_play(rows: Sequence[ActionRow]) -> Line:
    """The line of play of the stored log ``rows`` (in stored order)."""
    entries: list[LineEntry] = []
    takebacks: list[Takeback] = []
    chat: list[ChatLine] = []
    for row in rows:
        if row.source == CHAT_SOURCE:
            chat.append(ChatLine.from_json(row.action))
        elif row.source == UNDO_SOURCE:
            to = undo_target(row.action)
            if to > len(entries):
                raise ValueError(f"takeback {row.index} goes forward, to {to}")
            takebacks.append(Takeback(row.index, row.actor, len(entries), to))
            del entries[to:]
        else:
            entries.append(LineEntry(len(entries), row.index, row.action, row.actor, row.source))
    return Line(entries, takebacks, rows[-1].index + 1 if rows else 0, chat)


__all__ = [
    "AUTOMATIC_SOURCES",
    "CHAT_SOURCE",
    "REFEREE",
    "SPECTATOR",
    "UNDO_KIND",
    "UNDO_SOURCE",
    "ChatLine",
    "Line",
    "LineEntry",
    "Takeback",
    "chat_actor",
    "line_of_play",
    "undo_action",
    "undo_target",
]
