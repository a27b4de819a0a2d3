"""Takebacks on the game pages in a real browser: a referee's entries taken back on a phone
(Splash & Bash and Splash!), a move taken back against a bot (the same roll comes again),
requests among two people accepted and refused, and one that waits while both pages are
reloaded; the takebacks listed by the replay page."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

import httpx
import pytest
from websockets.sync.client import connect

from splash.core.i18n import message
from tests.server.conversation import SMALL_BASH, msg
from tests.web.conftest import TIMEOUT_MS
from tests.web.rooms import create_seated_room
from tests.web.test_replay_page import SHORT_BASH, counter
from tests.web.test_tower_page import GIFT
from tests.web.test_tower_page import create_room as create_tower_room
from tests.web.test_tower_page import open_page as open_tower_page

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

Shot: TypeAlias = "Callable[[Page, str], Path]"
CHOICE = "#choices button.choice:not([disabled])"
VIEW = "() => JSON.stringify(window.splashBash.view)"
TOWER_VIEW = "() => JSON.stringify(window.splashTower.view)"


def settle(page: Page) -> None:
    """Wait until the page offers its choices again (no button waits for the server)."""
    page.wait_for_function("() => !document.querySelector('#choices button.choice[disabled]')")
    page.wait_for_selector(CHOICE)


def wait_for_view(page: Page, view: str) -> None:
    """Wait until the page shows ``view`` (the JSON of ``window.splashBash.view``)."""
    page.wait_for_function(f"(v) => ({VIEW})() === v", arg=view)


def wait_for_new_turn(page: Page, before: str) -> None:
    """Wait until it is this page's turn again, at a position other than ``before``."""
    page.wait_for_function(
        f"""(b) => ({VIEW})() !== b
            && document.querySelector('{CHOICE}') !== null
            && !document.querySelector('#choices button.choice[disabled]')""",
        arg=before,
    )


def open_seat(page: Page, room: str, seat: int, token: str) -> None:
    """Open the Splash & Bash page on ``seat`` of ``room``, its token kept as the lobby
    keeps it."""
    tokens = json.dumps(json.dumps({str(seat): token}))
    page.context.add_init_script(f"localStorage.setItem('splash-seats-{room}', {tokens})")
    page.goto(f"/static/bash.html?room={room}&seat={seat}")
    page.wait_for_selector("svg.pool")


@pytest.fixture
def other(browser: Browser, server_url: str) -> Iterator[Page]:
    """A second person's page, in a browser context of its own."""
    context = browser.new_context(base_url=server_url, locale="en-GB")
    context.set_default_timeout(TIMEOUT_MS)
    try:
        yield context.new_page()
    finally:
        context.close()


def test_a_referee_on_a_phone_takes_back_two_rolls_down_to_the_start(
    page: Page, screenshot: Shot, page_errors: list[str]
) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/")
    page.select_option("#mode", "referee")
    page.click("#create-room")
    page.wait_for_url(re.compile(r"/static/bash\.html\?room=\w+&referee"))
    settle(page)
    start = page.evaluate(VIEW)
    start_line = page.inner_text("#turn-line")
    assert page.is_disabled("#undo"), "nothing to take back yet"
    page.evaluate("() => window.splashBash.conn.undo().catch(() => null)")
    page.wait_for_function("() => document.querySelector('#error-line').textContent !== ''")
    assert page.inner_text("#error-line") == message("there is nothing to take back").render("en")
    rolls = 0
    for _ in range(30):
        faces = page.locator("#choices .outcomes-roll button.choice:not([disabled])")
        if faces.count():
            faces.nth(rolls + 1).click()
            rolls += 1
        else:
            page.locator(CHOICE).first.click()
        settle(page)
        if rolls == 2:
            break
    assert rolls == 2, "the referee was not asked for two rolls"
    assert (page.text_content("#log") or "").count("The die shows") == 2  # folded on a phone
    screenshot(page, "two-rolls")

    page.click("#undo")
    assert page.locator("#undo-question").inner_text() == "Take back the last entry?"
    page.click("#undo-no")
    assert page.locator("#undo-confirm").count() == 0
    assert page.evaluate(VIEW) != start, "refusing the confirmation takes nothing back"
    taken = 0
    while page.is_enabled("#undo") and taken < 30:
        before = page.evaluate(VIEW)
        page.click("#undo")
        if taken == 0:
            screenshot(page, "confirm")
        page.click("#undo-yes")
        page.wait_for_function(f"(b) => ({VIEW})() !== b", arg=before)
        page.wait_for_selector("#undo")
        taken += 1
    assert taken >= 2
    wait_for_view(page, start)
    assert page.inner_text("#turn-line") == start_line
    assert "the game is back at step 0" in page.inner_text("#undo-result")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    screenshot(page, "start-again")
    page.locator(CHOICE).first.click()
    settle(page)
    assert page.inner_text("#error-line") == ""
    assert page_errors == []


