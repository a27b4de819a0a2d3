"""The options of a room (beyond the game's own settings) and its seats in memory."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Annotated, Any, Final, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, WithJsonSchema

from splash.core.actions import Json
from splash.core.i18n import message
from splash.games import GAMES
from splash.server.hold import PASS_HOLD_S

Role = Literal["seat", "spectator", "referee"]

PLAY: Final = "play"
"""The mode of a room whose game the server plays out: the physics and the dice rule."""
REFEREE: Final = "referee"
"""The mode of a room of a game at a real table, whose outcomes a referee enters."""
MODES: Final[tuple[str, ...]] = (PLAY, REFEREE)
"""The modes of a room."""
Mode = Literal["play", "referee"]
"""A room's mode, as the HTTP API's schemas type it (:data:`MODES`)."""


DIGITAL_KINDS: Final[tuple[str, ...]] = tuple(
    sorted({kind for game in GAMES.values() for kind in game.referee.digital})
)
"""The kinds of chance event a referee room of some game may have the server draw (each
game's :attr:`~splash.games.registry.RefereeSide.digital`; a room ignores those its game
does not have)."""


def digital_kind(kind: str) -> str:
    """``kind`` if some game lets a referee room have the server draw it; else a
    ``ValueError`` whose message lists them."""
    if kind not in DIGITAL_KINDS:
        known = ", ".join(DIGITAL_KINDS)
        text = message(
            "unknown {kind} {name!r} (known: {known})", kind="chance", name=kind, known=known
        )
        raise ValueError(text.render("en"))
    return kind


DigitalKind = Annotated[
    str,
    AfterValidator(digital_kind),
    WithJsonSchema({"type": "string", "enum": list(DIGITAL_KINDS)}),
]
"""A kind of chance event of :data:`DIGITAL_KINDS` (an enumeration in the OpenAPI schema)."""


class RoomOptions(BaseModel):
    """How a room runs: the turn timer and its bot; in referee mode, what the server draws."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    turn_timer_s: Annotated[float | None, Field(gt=0, le=86400)] = None
    """Seconds a person has for a decision before ``timer_bot`` takes it (play mode)."""
    timer_bot: str = "random"
    """The bot that plays a decision whose timer ran out."""
    digital: list[DigitalKind] = Field(default_factory=list)
    """Referee mode: the kinds of chance event the server draws itself (digital cards, a
    random deal), among those the game's declaration allows
    (:attr:`~splash.games.registry.RefereeSide.digital`); every other outcome is entered by
    the referee."""
    pass_hold_s: Annotated[float, Field(ge=0, le=10)] = PASS_HOLD_S
    """Play mode: the least time a person's seat keeps open a window whose choices beyond a
    pass are its secret, so that how fast it passes tells no one whether it could play
    (:mod:`splash.server.hold`); 0 turns the holding off."""
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
    connections: int = 0
    """The connections the store records for the seat (:mod:`splash.server.storage`)."""
    client_seed: str | None = None
    """The seed the person who took the seat added to the room's chance
    (:mod:`splash.core.fairness`); everyone may see it."""

    def public(self, connected: bool) -> dict[str, Json]:
        """What everyone may know of the seat (never its token)."""
        return {
            "seat": self.seat,
            "kind": self.kind,
            "name": self.name,
            "bot": self.bot,
            "connected": connected,
            "client_seed": self.client_seed,
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
    ask_always: bool = False
    """Whether the person wants to be asked even when passing is all the seat may do
    (``prefer``); otherwise the server passes for the seat when the window's time is up."""
