"""The request and response bodies of the HTTP API (Base / Create / Public schemas)."""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Final, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, WithJsonSchema

from splash.core.fairness import ClientSeedError, check_client_seed
from splash.games import GAMES
from splash.games.registry import unknown_game
from splash.server.options import PLAY, Mode, RoomOptions


def known_game(game: str) -> str:
    """``game`` if it is the id of a game of :data:`splash.games.GAMES`; else a
    ``ValueError`` whose message lists the known games."""
    if game not in GAMES:
        raise ValueError(unknown_game(GAMES, game).render("en"))
    return game


GameId = Annotated[
    str,
    AfterValidator(known_game),
    WithJsonSchema({"type": "string", "enum": list(GAMES), "title": "Game"}),
]
"""A game's id, one of :data:`splash.games.GAMES` (an enumeration in the OpenAPI schema)."""


class RoomBase(BaseModel):
    """What a room is: a game, a mode, the game's ``--set`` settings and a name."""

    model_config = ConfigDict(extra="forbid")

    game: GameId
    mode: Mode = PLAY
    settings: Annotated[list[Annotated[str, Field(max_length=500)]], Field(max_length=100)] = []
    """``KEY=VALUE`` assignments, as ``--set`` takes them: ``board.lanes.outer=36``."""
    name: Annotated[str, Field(max_length=100)] = ""


class RoomCreate(RoomBase):
    """A new room: its options, and the bots that fill seats at once (``null``: open)."""

    options: RoomOptions = RoomOptions()
    bots: Annotated[list[Annotated[str, Field(max_length=200)] | None], Field(max_length=6)] = []


class SeatPublic(BaseModel):
    """A seat as everyone sees it (never its token)."""

    seat: int
    kind: Literal["open", "human", "bot"]
    name: str | None
    bot: str | None
    connected: bool
    client_seed: str | None = None
    """The seed its person added to the room's chance (none for a bot or an open seat)."""


class RoomPublic(RoomBase):
    """A room as everyone sees it: never its seed nor a token."""

    id: str
    status: Literal["open", "playing", "over", "closed"]
    options: RoomOptions
    seats: list[SeatPublic]
    actions: int | None
    """How many actions the log holds (``null`` when the room is not loaded)."""
    created_at: float
    commitment: str | None = None
    """The hex SHA-256 commitment to the room's secret (:mod:`splash.core.fairness`), shown
    from the room's creation; ``null``: a room that draws from a seed nobody may check (a
    referee room without digital events, or one stored before commitments)."""


class RoomCreated(BaseModel):
    """The new room; its host's secret token (``DELETE`` closes the room with it); for a
    referee room, the referee's secret token.  Both are shown this once only."""

    room: RoomPublic
    host_token: str
    referee_token: str | None = None


NAME_MAX: Final = 40
"""The longest name a person may give their seat (characters)."""


def valid_client_seed(seed: str | None) -> str | None:
    """``seed`` when it is a valid client seed (or ``None``); else a ``ValueError`` that
    says what a client seed is."""
    if seed is None:
        return None
    try:
        return check_client_seed(seed)
    except ClientSeedError as error:
        raise ValueError(str(error)) from None


def person_name(name: str | None) -> str | None:
    """A seat's name with its outer spaces taken off (``None`` when nothing is left);
    refused when it holds a control character, which no page could show."""
    if name is None:
        return None
    if any(unicodedata.category(c) in ("Cc", "Cf") for c in name):
        raise ValueError("a name may not hold control characters")
    return name.strip() or None


class SeatClaim(BaseModel):
    """Take a seat as a person (``name``) or fill it with a bot (``bot``: a bot spec)."""

    model_config = ConfigDict(extra="forbid")

    name: Annotated[str | None, Field(max_length=NAME_MAX), AfterValidator(person_name)] = None
    bot: Annotated[str | None, Field(max_length=200)] = None
    client_seed: Annotated[str | None, AfterValidator(valid_client_seed)] = None
    """A person's own seed for the room's chance: 1 to 64 printable ASCII characters
    (:mod:`splash.core.fairness`); a bot has none."""


class SeatTaken(BaseModel):
    """The seat taken; ``token`` (a person's seat only) opens it over the WebSocket."""

    seat: int
    token: str | None


class ReplayStep(BaseModel):
    """A finished game after its first ``index`` actions: the whole state and every view."""

    room: str
    index: int
    length: int
    action: Any
    to_act: int
    state: dict[str, Any]
    views: list[dict[str, Any]]
    summary: dict[str, Any] | None = None
    """The game's end summary, at its last step (``None`` before)."""


class Health(BaseModel):
    """The server answers and its database too."""

    status: Literal["ok"]
    database: Literal["ok"]
    protocol: str


class Load(BaseModel):
    """Where the process's time went since the last reset: how late the event loop woke
    (a 10-ms sleep), garbage collections, and the writer's transactions."""

    loop_lag_p50_ms: float
    loop_lag_p99_ms: float
    loop_lag_max_ms: float
    gc_collections: list[int]
    """How many collections of generation 0, 1 and 2."""
    gc_longest_ms: list[float]
    """The longest collection of each generation."""
    gc_total_ms: float
    transactions: int
    jobs: int
    largest_batch: int
    commit_ms_mean: float
    commit_ms_max: float


class Readiness(BaseModel):
    """Whether the server takes new games: started (games resumed), its writer running,
    not stopping."""

    status: Literal["ready", "not_ready"]
    writer: bool
    stopping: bool


class ErrorPublic(BaseModel):
    """An error: a code and a message in the client's language."""

    code: str
    message: str
