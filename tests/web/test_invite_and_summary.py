"""Rooms for friends: the invite link of a room (copied from a game page, opened in another
browser, a free seat taken there), and the summary at the end of a game."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

import pytest

from tests.server.messages import RoomCreateBody
from tests.web.conftest import TIMEOUT_MS
from tests.web.rooms import create_seated_room, open_seat_page

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

pytestmark = pytest.mark.browser

Shot: TypeAlias = "Callable[[Page, str], Path]"
NewContext: TypeAlias = "Callable[[str], BrowserContext]"

SHORT_BASH = [
    "options.teams=2",
    "board.laps=1",
    "board.lanes.outer=16",
    "board.lanes.centre=14",
    "board.lanes.high_tide=12",
]


@pytest.fixture
def contexts(browser: Browser, server_url: str) -> Iterator[NewContext]:
    """``new(locale)``: a fresh browser context (its own storage, as another person's
    browser) whose languages are ``locale``; all closed after the test."""
    opened: list[BrowserContext] = []

    def new(locale: str) -> BrowserContext:
        context = browser.new_context(base_url=server_url, locale=locale)
        context.set_default_timeout(TIMEOUT_MS)
        opened.append(context)
        return context

    yield new
    for context in opened:
        context.close()


def stored_seats(page: Page, room: str) -> dict[str, str]:
    """The seat tokens the page's browser keeps for ``room``."""
    found = page.evaluate(f"() => localStorage.getItem('splash-seats-{room}')")
    return dict(json.loads(found or "{}"))


def copy_invite(page: Page) -> str:
    """Click the page's copy button; the link, read back from the clipboard."""
    page.click("#invite-copy")
    page.wait_for_function("() => document.querySelector('#invite-said').textContent !== ''")
    assert page.get_attribute("#invite-said", "data-copied") == "true"
    return str(page.evaluate("() => navigator.clipboard.readText()"))


def test_a_friend_opens_the_invite_link_in_the_inviters_language_and_takes_the_free_seat(
    contexts: NewContext, server_url: str, screenshot: Shot
) -> None:
    body: RoomCreateBody = {"game": "bash", "settings": SHORT_BASH, "bots": [None, None]}
    room, token = create_seated_room(server_url, body)
    host = contexts("en-GB")
    host.grant_permissions(["clipboard-read", "clipboard-write"])
    inviter = host.new_page()
    errors: list[str] = []
    inviter.on("pageerror", lambda error: errors.append(str(error)))
    open_seat_page(inviter, room, token, "bash.html")
    inviter.wait_for_selector("svg.pool")
    inviter.click("#lang-fr")
    inviter.wait_for_function("() => document.documentElement.lang === 'fr'")
    link = copy_invite(inviter)
    assert inviter.inner_text("#invite-said") == "Copié"
    assert link == f"{server_url}/static/join.html?room={room}&lang=fr"
    assert inviter.input_value("#invite-link") == link
    screenshot(inviter, "inviter-copied")

    friend = contexts("en-GB").new_page()
    friend.on("pageerror", lambda error: errors.append(str(error)))
    friend.goto(link)
    friend.wait_for_selector("#join-seats")
    assert friend.inner_text("#invite-title") == "Vous êtes invité à Splash & Bash"
    assert friend.locator("#take-0").count() == 0
    assert friend.inner_text("#take-1") == "Prendre : Équipe B"
    assert friend.locator("#join-watch").count() == 1
    friend.fill("#join-name", "Bob")
    screenshot(friend, "invite-page")
    friend.click("#take-1")
    friend.wait_for_url(re.compile(rf"/static/bash\.html\?room={room}&lang=fr&seat=1$"))
    friend.wait_for_selector("svg.pool")
    friend.wait_for_function("() => window.splashBash.conn.role === 'seat'")
    assert friend.evaluate("() => window.splashBash.conn.seat") == 1
    assert friend.evaluate("() => document.documentElement.lang") == "fr"
    mine = stored_seats(friend, room)
    assert list(mine) == ["1"] and mine["1"] != token
    inviter.wait_for_function(
        """() => window.splashBash.seats.some(
             (s) => s.seat === 1 && s.kind === 'human' && s.name === 'Bob')"""
    )

    czech = contexts("cs-CZ").new_page()
    czech.goto(link)
    czech.wait_for_selector("#invite-full")
    assert czech.inner_text("#invite-title") == "Jste pozváni do hry Splash & Bash"
    assert czech.locator("#join-seats button").count() == 0
    assert errors == []


def test_without_the_clipboard_the_link_is_selected_and_the_lobby_offers_it_too(
    contexts: NewContext, server_url: str, screenshot: Shot
) -> None:
    body: RoomCreateBody = {
        "game": "tower",
        "settings": ["options.players=2"],
        "bots": [None, None],
    }
    room, token = create_seated_room(server_url, body)
    page = contexts("en-GB").new_page()
    page.add_init_script(
        "navigator.clipboard.writeText = () => Promise.reject(new Error('denied'));"
        "document.execCommand = () => true;"
    )
    open_seat_page(page, room, token, "tower.html")
    page.wait_for_selector("#invite-copy")
    page.click("#invite-copy")
    page.wait_for_function("() => document.querySelector('#invite-said').textContent !== ''")
    assert page.inner_text("#invite-said") == "Copied"
    selected = page.evaluate(
        """() => { const input = document.querySelector('#invite-link');
                   return input.value.slice(input.selectionStart, input.selectionEnd); }"""
    )
    assert selected == page.input_value("#invite-link")
    assert selected.endswith(f"/static/join.html?room={room}&lang=en")

    lobby = page.context.new_page()
    lobby.goto("/")
    lobby.wait_for_selector(f"#invite-{room}-link")
    assert lobby.input_value(f"#invite-{room}-link") == page.input_value("#invite-link")
    screenshot(page, "tower-invite")
    screenshot(lobby, "lobby-invite")
