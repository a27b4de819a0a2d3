"""Rooms for the browser tests: one created over the API with seat 0 taken by a person, and
a page opened on that seat; one whose two seats two friends take."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from tests.server.conversation import SMALL_BASH
from tests.server.messages import RoomCreateBody, RoomOptionsBody
from tests.web.conftest import TIMEOUT_MS

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page


def create_seated_room(server_url: str, body: RoomCreateBody) -> tuple[str, str]:
    """The room ``body`` describes, created with seat 0 taken by a person: (room, token)."""
    created = httpx.post(f"{server_url}/api/rooms", json=body)
    assert created.status_code == 201, created.text
    room = str(created.json()["room"]["id"])
    seat = httpx.post(f"{server_url}/api/rooms/{room}/seats/0", json={"name": "Ann"})
    assert seat.status_code == 201, seat.text
    return room, str(seat.json()["token"])


TWO_SEATS = {"bash": SMALL_BASH, "tower": ["options.players=2", "options.deal=random"]}
"""The settings of a short two-seat game of each game."""


def room_of_two(
    server_url: str, game: str, options: RoomOptionsBody | None = None
) -> tuple[str, list[str]]:
    """A room of ``game`` (with the room ``options``) whose two seats are taken by people,
    Ann and Bob: its id and their tokens."""
    body: RoomCreateBody = {"game": game, "settings": TWO_SEATS[game]}
    if options is not None:
        body["options"] = options
    created = httpx.post(f"{server_url}/api/rooms", json=body)
    assert created.status_code == 201, created.text
    room = str(created.json()["room"]["id"])
    tokens = []
    for seat, name in enumerate(["Ann", "Bob"]):
        taken = httpx.post(f"{server_url}/api/rooms/{room}/seats/{seat}", json={"name": name})
        assert taken.status_code == 201, taken.text
        tokens.append(str(taken.json()["token"]))
    return room, tokens


def open_seat_page(page: Page, room: str, token: str, html: str) -> None:
    """Open ``html`` (``bash.html`` or ``tower.html``) on seat 0 of ``room``, its token
    kept in the page's storage as the lobby keeps it."""
    tokens = json.dumps(json.dumps({"0": token}))
    page.context.add_init_script(f"localStorage.setItem('splash-seats-{room}', {tokens})")
    page.goto(f"/static/{html}?room={room}")


@contextmanager
def friend(
    browser: Browser,
    server_url: str,
    room: str,
    *,
    seat: int,
    token: str,
    html: str,
    before: Callable[[Page], object] | None = None,
    **options: Any,
) -> Iterator[Page]:
    """A page (``html``) of its own browser context (its own storage, as a friend's own
    browser) holding ``seat`` of ``room``; ``before`` is called with the page before it
    opens (to listen to it from the start); ``options``: more of the context's (a
    viewport, touch)."""
    context = browser.new_context(base_url=server_url, locale="en-GB", **options)
    context.set_default_timeout(TIMEOUT_MS)
    key = json.dumps(f"splash-seats-{room}")
    context.add_init_script(
        f"localStorage.setItem({key}, {json.dumps(json.dumps({str(seat): token}))})"
    )
    try:
        page = context.new_page()
        if before is not None:
            before(page)
        page.goto(f"/static/{html}?room={room}")
        yield page
    finally:
        context.close()


CHOICE = "#choices button.choice:not([disabled])"
"""A choice the Splash & Bash page offers now."""

LOOK_MS = 1_000
"""How often :func:`wait_for_choice` looks whether the game moved on meanwhile."""


def wait_for_choice(page: Page, *, also: str = "", stall_ms: int = TIMEOUT_MS) -> None:
    """Wait until the Splash & Bash page offers a choice or names the winner (or shows
    ``also``, another selector).  The server passes for a seat that can do nothing else
    once each window's time is up (1.5 s), and a team can have ten such windows in a row:
    so the wait fails only when ``stall_ms`` go by without a new line in the page's log."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    wanted = ", ".join(part for part in (CHOICE, "#choices .winner", also) if part)
    log, moved_at = None, time.monotonic()
    while True:
        try:
            page.wait_for_selector(wanted, timeout=LOOK_MS)
            return
        except PlaywrightTimeout:
            now = page.inner_text("#log")
            if now != log:
                log, moved_at = now, time.monotonic()
            elif time.monotonic() - moved_at >= stall_ms / 1000:
                pytest.fail(
                    f"the game stalled: no choice offered and no new log line for "
                    f"{stall_ms / 1000:g} s; the page says {page.inner_text('#decision')!r}"
                )


def play_to_summary(pages: Sequence[Page], rounds: int) -> None:
    """Click each page's first offered choice, round after round, until every page shows the
    end-of-game summary (a failure after ``rounds`` rounds)."""
    for _ in range(rounds):
        if all(p.locator("#game-summary").count() for p in pages):
            return
        for p in pages:
            offered = p.locator(CHOICE)
            if offered.count():
                offered.first.click()
                p.wait_for_function(
                    "() => !document.querySelector('#choices button.choice[disabled]')"
                )
        pages[0].wait_for_timeout(100)
    pytest.fail(f"the game did not end within {rounds} rounds of choices")
