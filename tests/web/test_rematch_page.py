"""The rematch on the Splash & Bash page, between two friends in two browser contexts: a
game played to its end (the quick turn timer decides for both), then Rematch: the one who
asked moves to the new room, the other follows from the offer, each with their own token."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

import httpx
import pytest

from tests.server.conversation import QUICK_TIMER_S
from tests.server.messages import RoomDoc, RoomOptionsBody
from tests.web.rooms import friend, room_of_two

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

Shot: TypeAlias = "Callable[[Page, str], Path]"
QUICK: RoomOptionsBody = {"turn_timer_s": QUICK_TIMER_S, "pass_hold_s": 0}
"""A turn timer so short that its bot plays both seats at once (no window held open, which
would hold the timer's bot too)."""


def room_of(page: Page) -> str:
    """The room the page is on now."""
    room: str = page.evaluate("new URLSearchParams(location.search).get('room')")
    return room


def seats_kept(page: Page, room: str) -> dict[str, str]:
    """The seat tokens the page keeps for ``room``, by seat."""
    kept: dict[str, str] = page.evaluate(
        "(room) => JSON.parse(localStorage.getItem(`splash-seats-${room}`) || '{}')", room
    )
    return kept


def seated(page: Page, seat: int) -> None:
    """Wait until the page's connection holds ``seat``."""
    page.wait_for_function(
        "(seat) => window.splashBash && window.splashBash.conn && window.splashBash.conn.role === 'seat'"
        " && window.splashBash.conn.seat === seat",
        arg=seat,
    )


def test_two_friends_end_a_game_and_both_move_to_the_rematch_with_their_own_tokens(
    browser: Browser, server_url: str, screenshot: Shot
) -> None:
    room, tokens = room_of_two(server_url, "bash", QUICK)
    with (
        friend(browser, server_url, room, seat=0, token=tokens[0], html="bash.html") as ann,
        friend(browser, server_url, room, seat=1, token=tokens[1], html="bash.html") as bob,
    ):
        for page in (ann, bob):
            page.wait_for_selector("#choices .winner")
            page.wait_for_selector("#rematch-ask")
        screenshot(ann, "over")
        with ann.expect_navigation():
            ann.click("#rematch-ask")
        new = room_of(ann)
        assert new != room
        seated(ann, 0)
        join = bob.locator("#rematch-join")
        join.wait_for()
        assert "seat=1" in str(join.get_attribute("href"))
        screenshot(bob, "offered")
        # After a reload the welcome names the rematch; with the token forgotten, Join asks
        # the server for it before moving.
        bob.evaluate("(room) => localStorage.removeItem(`splash-seats-${room}`)", new)
        bob.reload()
        join = bob.locator("#rematch-join")
        join.wait_for()
        assert join.get_attribute("href") is None
        with bob.expect_navigation():
            join.click()
        assert room_of(bob) == new
        seated(bob, 1)
        mine = [seats_kept(ann, new), seats_kept(bob, new)]
        assert list(mine[0]) == ["0"] and list(mine[1]) == ["1"]
        assert mine[0]["0"] != mine[1]["1"] and not {mine[0]["0"], mine[1]["1"]} & set(tokens)
        shown: RoomDoc = httpx.get(f"{server_url}/api/rooms/{new}").json()
        old: RoomDoc = httpx.get(f"{server_url}/api/rooms/{room}").json()
    assert (shown["game"], shown["settings"], shown["options"]) == (
        old["game"],
        old["settings"],
        old["options"],
    )
    assert [(s["kind"], s["name"]) for s in shown["seats"]] == [("human", "Ann"), ("human", "Bob")]


def wait_over(server_url: str, room: str) -> None:
    """Wait until the game of ``room`` is over (as the API shows it)."""
    for _ in range(300):
        if httpx.get(f"{server_url}/api/rooms/{room}").json()["status"] == "over":
            return
        time.sleep(0.1)
    raise AssertionError(f"the game of room {room} did not end")


def test_the_splash_page_of_a_game_over_asks_for_the_rematch_and_moves_there(
    browser: Browser, server_url: str, screenshot: Shot
) -> None:
    room, tokens = room_of_two(server_url, "tower", QUICK)
    wait_over(server_url, room)
    with friend(browser, server_url, room, seat=1, token=tokens[1], html="tower.html") as bob:
        bob.wait_for_selector("#rematch-ask")
        screenshot(bob, "over")
        with bob.expect_navigation():
            bob.click("#rematch-ask")
        new = room_of(bob)
        assert new != room and "seat=1" in bob.url
        assert list(seats_kept(bob, new)) == ["1"]
        bob.wait_for_function("document.getElementById('room-line').textContent.includes('player')")
