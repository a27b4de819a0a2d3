"""What the server tests share: rooms, seats and WebSocket conversations."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

FORMAT = "splash/ws/1"

SMALL_BASH = [
    "options.teams=2",
    "board.laps=1",
    "board.lanes.outer=12",
    "board.lanes.centre=10",
    "board.lanes.high_tide=8",
]
"""A short Splash & Bash game (about 200 actions)."""


def msg(kind: str, **fields: Any) -> dict[str, Any]:
    """A client message."""
    return {"format": FORMAT, "type": kind, **fields}


def create_room(client: TestClient, **body: Any) -> dict[str, Any]:
    """Create a room and return the response body (201 expected)."""
    response = client.post("/api/rooms", json=body)
    assert response.status_code == 201, response.text
    result: dict[str, Any] = response.json()
    return result


def take_seat(client: TestClient, room: str, seat: int, **body: Any) -> str | None:
    """Take ``seat`` and return its token."""
    response = client.post(f"/api/rooms/{room}/seats/{seat}", json=body or {"name": "p"})
    assert response.status_code == 201, response.text
    token: str | None = response.json()["token"]
    return token


def join(ws: Any, token: str | None = None, **extra: Any) -> dict[str, Any]:
    """Send the join message and return the welcome."""
    ws.send_json(msg("join", token=token, **extra))
    welcome: dict[str, Any] = ws.receive_json()
    assert welcome["type"] == "welcome", welcome
    return welcome


def receive_until(
    ws: Any, kind: str, limit: int = 10_000
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Read messages until one of type ``kind``; returns it and every message read.

    An ``error`` while waiting for something else fails the test (rather than waiting on).
    """
    seen: list[dict[str, Any]] = []
    for _ in range(limit):
        doc: dict[str, Any] = ws.receive_json()
        seen.append(doc)
        if doc["type"] == kind:
            return doc, seen
        if doc["type"] == "error":
            raise AssertionError(f"waiting for {kind}, got {doc}")
    raise AssertionError(f"no {kind} message in {limit}")
