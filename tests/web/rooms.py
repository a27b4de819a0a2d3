"""Rooms for the browser tests: one created over the API with seat 0 taken by a person, and
a page opened on that seat."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import httpx

from tests.server.messages import RoomCreateBody

if TYPE_CHECKING:
    from playwright.sync_api import Page


def create_seated_room(server_url: str, body: RoomCreateBody) -> tuple[str, str]:
    """The room ``body`` describes, created with seat 0 taken by a person: (room, token)."""
    created = httpx.post(f"{server_url}/api/rooms", json=body)
    assert created.status_code == 201, created.text
    room = str(created.json()["room"]["id"])
    seat = httpx.post(f"{server_url}/api/rooms/{room}/seats/0", json={"name": "Ann"})
    assert seat.status_code == 201, seat.text
    return room, str(seat.json()["token"])


def open_seat_page(page: Page, room: str, token: str, html: str) -> None:
    """Open ``html`` (``bash.html`` or ``tower.html``) on seat 0 of ``room``, its token
    kept in the page's storage as the lobby keeps it."""
    tokens = json.dumps(json.dumps({"0": token}))
    page.context.add_init_script(f"localStorage.setItem('splash-seats-{room}', {tokens})")
    page.goto(f"/static/{html}?room={room}")
