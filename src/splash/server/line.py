"""The line of play of a stored log: the actions in force once the takebacks are applied.

The stored log only grows: a takeback appends an ``undo`` entry (its ``source``), naming
who took back (``actor``: a seat, or :data:`REFEREE` for a referee room's referee) and the
length of the line of play after it (its action ``{"kind": "undo", "to": n}``).  The rows
of the log are numbered by their place in the stored log; an action's *index* is its place
in the line of play, the ``index`` of the protocol.  A log without ``undo`` entries (every
log written before takebacks existed) is its own line of play.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from splash.core.actions import Json
from splash.core.protocol import CHANCE
from splash.server.storage import ActionRow

UNDO_SOURCE: Final = "undo"
"""The ``source`` of a takeback's entry in the stored log."""
UNDO_KIND: Final = "undo"
"""The ``kind`` of a takeback entry's action."""
REFEREE: Final = CHANCE
"""The ``actor`` of a takeback entered by a referee room's referee."""
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


@dataclass(frozen=True)
class Line:
    """The line of play of a stored log, the takebacks made, and the log's length."""

    entries: list[LineEntry]
    takebacks: list[Takeback]
    stored: int
    """How many rows the stored log holds (the place the next row gets)."""

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
    for row in rows:
        if row.source == UNDO_SOURCE:
            to = undo_target(row.action)
            if to > len(entries):
                raise ValueError(f"takeback {row.index} goes forward, to {to}")
            takebacks.append(Takeback(row.index, row.actor, len(entries), to))
            del entries[to:]
        else:
            entries.append(LineEntry(len(entries), row.index, row.action, row.actor, row.source))
    return Line(entries, takebacks, rows[-1].index + 1 if rows else 0)


__all__ = [
    "AUTOMATIC_SOURCES",
    "REFEREE",
    "UNDO_KIND",
    "UNDO_SOURCE",
    "Line",
    "LineEntry",
    "Takeback",
    "line_of_play",
    "undo_action",
    "undo_target",
]
