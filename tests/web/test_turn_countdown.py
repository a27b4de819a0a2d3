"""The turn timer's countdown on both game pages: after a reload it shows the time really
left on the server's timer (``timer_left_s``), not a whole turn again."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

import httpx
import pytest

from tests.server.conversation import SMALL_BASH
from tests.server.messages import RoomCreateBody

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser

LIMIT = 600
PAGES = {"bash": "bash.html", "tower": "tower.html"}
SETTINGS = {"bash": SMALL_BASH, "tower": ["options.players=2", "options.deal=random"]}


def timed_room(server_url: str, game: str) -> tuple[str, str]:
    """A room of ``game`` with a turn timer of :data:`LIMIT` seconds: seat 0 a person (its
    token), seat 1 a random bot."""
    body: RoomCreateBody = {
        "game": game,
        "settings": SETTINGS[game],
        "bots": [None, "random"],
        "options": {"turn_timer_s": LIMIT},
    }
    created = httpx.post(f"{server_url}/api/rooms", json=body)
    assert created.status_code == 201, created.text
    room = created.json()["room"]["id"]
    seat = httpx.post(f"{server_url}/api/rooms/{room}/seats/0", json={"name": "Ann"})
    assert seat.status_code == 201, seat.text
    return room, str(seat.json()["token"])


def shown_seconds(page: Page) -> int:
    """The seconds the countdown shows, once it shows some."""
    page.wait_for_function("() => /\\d/.test(document.getElementById('timer')?.textContent)")
    text = page.inner_text("#timer")
    assert re.fullmatch(r"Time left for your choice: \d+ s", text), text
    return int(re.findall(r"\d+", text)[0])


@pytest.mark.parametrize("game", ["bash", "tower"])
def test_the_countdown_after_a_reload_shows_the_time_really_left(
    page: Page, server_url: str, page_errors: list[str], game: str
) -> None:
    room, token = timed_room(server_url, game)
    seats = json.dumps({"0": token})
    page.context.add_init_script(
        f"localStorage.setItem({json.dumps(f'splash-seats-{room}')}, {json.dumps(seats)})"
    )
    page.goto(f"/static/{PAGES[game]}?room={room}")
    assert 0 < shown_seconds(page) <= LIMIT
    # Wait for the countdown to go down a few seconds, then reload the page.
    page.wait_for_function(
        f"() => {{ const m = document.getElementById('timer')?.textContent.match(/\\d+/);"
        f" return m && Number(m[0]) <= {LIMIT - 2}; }}"
    )
    page.reload()
    after = shown_seconds(page)
    assert 0 < after < LIMIT, f"the countdown started again at {after} s after the reload"
    assert not page_errors
