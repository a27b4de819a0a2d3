"""The JSON documents of the play server as the tests read them: the bodies of its HTTP
answers (after :mod:`splash.server.schemas`) and the messages of the ``splash/ws/1``
protocol (docs/protocol.md, "Server → client").

A TypedDict names the keys a document has at least; ``tests/server/test_messages.py`` checks
that these name exactly what the server sends.
"""

# No postponed annotations here: the test of these types reads NotRequired at run time.
from typing import Literal, NotRequired, TypedDict

from splash.core.actions import Json
from splash.games.bash.summary import BashSummary
from splash.games.tower.summary import TowerSummary
from splash.server.options import Role

ActionDoc = dict[str, Json]
"""An action's JSON form: ``{"kind": ..., **params}``."""

Status = Literal["open", "playing", "over", "closed"]
"""A room's status."""

Source = Literal["human", "bot", "chance", "referee", "timer", "auto"]
"""Who or what chose an action of the log."""


class SeatDoc(TypedDict):
    """A seat as everyone sees it (``SeatPublic``)."""

    seat: int
    kind: Literal["open", "human", "bot"]
    name: str | None
    bot: str | None
    connected: bool
    client_seed: str | None


class RoomOptionsDoc(TypedDict):
    """A room's options (``RoomOptions``)."""

    turn_timer_s: float | None
    timer_bot: str
    digital: list[str]
    spectator_chat: bool
    pass_hold_s: float


class RoomDoc(TypedDict):
    """A room as everyone sees it (``RoomPublic``)."""

    id: str
    game: str
    mode: Literal["play", "referee"]
    settings: list[str]
    name: str
    status: Status
    options: RoomOptionsDoc
    seats: list[SeatDoc]
    actions: int | None
    created_at: float
    commitment: str | None


class RoomCreatedDoc(TypedDict):
    """The answer to ``POST /api/rooms`` (``RoomCreated``)."""

    room: RoomDoc
    host_token: str
    referee_token: str | None


class RoomOptionsBody(TypedDict, total=False):
    """The options of a new room (``RoomOptions``): each one may be left out."""

    turn_timer_s: float | None
    timer_bot: str
    digital: list[str]
    spectator_chat: bool
    pass_hold_s: float


class RoomCreateBody(TypedDict, total=False):
    """The body of ``POST /api/rooms`` (``RoomCreate``)."""

    game: str
    mode: str
    settings: list[str]
    name: str
    options: RoomOptionsBody
    bots: list[str | None]


class SeatClaimBody(TypedDict, total=False):
    """The body of ``POST /api/rooms/{room}/seats/{seat}`` (``SeatClaim``)."""

    name: str | None
    bot: str | None
    client_seed: str | None


class View(TypedDict):
    """What a seat or a public screen sees of a game: a ``splash/bash-view/1`` or
    ``splash/tower-view/1`` document.  The keys both games have, then the ones of one game
    that the tests read."""

    format: str
    seat: int | None
    to_act: int
    legal_actions: list[ActionDoc]
    events: list[dict[str, Json]]
    winner: Json
    hand: NotRequired[list[str] | None]
    """Splash & Bash: the seat's cards (``None`` on a public screen)."""
    revealed_hands: NotRequired[dict[str, list[str]]]
    """Splash & Bash, public view: the hands their teams show, keyed by seat."""
    phase: NotRequired[str]
    """Splash!: what the seat to act does now (``give``, ``place``, ``result``, ...)."""
    tower: NotRequired[list[dict[str, Json]]]
    """Splash!: the pieces standing, from the base up."""
    table: NotRequired[list[dict[str, Json]]]
    """Splash!: the pieces on the table."""
    gift: NotRequired[str | None]
    """Splash!: the piece given, while it is placed."""
    target: NotRequired[str]
    """Splash!: where the piece being placed goes (a piece, or ``table``)."""
    summary: NotRequired[BashSummary | TowerSummary]
    """Once the game is over: the places and each seat's counts, the same in every view."""


class ReplayStepDoc(TypedDict):
    """The answer to ``GET /api/rooms/{room}/replay/{k}`` (``ReplayStep``): a finished game
    after its first ``index`` actions."""

    room: str
    index: int
    length: int
    action: Json
    to_act: int
    state: dict[str, Json]
    views: list[View]
    summary: dict[str, Json] | None


class ChanceDoc(TypedDict):
    """The pending chance event as a referee sees it, with its outcomes when listing them
    shows no hand."""

    event: dict[str, Json]
    outcomes: NotRequired[list[ActionDoc]]


class _Position(TypedDict):
    """What a ``welcome`` and a ``state`` message hold: everything to draw the game."""

    format: str
    room: str
    game: str
    mode: Literal["play", "referee"]
    role: Role
    seat: int | None
    index: int
    status: Status
    seats: list[SeatDoc]
    view: View
    timer: float | None
    timer_left_s: float | None
    """The seconds really left on the turn timer; ``None`` when none runs or it is paused."""
    chance: NotRequired[ChanceDoc | None]
    """Referee connections only."""