def test_a_move_taken_back_against_a_bot_meets_the_same_roll_again(
    page: Page, server_url: str, screenshot: Shot, page_errors: list[str]
) -> None:
    room, token = create_seated_room(
        server_url, {"game": "bash", "settings": SMALL_BASH, "bots": [None, "random"]}
    )
    open_seat(page, room, 0, token)
    settle(page)
    assert page.inner_text("#undo") == "Undo my last move"
    for _ in range(30):  # past the start lanes, to a turn with a roll before and after
        if "The die shows" in page.inner_text("#log"):
            break
        before = page.evaluate(VIEW)
        page.locator(CHOICE).first.click()
        wait_for_new_turn(page, before)
    for _ in range(10):  # a move after which the page's next decision follows a roll
        position = page.evaluate(VIEW)
        choice = page.locator(CHOICE).first.get_attribute("id")
        page.click(f"#{choice}")
        wait_for_new_turn(page, position)
        after = page.evaluate(VIEW)
        if json.loads(after)["dice"]:
            break
    assert json.loads(after)["dice"], "no roll came after 10 moves"
    screenshot(page, "after-move")

    page.click("#undo")
    wait_for_view(page, position)
    assert "took back their last move" in page.inner_text("#undo-result")
    page.click(f"#{choice}")
    wait_for_new_turn(page, position)
    assert page.evaluate(VIEW) == after, "the same move met another roll"
    screenshot(page, "same-roll")
    assert page.inner_text("#error-line") == ""
    assert page_errors == []


def test_two_people_accept_one_takeback_request_and_refuse_another(
    page: Page, other: Page, server_url: str, screenshot: Shot, page_errors: list[str]
) -> None:
    room, token = create_seated_room(server_url, {"game": "bash", "settings": SMALL_BASH})
    claimed = httpx.post(f"{server_url}/api/rooms/{room}/seats/1", json={"name": "Bob"})
    assert claimed.status_code == 201, claimed.text
    open_seat(page, room, 0, token)
    open_seat(other, room, 1, str(claimed.json()["token"]))
    settle(page)
    start = page.evaluate(VIEW)
    assert page.inner_text("#undo") == "Ask to undo my last move"
    assert page.is_disabled("#undo") and other.is_disabled("#undo")

    page.locator(CHOICE).first.click()
    wait_for_new_turn(page, start)  # team A places its pawns one after the other
    page.click("#undo")
    other.wait_for_selector("#undo-prompt")
    assert "Team A (Ann) asks to take back their last move" in other.inner_text("#undo-prompt")
    assert "waiting for the others" in page.inner_text("#undo-waiting")
    assert page.locator("#choices button.choice[disabled]").count() > 0, "no move meanwhile"
    screenshot(other, "asked")
    other.click("#undo-accept")
    wait_for_view(page, start)
    settle(page)
    for each in (page, other):
        each.wait_for_function("() => !document.querySelector('#undo-prompt, #undo-waiting')")
        assert "Team A (Ann) took back their last move" in each.inner_text("#undo-result")

    page.locator(CHOICE).first.click()
    wait_for_new_turn(page, start)
    page.click("#undo")
    other.click("#undo-refuse")
    for each in (page, other):
        each.wait_for_function(
            "() => document.querySelector('#undo-result')?.textContent"
            ".includes('Team B (Bob) refused the takeback asked by Team A (Ann)')"
        )
        assert each.locator("#undo-prompt, #undo-waiting").count() == 0
    screenshot(page, "refused")
    settle(page)
    before = other.evaluate(VIEW)
    page.locator(CHOICE).first.click()
    other.wait_for_function(f"(b) => ({VIEW})() !== b", arg=before)
    assert page.inner_text("#error-line") == other.inner_text("#error-line") == ""
    assert page_errors == []


