"""What the server tests share: rooms, seats and WebSocket conversations."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, Unpack, overload

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from splash.core.actions import Json
from tests.documents import json_object
from tests.server.messages import (
    AckMessage,
    ActionDoc,
    ChanceDoc,
    ChatDoc,
    CheckAnswerMessage,
    ClosedMessage,
    ErrorMessage,
    PongMessage,
    RematchMessage,
    RoomCreateBody,
    RoomCreatedDoc,
    RoomOptionsBody,
    SeatClaimBody,
    SeatsMessage,
    ServerMessage,
    StateMessage,
    UndoAskedMessage,
    UndoneMessage,
    UndoResultMessage,
    UpdateMessage,
    ViewMessage,
    WelcomeMessage,
)

FORMAT = "splash/ws/1"

NO_HOLD: RoomOptionsBody = {"pass_hold_s": 0}
"""The options of a room whose windows are not held open (``server.hold``): for tests that
play whole games by people to test something else (test_held_windows.py tests holding)."""

SMALL_BASH = [
    "options.teams=2",
    "board.laps=1",
    "board.lanes.outer=12",
    "board.lanes.centre=10",
    "board.lanes.high_tide=8",
]
"""A short Splash & Bash game (about 200 actions)."""


QUICK_TIMER_S = 0.01
"""A turn timer that makes the timer's bot play every person's decision at once: a game of
people that plays itself to its end."""


def action_docs(actions: Sequence[Json]) -> list[ActionDoc]:
    """The actions of a log, each one the JSON object of an action, as the server logs it."""
    return [json_object(action) for action in actions]


def msg(kind: str, **fields: Json) -> dict[str, Json]:
    """A client message."""
    return {"format": FORMAT, "type": kind, **fields}


def create_room(client: TestClient, **body: Unpack[RoomCreateBody]) -> RoomCreatedDoc:
    """Create a room and return the response body (201 expected)."""
    response = client.post("/api/rooms", json=body)
    assert response.status_code == 201, response.text
    result: RoomCreatedDoc = response.json()
    return result


def take_seat(
    client: TestClient, room: str, seat: int, **body: Unpack[SeatClaimBody]
) -> str | None:
    """Take ``seat`` and return its token."""
    response = client.post(f"/api/rooms/{room}/seats/{seat}", json=body or {"name": "p"})
    assert response.status_code == 201, response.text
    token: str | None = response.json()["token"]
    return token


def receive(ws: WebSocketTestSession) -> ServerMessage:
    """The next message the server sent on ``ws``."""
    doc: ServerMessage = ws.receive_json()
    return doc


def join(ws: WebSocketTestSession, token: str | None = None, **extra: Json) -> WelcomeMessage:
    """Send the join message and return the welcome."""
    ws.send_json(msg("join", token=token, **extra))
    welcome = receive(ws)
    assert welcome["type"] == "welcome", welcome
    return welcome


def pending_chance(doc: ViewMessage) -> ChanceDoc:
    """The chance event that a referee's message says is pending (the test expects one)."""
    chance = doc.get("chance")
    assert chance is not None, f"no chance event is pending: {doc}"
    return chance


Received = list[ServerMessage]
"""Every message read while waiting for one."""


@overload
def receive_until(
    ws: WebSocketTestSession, kind: Literal["welcome"], limit: int = ...
) -> tuple[WelcomeMessage, Received]: ...
@overload
def receive_until(
    ws: WebSocketTestSession, kind: Literal["state"], limit: int = ...
) -> tuple[StateMessage, Received]: ...
@overload
def receive_until(
    ws: WebSocketTestSession, kind: Literal["update"], limit: int = ...
) -> tuple[UpdateMessage, Received]: ...
@overload
def receive_until(
    ws: WebSocketTestSession, kind: Literal["ack"], limit: int = ...
) -> tuple[AckMessage, Received]: ...
@overload
def receive_until(
    ws: WebSocketTestSession, kind: Literal["seats"], limit: int = ...
) -> tuple[SeatsMessage, Received]: ...
@overload
def receive_until(
    ws: WebSocketTestSession, kind: Literal["error"], limit: int = ...
) -> tuple[ErrorMessage, Received]: ...
@overload
def receive_until(
    ws: WebSocketTestSession, kind: Literal["check"], limit: int = ...
) -> tuple[CheckAnswerMessage, Received]: ...
@overload
def receive_until(
    ws: WebSocketTestSession, kind: Literal["pong"], limit: int = ...
) -> tuple[PongMessage, Received]: ...
@overload
def receive_until(
    ws: WebSocketTestSession, kind: Literal["closed"], limit: int = ...
) -> tuple[ClosedMessage, Received]: ...
@overload
def receive_until(
    ws: WebSocketTestSession, kind: Literal["undone"], limit: int = ...
) -> tuple[UndoneMessage, Received]: ...
@overload
def receive_until(
    ws: WebSocketTestSession, kind: Literal["undo_asked"], limit: int = ...
) -> tuple[UndoAskedMessage, Received]: ...
@overload
def receive_until(
    ws: WebSocketTestSession, kind: Literal["undo_result"], limit: int = ...
) -> tuple[UndoResultMessage, Received]: ...
@overload
def receive_until(
    ws: WebSocketTestSession, kind: Literal["chat"], limit: int = ...
) -> tuple[ChatDoc, Received]: ...
@overload
def receive_until(
    ws: WebSocketTestSession, kind: Literal["rematch"], limit: int = ...
) -> tuple[RematchMessage, Received]: ...
def receive_until(
    ws: WebSocketTestSession, kind: str, limit: int = 10_000
) -> tuple[ServerMessage, Received]:
    """Read messages until one of type ``kind``; returns it and every message read.

    An ``error`` while waiting for something else fails the test (rather than waiting on).
    """
    seen: Received = []
    for _ in range(limit):
        doc = receive(ws)
        seen.append(doc)
        if doc["type"] == kind:
            return doc, seen
        if doc["type"] == "error":
            raise AssertionError(f"waiting for {kind}, got {doc}")
    raise AssertionError(f"no {kind} message in {limit}")


def until_over(ws: WebSocketTestSession) -> UpdateMessage:
    """Read the messages of ``ws`` until the ``update`` that ends the game."""
    while True:
        update, _ = receive_until(ws, "update")
        if update["status"] == "over":
            return update