class ChatLineDoc(TypedDict):
    """A chat message: who wrote it, what, when, and the length of the line of play then."""

    role: Role
    seat: int | None
    name: str | None
    text: str
    at: float
    index: int


class ChatDoc(ChatLineDoc):
    """A chat message, to every connection of the room."""

    format: str
    type: Literal["chat"]
    room: str


class LogEntryDoc(TypedDict):
    """One of the log's last entries, as the joining connection may see it."""

    index: int
    actor: int
    source: Source
    action: ActionDoc


class WelcomeMessage(_Position):
    """The answer to ``join``."""

    type: Literal["welcome"]
    log: list[LogEntryDoc]
    """The log's last 50 entries (fewer in a shorter game), oldest first."""
    chat: list[ChatLineDoc]
    """The chat's last 50 messages, oldest first."""
    rematch: str | None
    """The id of the game's rematch room once one was made (a person gets its token by
    sending ``rematch``)."""
    commitment: str | None
    """The commitment to the room's secret (``None``: the room has none)."""


class StateMessage(_Position):
    """The answer to ``sync``; to everyone when the game starts; to the public screens
    after ``reveal`` or ``hide``."""

    type: Literal["state"]


class UndoneMessage(_Position):
    """A takeback was made: the line of play now holds ``index`` actions."""

    type: Literal["undone"]
    by: int
    taken: int


class UndoAskedMessage(TypedDict):
    """A takeback request, to every connection; again, right after its ``welcome``, to a
    connection that joins while the request waits."""

    format: str
    type: Literal["undo_asked"]
    room: str
    by: int
    to: int
    index: int
    waiting: list[int]
    """The seats whose answer is awaited."""
    timeout: float
    """The seconds left to answer."""


class UndoResultMessage(TypedDict):
    """A takeback request ended."""

    format: str
    type: Literal["undo_result"]
    room: str
    by: int
    to: int
    accepted: bool
    reason: Literal["accepted", "refused", "timeout"]
    answered_by: int | None


class UpdateMessage(TypedDict):
    """Action ``index`` was applied: sent to every connection."""

    format: str
    type: Literal["update"]
    room: str
    index: int
    actor: int
    source: Source
    action: ActionDoc
    status: Status
    view: View
    timer_left_s: float | None
    """The seconds of the turn timer after the action: a whole turn when a person is to
    act, ``None`` when no timer runs."""
    chance: NotRequired[ChanceDoc | None]
    """Referee connections only."""


class AckMessage(TypedDict):
    """The sender's action is stored and applied as action ``index``."""

    format: str
    type: Literal["ack"]
    ref: Json
    index: int


class SeatsMessage(TypedDict):
    """A seat was taken, or a person connected or left."""

    format: str
    type: Literal["seats"]
    room: str
    status: Status
    seats: list[SeatDoc]


class ErrorMessage(TypedDict):
    """A refused message, to its sender only."""

    format: str
    type: Literal["error"]
    code: str
    message: str
    ref: Json
    reason: NotRequired[str]
    """``room_closed`` only: ``host`` or ``idle``."""


class CheckAnswerMessage(TypedDict):
    """The answer to ``check``: whether the rules would take the action at ``index``."""

    format: str
    type: Literal["check"]
    ref: Json
    index: int
    ok: bool
    why: str | None


class AnswerMessage(TypedDict):
    """The answer to ``ask``: the game's answer to the extra ``request`` at ``index``, sent
    to the asking connection alone."""

    format: str
    type: Literal["answer"]
    ref: Json
    request: str
    index: int
    answer: Json


class PongMessage(TypedDict):
    """The answer to ``ping``."""

    format: str
    type: Literal["pong"]
    ref: Json


class ClosedMessage(TypedDict):
    """The room was closed; the server then closes the socket."""

    format: str
    type: Literal["closed"]
    room: str
    status: Literal["closed"]
    index: int
    by: Literal["host", "server"]
    reason: Literal["host", "idle"]


class RematchMessage(TypedDict):
    """The rematch of a game that is over: to every connection when it is made, to its
    sender alone when asked for again; ``token`` is the receiver's own, in the new room."""

    format: str
    type: Literal["rematch"]
    room: str
    rematch: str
    """The new room's id."""
    by: int
    """The seat that asked for it, ``-1`` for the referee."""
    token: NotRequired[str]
    """The receiver's own secret token in the new room (a person's message only)."""


ViewMessage = WelcomeMessage | StateMessage | UpdateMessage | UndoneMessage
"""A message that carries the view of the game."""

ServerMessage = (
    WelcomeMessage
    | StateMessage
    | UpdateMessage
    | AckMessage
    | SeatsMessage
    | ErrorMessage
    | CheckAnswerMessage
    | AnswerMessage
    | PongMessage
    | ClosedMessage
    | UndoneMessage
    | UndoAskedMessage
    | UndoResultMessage
    | ChatDoc
    | RematchMessage
)
"""A message of any type that the server sends; its ``type`` tells which."""