def test_a_request_survives_a_reload_of_both_pages_and_is_still_accepted(
    page: Page, other: Page, server_url: str, screenshot: Shot, page_errors: list[str]
) -> None:
    room, token = create_seated_room(server_url, {"game": "bash", "settings": SMALL_BASH})
    claimed = httpx.post(f"{server_url}/api/rooms/{room}/seats/1", json={"name": "Bob"})
    assert claimed.status_code == 201, claimed.text
    open_seat(page, room, 0, token)
    open_seat(other, room, 1, str(claimed.json()["token"]))
    settle(page)
    start = page.evaluate(VIEW)
    page.locator(CHOICE).first.click()
    wait_for_new_turn(page, start)
    page.click("#undo")
    other.wait_for_selector("#undo-prompt")

    other.reload()
    other.wait_for_selector("#undo-prompt")
    asked = other.inner_text("#undo-asked")
    found = re.fullmatch(
        r"Team A \(Ann\) asks to take back their last move\. Answer within (\d+) s\.", asked
    )
    assert found is not None, asked
    assert 0 < int(found.group(1)) <= 30
    assert "Team A (Ann) asks to take back their last move." in other.inner_text("#log")
    page.reload()
    page.wait_for_selector("#undo-waiting")
    assert "waiting for the others" in page.inner_text("#undo-waiting")
    assert page.locator("#undo-prompt").count() == 0, "the asker is not asked"
    screenshot(other, "asked-after-reload")

    other.click("#undo-accept")
    wait_for_view(page, start)
    for each in (page, other):
        each.wait_for_function("() => !document.querySelector('#undo-prompt, #undo-waiting')")
        assert "Team A (Ann) took back their last move" in each.inner_text("#undo-result")
    settle(page)
    assert page.inner_text("#error-line") == other.inner_text("#error-line") == ""
    assert page_errors == []


def play_to_the_end_with_one_takeback(server_url: str, room: str, token: str) -> int:
    """Play seat 0 of ``room`` (its first choice each time) to the end of the game, its
    first decision taken back once; the length of the line of play after the takeback."""
    with connect(server_url.replace("http", "ws", 1) + f"/ws/rooms/{room}") as ws:
        ws.send(json.dumps(msg("join", token=token)))
        back_to = -1
        for _ in range(5000):
            doc: dict[str, Any] = json.loads(ws.recv(timeout=20))
            if doc["type"] == "ack" and back_to < 0:
                ws.send(json.dumps(msg("undo")))
            elif doc["type"] == "undone":
                back_to = doc["index"]
            if doc.get("status") == "over":
                assert back_to >= 0, "the takeback was not made"
                return back_to
            view = doc.get("view")
            if doc["type"] in ("welcome", "update", "undone") and view and view["to_act"] == 0:
                index = doc["index"] + (1 if doc["type"] == "update" else 0)
                if view["legal_actions"]:
                    choice = view["legal_actions"][0]
                    ws.send(json.dumps(msg("act", action=choice, expect=index)))
    pytest.fail("the game did not end")


def test_the_replay_lists_the_takebacks_after_the_end(
    page: Page, server_url: str, screenshot: Shot, page_errors: list[str]
) -> None:
    room, token = create_seated_room(
        server_url,
        {
            "game": "bash",
            "settings": SHORT_BASH,
            "bots": [None, "random"],
            "options": {"pass_hold_s": 0},  # test_bash_turns.py plays windows held open
        },
    )
    back_to = play_to_the_end_with_one_takeback(server_url, room, token)
    replay = httpx.get(f"{server_url}/api/rooms/{room}/replay").json()
    [takeback] = replay["meta"]["takebacks"]
    assert takeback["by"] == 0 and takeback["to"] == back_to < takeback["from"]
    page.goto(f"/static/replay.html?room={room}")
    n = len(replay["actions"])
    counter(page, 0, n)
    page.keyboard.press("End")
    counter(page, n, n)
    assert page.inner_text("#replay-takebacks li") == (
        f"Team A (Ann) took the game back from step {takeback['from']} to step {back_to}."
    )
    screenshot(page, "takebacks")
    assert page_errors == []


def test_a_referee_of_splash_on_a_phone_takes_back_a_report(
    page: Page, server_url: str, screenshot: Shot, page_errors: list[str]
) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    room, token = create_tower_room(server_url, mode="referee")
    open_tower_page(page, room, f"splash-referee-{room}", token, "&referee")
    page.wait_for_selector(GIFT)
    start = page.evaluate(TOWER_VIEW)
    assert page.is_disabled("#undo"), "the digital deal is no entry of the referee"
    page.locator(GIFT).first.click()
    page.click("[data-report='stood']")
    page.wait_for_function("() => window.splashTower.view.tower.length === 1")
    page.click("#undo")
    screenshot(page, "confirm")
    page.click("#undo-yes")
    page.wait_for_function("() => window.splashTower.view.phase === 'result'")
    assert page.evaluate("() => window.splashTower.view.tower.length") == 0
    page.click("#undo")
    page.click("#undo-yes")
    page.wait_for_function(f"(v) => ({TOWER_VIEW})() === v", arg=start)
    assert page.is_disabled("#undo")
    assert "the game is back at step" in page.inner_text("#undo-result")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    page.wait_for_selector(GIFT)
    assert page.inner_text("#error-line") == ""
    assert page_errors == []
