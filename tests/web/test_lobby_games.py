"""The lobby, invite and replay pages build from ``GET /api/games``: a room of every game is
created from the lobby, on a desktop and on a phone, in English and in French; a game whose
declaration names no page of its own is never opened on another game's page."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

import httpx
import pytest

from splash.core.i18n import Message
from splash.games import GAMES

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Route, ViewportSize

pytestmark = pytest.mark.browser

Shot: TypeAlias = "Callable[[Page, str], Path]"
VIEWPORTS: dict[str, tuple[ViewportSize, bool]] = {
    "desktop": ({"width": 1280, "height": 900}, False),
    "phone": ({"width": 390, "height": 844}, True),
}
"""The lobby's sizes: a desktop at 1280 px and a phone at 390 px (touch)."""


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_a_room_of_every_game_is_created_from_the_lobby(
    browser: Browser, server_url: str, screenshot: Shot, viewport: str, lang: str
) -> None:
    size, touch = VIEWPORTS[viewport]
    context = browser.new_context(
        base_url=server_url, locale="en-GB", viewport=size, has_touch=touch, is_mobile=touch
    )
    context.add_init_script(f"localStorage.setItem('splash-lang', '{lang}')")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        for declaration in GAMES.values():
            page.goto("/")
            page.wait_for_selector("#create-room")
            page.select_option("#game", declaration.id)
            naming = declaration.seat_naming
            count = Message(naming.count_label).render(lang)
            page.wait_for_function(
                "(text) => [...document.querySelectorAll('#create .label')]"
                ".some((label) => label.textContent === text)",
                arg=count,
            )
            seats = page.locator("#seats option").all_inner_texts()
            assert seats == [
                str(n) for n in range(declaration.min_seats, declaration.max_seats + 1)
            ]
            assert page.input_value("#seats") == str(declaration.lobby.default_seats)
            second = page.locator("label", has=page.locator("#who-1")).inner_text()
            assert naming.name(1).render(lang) in second
            assert page.input_value("#who-1") == declaration.lobby.ordered()[1].spec
            level = Message(declaration.lobby.ordered()[-1].label).render(lang)
            assert level in page.locator("#who-1").inner_text()
            for choice in declaration.lobby.choices:
                assert page.input_value(f"[id='opt-{choice.key}']") == choice.default
            screenshot(page, f"{declaration.id}-form")
            page.click("#create-room")
            page.wait_for_url(
                re.compile(rf"/static/{re.escape(str(declaration.lobby.page))}\?room=\w+&seat=0")
            )
        assert errors == []
    finally:
        context.close()


def _without_page(game_id: str) -> Callable[[Route], None]:
    """A route handler that answers ``GET /api/games`` with ``game_id`` declaring no page
    and no replay module."""

    def handle(route: Route) -> None:
        answer = route.fetch()
        games: list[dict[str, Any]] = answer.json()
        for game in games:
            if game["id"] == game_id:
                game["page"] = None
                game["replay"] = None
        route.fulfill(response=answer, body=json.dumps(games))

    return handle


def test_a_game_without_a_page_says_so_and_opens_no_other_games_page(
    page: Page, server_url: str, screenshot: Shot, page_errors: list[str]
) -> None:
    game = list(GAMES)[-1]
    other = [declaration.lobby.page for declaration in GAMES.values() if declaration.id != game]
    page.route("**/api/games", _without_page(game))
    page.goto("/")
    page.wait_for_selector("#create-room")
    page.select_option("#game", game)
    page.click("#create-room")
    no_page = Message("no page for this game")
    page.wait_for_function(
        "(text) => document.querySelector('#create-error')?.textContent === text",
        arg=no_page.render("en"),
    )
    assert page.url.rstrip("/") == server_url
    row = page.locator("#rooms tbody tr").first
    assert row.locator(".no-page").first.inner_text() == no_page.render("en")
    hrefs = row.locator("a").evaluate_all("(links) => links.map((link) => link.href)")
    assert not [href for href in hrefs if any(f"/{name}" in href for name in other)]
    page.click("[data-lang-choice=fr]")
    page.wait_for_function(
        "(text) => document.querySelector('#rooms .no-page')?.textContent === text",
        arg=no_page.render("fr"),
    )
    screenshot(page, "lobby-fr")
    room = row.get_attribute("data-room")
    page.goto(f"/static/join.html?room={room}")
    page.wait_for_selector("#no-page")
    assert page.inner_text("#no-page") == no_page.render("fr")
    assert page.locator("#join-seats li").count() == 0
    assert page.locator("#join-watch").count() == 0
    screenshot(page, "join-fr")
    refused = httpx.get(f"{server_url}/api/rooms/{room}/replay")
    assert refused.status_code >= 400
    page.goto(f"/static/replay.html?room={room}")
    page.wait_for_selector("#no-page")
    assert page.locator("#watch-live").count() == 0
    assert page_errors == []


def test_the_lobby_marks_a_person_s_seat_connected_or_away(
    browser: Browser, server_url: str
) -> None:
    from websockets.sync.client import connect

    from splash.server.protocol import WS_FORMAT

    body = {"game": "bash", "name": "marks", "bots": [None, "random"]}
    room = httpx.post(f"{server_url}/api/rooms", json=body).json()["room"]["id"]
    token = httpx.post(f"{server_url}/api/rooms/{room}/seats/0", json={"name": "Ann"}).json()[
        "token"
    ]
    page = browser.new_page(base_url=server_url, locale="en-GB")
    try:
        page.goto("/")
        mark = page.locator("tr:has-text('marks') .live")
        assert mark.inner_text() == "away" and "off" in (mark.get_attribute("class") or "")
        ws_url = server_url.replace("http", "ws") + f"/ws/rooms/{room}"
        with connect(ws_url) as ws:
            ws.send(json.dumps({"format": WS_FORMAT, "type": "join", "token": token}))
            assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
            page.get_by_role("button", name="Refresh").click()
            page.wait_for_function(
                "() => [...document.querySelectorAll('.live.on')].some((m) => m.textContent === 'connected')"
            )
    finally:
        page.close()


@pytest.mark.rule("BV01", "BV04")
def test_a_variant_chosen_under_variants_reaches_the_room_s_settings(
    browser: Browser, server_url: str
) -> None:
    page = browser.new_page(base_url=server_url, locale="en-GB")
    try:
        page.goto("/")
        page.wait_for_selector("#create-room")
        page.select_option("#game", "bash")
        variants = page.locator("#variants")
        assert variants.get_attribute("open") is None  # the designed rules by default
        variants.locator("summary").click()
        page.select_option("[id='opt-options.turn_order']", "snake")
        page.select_option("[id='opt-options.catch_up_draw']", "true")
        page.fill("#name", "variant room")
        page.click("#create-room")
        page.wait_for_url(re.compile(r"/static/bash\.html\?room=\w+&seat=0"))
        room = re.search(r"room=(\w+)", page.url)
        assert room is not None
        settings = httpx.get(f"{server_url}/api/rooms/{room.group(1)}").json()["settings"]
        assert "options.turn_order=snake" in settings and "options.catch_up_draw=true" in settings
        assert not any(
            s.startswith(("options.start_stagger", "options.opening_cards")) for s in settings
        )
    finally:
        page.close()
