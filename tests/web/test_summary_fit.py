"""The end summary of both games fits its column, with no sideways scroll, on a laptop at
1200 px and on a phone at 390 px (people's names in it included)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import httpx
import pytest

from tests.server.messages import RoomCreateBody

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser

GAMES = {
    "bash": (
        "bash.html",
        ["options.teams=4", "board.laps=1", "board.lanes.outer=8", "board.lanes.centre=6"],
    ),
    "tower": (
        "tower.html",
        ["options.players=6", "options.deal=random", "physics.ruling=statics"],
    ),
}


def finished(server_url: str, game: str) -> str:
    """A room of ``game`` whose seats are bots but the first, named at length, once over."""
    settings = GAMES[game][1]
    seats = 4 if game == "bash" else 6
    body: RoomCreateBody = {
        "game": game,
        "settings": settings,
        "bots": [None] + ["random"] * (seats - 1),
        "options": {"turn_timer_s": 0.05, "pass_hold_s": 0},
    }
    room = str(httpx.post(f"{server_url}/api/rooms", json=body).json()["room"]["id"])
    name = "Bartholomew Fitzgerald-Smythe"
    assert httpx.post(f"{server_url}/api/rooms/{room}/seats/0", json={"name": name}).is_success
    deadline = time.monotonic() + 120
    while httpx.get(f"{server_url}/api/rooms/{room}").json()["status"] != "over":
        assert time.monotonic() < deadline, f"the {game} game did not end"
        time.sleep(0.1)
    return room


@pytest.mark.parametrize("game", ["bash", "tower"])
def test_the_summary_fits_at_1200_and_390_px(page: Page, server_url: str, game: str) -> None:
    room = finished(server_url, game)
    for width, height in ((1200, 800), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"/static/{GAMES[game][0]}?room={room}&watch")
        page.wait_for_selector("#game-summary table")
        overflow = page.evaluate(
            """() => [...document.querySelectorAll('.summary-scroll')].map(
                (el) => el.scrollWidth - el.clientWidth)"""
        )
        assert overflow and all(cut <= 1 for cut in overflow), (game, width, overflow)
        page_width = page.evaluate("document.documentElement.scrollWidth")
        assert page_width <= width, (game, width, page_width)
