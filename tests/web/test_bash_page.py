"""The lobby and the Splash & Bash page in a real browser against a real server."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

import httpx
import pytest

from splash.core.i18n import message
from tests.web.rooms import CHOICE, wait_for_choice

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser

Shot: TypeAlias = "Callable[[Page, str], Path]"


def create_bash_room(
    page: Page, *, mode: str = "play", opponent: str = "random", timer: int | None = None
) -> None:
    """Create a two-team room from the lobby (team A: this page) and land on its page."""
    page.goto("/")
    page.wait_for_selector("#create-room")
    if mode == "referee":
        page.select_option("#mode", "referee")
    else:
        page.select_option("#who-1", opponent)
    if timer is not None:
        page.fill("#timer", str(timer))
    page.click("#create-room")
    page.wait_for_url(re.compile(r"/static/bash\.html\?room=\w+"))
    page.wait_for_selector("svg.pool")


def turn_number(page: Page) -> int:
    found = re.search(r"\d+", page.inner_text("#turn-line"))
    return int(found.group()) if found else 0


def play_until_turn(page: Page, turn: int, *, limit: int = 40) -> int:
    """Click the first offered choice until the game reaches ``turn``; the clicks made."""
    clicks = 0
    while turn_number(page) < turn and clicks < limit:
        page.locator(CHOICE).first.click()
        clicks += 1
        page.wait_for_function("() => !document.querySelector('#choices button.choice[disabled]')")
        wait_for_choice(page)
    return clicks


def test_a_room_against_a_bot_is_played_by_clicking_and_survives_a_reload(
    page: Page, screenshot: Shot, page_errors: list[str]
) -> None:
    create_bash_room(page, timer=600)
    assert "token" not in page.url
    page.wait_for_selector(CHOICE)
    assert re.fullmatch(r"Time left for your choice: \d+ s", page.inner_text("#timer"))
    assert page.inner_text("#role").startswith("You play team A")
    first = page.locator(CHOICE).first.inner_text()
    assert first.startswith("Start in the")

    # Keyboard: Tab reaches a choice and Enter takes it.
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.matches('#choices button.choice')"):
            break
    else:
        pytest.fail("no choice button is reachable with Tab")
    page.keyboard.press("Enter")
    page.wait_for_selector("#log li")

    clicks = play_until_turn(page, 4)
    assert turn_number(page) >= 4, f"still turn {turn_number(page)} after {clicks} clicks"
    log = page.inner_text("#log")
    assert "The die shows" in log
    assert page.locator("svg.pool .piece").count() >= 2
    screenshot(page, "played")

    before = (page.inner_text("#turn-line"), page.inner_text("#hands"))
    # The page's own lines for the actions taken: each must come back with the welcome's log.
    actions_before = [
        line
        for line in page.inner_text("#log").splitlines()
        if re.match(r"Team \w+( \(.+?\))?: ", line)
    ]
    assert actions_before
    page.reload()
    page.wait_for_selector("svg.pool")
    page.wait_for_function(
        "() => document.querySelector('#role').textContent.startsWith('You play team A')"
    )
    # The seat list may still say "away" for a moment: the old socket's goodbye.
    page.wait_for_function(
        "(hands) => document.querySelector('#hands').innerText === hands", arg=before[1]
    )
    assert (page.inner_text("#turn-line"), page.inner_text("#hands")) == before
    # The log survives the reload: the welcome brings the last 50 entries.
    page.wait_for_selector("#log li")
    replayed = iter(page.inner_text("#log").splitlines())
    missing = [line for line in actions_before if not any(line == seen for seen in replayed)]
    assert not missing, f"the reloaded log lacks {missing}"
    assert "Team A (host): " in page.inner_text("#log")  # the lobby's host, unnamed
    assert "Team B: " in page.inner_text("#log")

    watcher = page.context.new_page()
    watcher.goto(page.url.split("&")[0] + "&watch")
    watcher.wait_for_function(
        "() => document.querySelector('#role')?.textContent.startsWith('Spectator')"
    )
    assert watcher.inner_text("#turn-line") == before[0]
    assert "(you)" not in watcher.inner_text("#hands")
    assert watcher.locator(CHOICE).count() == 0
    watcher.close()
    assert page_errors == []


def test_a_lost_connection_shows_the_banner_and_comes_back(
    page: Page, screenshot: Shot, page_errors: list[str]
) -> None:
    create_bash_room(page)
    page.wait_for_selector(CHOICE)
    page.context.set_offline(True)
    banner = page.locator("#connection-banner")
    banner.wait_for(state="visible")
    assert "reconnecting" in banner.inner_text()
    screenshot(page, "offline")
    page.context.set_offline(False)
    page.wait_for_function(
        "() => document.querySelector('#connection-banner').textContent.includes('Connected again')",
        timeout=20_000,
    )
    page.locator(CHOICE).first.click()
    page.wait_for_selector("#log li")
    assert page_errors == []


def test_the_page_switches_to_french_and_remembers_it(
    page: Page, screenshot: Shot, page_errors: list[str]
) -> None:
    create_bash_room(page)
    page.wait_for_selector("#turn-line")
    english = page.inner_text("#turn-line")
    page.click("[data-lang-choice=fr]")
    team = "A (host)"  # the lobby's host, who gave no name
    expected = message(
        "Turn {turn} · team {team} plays with {piece}", turn=1, team=team, piece="A1"
    )
    french = expected.render("fr")
    assert french != expected.render("en")
    page.wait_for_function(
        "(text) => document.querySelector('#turn-line').textContent === text", arg=french
    )
    assert page.inner_text("#turn-line") != english
    assert page.evaluate("() => document.documentElement.lang") == "fr"
    outer = message("Outer").render("fr")
    page.wait_for_function(
        "(name) => document.querySelector('.lane-legend').textContent.includes(name)", arg=outer
    )
    screenshot(page, "french")
    page.reload()
    page.wait_for_function(
        "(text) => document.querySelector('#turn-line')?.textContent === text", arg=french
    )
    assert page_errors == []


def test_the_referee_enters_a_roll_on_a_phone(
    page: Page, screenshot: Shot, page_errors: list[str]
) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    create_bash_room(page, mode="referee")
    assert page.inner_text("#role").startswith("Referee")
    rolled = False
    for _ in range(30):
        page.wait_for_selector(CHOICE)
        faces = page.locator("#choices .outcomes-roll button.choice:not([disabled])")
        if faces.count():
            assert faces.count() == 6
            screenshot(page, "roll")
            faces.nth(3).click()
            rolled = True
            break
        page.locator(CHOICE).first.click()
        page.wait_for_function("() => !document.querySelector('#choices button.choice[disabled]')")
    assert rolled, "the referee was never asked for a roll"
    page.wait_for_function(
        "() => document.querySelector('#log').textContent.includes('The die shows 4.')"
    )
    assert page.locator("#hands li").count() == 2
    page.click("#reveal-0")
    page.wait_for_function("() => document.querySelector('#hands').textContent.includes('shown:')")
    assert page.get_attribute("#reveal-0", "aria-pressed") == "true"
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390
    screenshot(page, "after-roll")
    assert page_errors == []


@pytest.mark.slow
def test_a_short_game_is_played_to_its_end_with_cards_and_obstacles(
    page: Page, screenshot: Shot, page_errors: list[str]
) -> None:
    page.goto("/")
    page.wait_for_selector("#create-room")
    page.select_option("#who-1", "random")
    page.fill(
        "#settings",
        "board.laps=1\nboard.lanes.outer=16\nboard.lanes.centre=14\nboard.lanes.high_tide=12",
    )
    page.click("#create-room")
    page.wait_for_url(re.compile(r"/static/bash\.html\?room=\w+"))
    kinds: set[str] = set()
    for clicks in range(200):
        wait_for_choice(page)
        if page.locator("#choices .winner").count():
            break
        offered = page.locator(CHOICE)
        kinds.update(
            offered.nth(i).get_attribute("data-kind") or "" for i in range(offered.count())
        )
        # Every third choice is the last one offered: a card, an obstacle, another lane.
        (offered.last if clicks % 3 == 0 else offered.first).click()
        page.wait_for_function("() => !document.querySelector('#choices button.choice[disabled]')")
    else:
        pytest.fail("the game did not end within 200 choices")
    assert page.inner_text("#choices .winner") in ("Team A (host) wins!", "Team B wins!")
    assert page.inner_text("#decision").startswith("Game over")
    assert {"start_lane", "change_lane", "stay"} <= kinds
    assert page.inner_text("#error-line") == ""
    screenshot(page, "over")
    assert page_errors == []


def test_a_refusal_of_the_server_is_shown_in_the_page_language(
    page: Page, server_url: str, page_errors: list[str]
) -> None:
    page.goto("/")
    page.click("[data-lang-choice=fr]")
    page.wait_for_function("() => document.documentElement.lang === 'fr'")
    page.fill("#settings", "board.lanes.outr=36")
    page.click("#create-room")
    page.wait_for_function("() => document.querySelector('#create-error').textContent !== ''")
    body = {"game": "bash", "settings": ["options.teams=2", "board.lanes.outr=36"]}
    french = httpx.post(f"{server_url}/api/rooms?lang=fr", json=body).json()["detail"]
    english = httpx.post(f"{server_url}/api/rooms?lang=en", json=body).json()["detail"]
    assert french["code"] == "bad_option"
    assert french["message"] != english["message"]
    assert page.inner_text("#create-error") == french["message"]
    assert page_errors == []
