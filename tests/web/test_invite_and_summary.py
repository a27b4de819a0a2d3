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
from tests.web.rooms import create_seated_room, open_seat_page, play_to_summary

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
    friend.wait_for_function(
        "() => window.splashBash && window.splashBash.conn && window.splashBash.conn.role === 'seat'"
    )
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

    rule = page.evaluate(
        """async () => {
             const { pickLanguage } = await import('/static/js/i18n.js');
             return [
               pickLanguage({ browser: ['en-US'], invited: 'fr' }),
               pickLanguage({ browser: ['de-DE', 'en'], invited: 'fr' }),
               pickLanguage({ browser: ['en-GB', 'cs'], invited: 'fr' }),
               pickLanguage({ browser: ['it-IT'], invited: 'fr' }),
               pickLanguage({ stored: 'en', browser: ['it-IT'], invited: 'fr' }),
               pickLanguage({ browser: ['en-US', 'fr'] }),
               pickLanguage({ browser: ['de'], invited: 'xx' }),
             ]; }"""
    )
    assert rule == ["fr", "fr", "cs", "it", "en", "en", "en"]
    lobby = page.context.new_page()
    lobby.goto("/")
    lobby.wait_for_selector(f"#invite-{room}-link")
    assert lobby.input_value(f"#invite-{room}-link") == page.input_value("#invite-link")
    screenshot(page, "tower-invite")
    screenshot(lobby, "lobby-invite")


def summary_rows(page: Page) -> list[list[str]]:
    """The cells of the summary table, a row per team or player, in place order."""
    rows = page.locator("#game-summary tbody tr")
    return [rows.nth(i).locator("th, td").all_inner_texts() for i in range(rows.count())]


def test_two_friends_play_splash_and_bash_to_the_end_and_both_see_the_summary(
    contexts: NewContext, server_url: str, screenshot: Shot
) -> None:
    settings = [*SHORT_BASH, "options.turn_cap=2"]
    body: RoomCreateBody = {"game": "bash", "settings": settings, "bots": [None, None]}
    room, token = create_seated_room(server_url, body)
    inviter = contexts("en-GB").new_page()
    errors: list[str] = []
    inviter.on("pageerror", lambda error: errors.append(str(error)))
    open_seat_page(inviter, room, token, "bash.html")
    inviter.wait_for_selector("#invite-link")
    friend = contexts("en-GB").new_page()
    friend.on("pageerror", lambda error: errors.append(str(error)))
    friend.goto(inviter.input_value("#invite-link"))
    friend.fill("#join-name", "<b>Bea</b>")  # a name is text, never markup
    friend.click("#take-1")
    friend.wait_for_selector("svg.pool")
    pages = (inviter, friend)
    bea = "Team B (<b>Bea</b>)"
    inviter.wait_for_function("(who) => document.body.innerText.includes(who)", arg=bea)
    assert inviter.locator("b", has_text="Bea").count() == 0
    friend.fill("#chat-text", "hello")
    friend.click("#chat-send")
    inviter.wait_for_selector("#chat-lines .chat-line")
    assert inviter.inner_text("#chat-lines .chat-who") == bea
    play_to_summary(pages, 60)
    summary = inviter.evaluate("() => window.splashBash.view.summary")
    assert summary == friend.evaluate("() => window.splashBash.view.summary")
    assert summary["turns"] == 2
    assert inviter.inner_text("#summary-length") == "Team turns in the game: 2"
    for p in pages:
        assert p.locator("#choices .winner").inner_text() == "No team wins."
        assert p.locator("#invite").count() == 0
        rows = summary_rows(p)
        teams = sorted(summary["teams"], key=lambda t: (t["place"], t["team"]))
        assert [row[0] for row in rows] == [str(t["place"]) for t in teams]
        assert {row[1].strip() for row in rows} == {"Team A (Ann)", bea}
        assert "Team A (Ann)" in p.inner_text(".hands") and bea in p.inner_text(".hands")
        keys = ("bumps_made", "bumps_suffered", "falls", "cards_played")
        for row, team in zip(rows, teams, strict=True):
            assert row[2:] == [str(team[k]) for k in keys]
    screenshot(inviter, "bash-summary-inviter")
    screenshot(friend, "bash-summary-friend")
    assert errors == []


def test_a_friend_watches_splash_from_the_invite_and_both_pages_show_the_summary(
    contexts: NewContext, server_url: str, screenshot: Shot
) -> None:
    settings = ["options.players=2", "options.deal=random", "options.turn_cap=1"]
    body: RoomCreateBody = {"game": "tower", "settings": settings, "bots": [None, "random"]}
    room, token = create_seated_room(server_url, body)
    player = contexts("en-GB").new_page()
    errors: list[str] = []
    player.on("pageerror", lambda error: errors.append(str(error)))
    open_seat_page(player, room, token, "tower.html")
    player.wait_for_selector("#invite-link")
    friend = contexts("it-IT").new_page()
    friend.on("pageerror", lambda error: errors.append(str(error)))
    friend.goto(player.input_value("#invite-link"))
    friend.click("#join-watch")
    friend.wait_for_url(re.compile(rf"/static/tower\.html\?room={room}&lang=en&watch$"))
    friend.wait_for_function("() => window.splashTower && window.splashTower.view")
    player.wait_for_selector("#action-buttons button")
    player.locator("#action-buttons button").first.click()
    for page in (player, friend):
        page.wait_for_selector("#game-summary", timeout=30_000)
    assert player.locator("#invite").is_hidden()
    summary = player.evaluate("() => window.splashTower.view.summary")
    assert summary == friend.evaluate("() => window.splashTower.view.summary")
    assert summary["placements"] == 1
    assert player.inner_text("#summary-length") == "Placements in the game: 1"
    assert friend.inner_text("#summary-length") == "Pose nella partita: 1"
    names = {0: "Ann", 1: "bot Beginner (seat 2)"}
    players = sorted(summary["players"], key=lambda p: (p["place"], p["seat"]))
    keys = ("drops", "falls_caused", "pieces_placed")
    expected = [[str(p["place"]), names[p["seat"]], *(str(p[k]) for k in keys)] for p in players]
    assert summary_rows(player) == expected
    screenshot(player, "tower-summary-player")
    screenshot(friend, "tower-summary-friend")
    assert errors == []
