"""The options of a room (beyond the game's own settings) and its seats in memory."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from splash.core.actions import Json

Role = Literal["seat", "spectator", "referee"]


class RoomOptions(BaseModel):
    """How a room runs: the turn timer and its bot; in referee mode, what the server draws."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    turn_timer_s: Annotated[float | None, Field(gt=0, le=86400)] = None
    """Seconds a person has for a decision before ``timer_bot`` takes it (play mode)."""
    timer_bot: str = "random"
    """The bot that plays a decision whose timer ran out."""
    digital: list[Literal["draw", "steal", "deal", "roll"]] = Field(default_factory=list)
    """Referee mode: the chance events the server draws itself (digital cards, a random
    deal); every other outcome is entered by the referee."""
    spectator_chat: bool = False
    """Whether spectators may write in the room's chat (they may always read it)."""


@dataclass
class Seat:
    """A seat of a room: ``open``, taken by a ``human`` (``token`` is the hash of its secret)
    or filled by a ``bot``."""

    seat: int
    kind: str = "open"
    name: str | None = None
    bot: str | None = None
    token: str | None = None

    def public(self, connected: bool) -> dict[str, Json]:
        """What everyone may know of the seat (never its token)."""
        return {
            "seat": self.seat,
            "kind": self.kind,
            "name": self.name,
            "bot": self.bot,
            "connected": connected,
        }


Sender = Callable[[dict[str, Json] | str], Awaitable[None]]
"""Sends a message to one connection: a document, or its JSON text encoded already."""
Closer = Callable[[int], Awaitable[None]]


async def _keep_open(_code: int) -> None:
    return None


@dataclass(eq=False)
class Member:
    """One connection to a room: its role, its seat (for ``seat``), its language, how to
    close it (``disconnect(code)``, when its room is closed), and the secret ``token`` it
    joined with (in memory only: a rematch's token is derived from it)."""

    role: Role
    seat: int | None
    locale: str
    send: Sender
    extra: dict[str, Any] = field(default_factory=dict)
    disconnect: Closer = _keep_open
    token: str | None = None
