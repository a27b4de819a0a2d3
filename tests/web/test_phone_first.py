"""Phone first: on a 390 x 844 phone the Splash & Bash pool fits the first screen, whole,
with pawn labels of 11 px or more and the choices right under it, while chat, invite and log
fold away; the Splash! tower shows with the controls of the decision at hand, the Release
button included, without scrolling.  At 1280 px nothing folds."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias, TypedDict

import httpx
import pytest

from tests.server.messages import RoomCreateBody
from tests.web.rooms import CHOICE

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

pytestmark = pytest.mark.browser

Shot: TypeAlias = "Callable[[Page, str], Path]"
PHONE_WIDTH, PHONE_HEIGHT = 390, 844
GIFT = "#action-buttons button:not([disabled])"
LAYOUT = """() => {
  const box = (selector) => {
    const found = [...document.querySelectorAll(selector)].filter((e) => e.offsetParent !== null);
    if (!found.length) return null;
    const boxes = found.map((e) => e.getBoundingClientRect());
    return { top: Math.min(...boxes.map((b) => b.top)), bottom: Math.max(...boxes.map((b) => b.bottom)) };
  };
  const svg = document.querySelector('svg.pool');
  const scale = svg ? svg.getBoundingClientRect().width / svg.viewBox.baseVal.width : 0;
  const labels = [...document.querySelectorAll('svg.pool .pieces text')].map(
    (t) => parseFloat(getComputedStyle(t).fontSize) * scale);
  return { pool: box('svg.pool'), choices: box('#choices'), choice: box('#choices button.choice'),
           stage: box('.stage'), gifts: box('#action-buttons button'), release: box("[data-place='release']"),
           labels, width: document.documentElement.scrollWidth,
           folded: [...document.querySelectorAll('details.fold')].filter((d) => !d.open).map((d) => d.id) };
}"""


class Box(TypedDict):
    """Where elements are on the screen: their top and bottom, in CSS pixels."""

    top: float
    bottom: float


class Layout(TypedDict):
    """The page's layout as :data:`LAYOUT` measures it (``None``: nothing shown)."""

    pool: Box | None
    choices: Box | None
    choice: Box | None
    stage: Box | None
    gifts: Box | None
    release: Box | None
    labels: list[float]
    width: int
    folded: list[str]


def seated(
    browser: Browser, server_url: str, body: RoomCreateBody, *, width: int, height: int
) -> Page:
    """A page on seat 0 (named Ann) of the room ``body`` describes, on a screen of ``width``
    by ``height`` (a phone's, with touch, under 600 px)."""
    room = str(httpx.post(f"{server_url}/api/rooms", json=body).json()["room"]["id"])
    token = httpx.post(f"{server_url}/api/rooms/{room}/seats/0", json={"name": "Ann"}).json()
    phone = width < 600
    context: BrowserContext = browser.new_context(
        base_url=server_url,
        locale="en-GB",
        viewport={"width": width, "height": height},
        is_mobile=phone,
        has_touch=phone,
    )
    context.set_default_timeout(15_000)
    kept = json.dumps(json.dumps({"0": token["token"]}))
    context.add_init_script(f"localStorage.setItem('splash-seats-{room}', {kept})")
    page = context.new_page()
    html = "bash.html" if body["game"] == "bash" else "tower.html"
    page.goto(f"/static/{html}?room={room}")
    return page


def layout(page: Page) -> Layout:
    """The layout of the page scrolled to its top."""
    page.evaluate("window.scrollTo(0, 0)")
    found: Layout = page.evaluate(LAYOUT)
    return found


def bash_body() -> RoomCreateBody:
    return {
        "game": "bash",
        "settings": ["options.teams=4"],
        "bots": [None, "random", "random", "random"],
        "options": {"pass_hold_s": 0},
    }


def test_on_a_phone_the_whole_pool_comes_first_legible_with_the_choices_under_it(
    browser: Browser, server_url: str, screenshot: Shot
) -> None:
    page = seated(browser, server_url, bash_body(), width=PHONE_WIDTH, height=PHONE_HEIGHT)
    for _ in range(40):  # every team's pawns on the course: the setup and a few turns
        page.wait_for_selector(CHOICE)
        if page.locator("svg.pool .pieces text").count() >= 12:
            break
        page.locator(CHOICE).first.tap()
        page.wait_for_function("() => !document.querySelector('#choices button.choice[disabled]')")
    page.wait_for_selector(CHOICE)
    shown = layout(page)
    pool, choices = shown["pool"], shown["choices"]
    assert pool is not None and choices is not None
    assert pool["top"] >= 0 and pool["bottom"] <= PHONE_HEIGHT, pool
    labels = shown["labels"]
    assert len(labels) >= 12
    assert min(labels) >= 11, f"pawn labels of {min(labels):.1f} px"
    assert pool["bottom"] <= choices["top"] <= pool["bottom"] + 140, (pool, choices)
    assert shown["width"] == PHONE_WIDTH
    assert {"fold-chat", "fold-log"} <= set(shown["folded"])
    screenshot(page, "bash-390")
    page.locator("#fold-chat > summary").tap()
    page.wait_for_selector("#fold-chat[open] #chat-text")
    page.locator(CHOICE).first.tap()  # the page draws itself again: the chat stays open
    page.wait_for_function("() => !document.querySelector('#choices button.choice[disabled]')")
    assert page.locator("#fold-chat[open]").count() == 1
    assert page.locator("#fold-log:not([open])").count() == 1


def test_at_1280_px_the_pool_is_wide_and_nothing_folds(
    browser: Browser, server_url: str, screenshot: Shot
) -> None:
    page = seated(browser, server_url, bash_body(), width=1280, height=800)
    page.wait_for_selector(CHOICE)
    shown = layout(page)
    assert page.locator("details.fold").count() == 0
    assert page.locator("svg.pool.compact").count() == 0
    assert page.locator("#chat-text").is_visible() and page.locator("#log").count() == 1
    pool = shown["pool"]
    assert pool is not None and pool["bottom"] <= 800
    screenshot(page, "bash-1280")


def test_on_a_phone_splash_shows_the_tower_with_the_gifts_and_then_the_release_button(
    browser: Browser, server_url: str, screenshot: Shot
) -> None:
    body: RoomCreateBody = {
        "game": "tower",
        "settings": ["options.players=2", "options.deal=random", "physics.ruling=statics"],
        "bots": [None, "random"],
    }
    page = seated(browser, server_url, body, width=PHONE_WIDTH, height=PHONE_HEIGHT)
    page.wait_for_selector(GIFT)
    shown = layout(page)
    stage, gifts = shown["stage"], shown["gifts"]
    assert stage is not None and gifts is not None
    assert stage["top"] >= 0 and gifts["bottom"] <= PHONE_HEIGHT, (stage, gifts)
    screenshot(page, "tower-390-give")
    for _ in range(20):  # the base, a gift to the bot, its placement, its gift to this seat
        if page.locator("#place-panel:not([hidden])").count():
            break
        if page.locator(GIFT).count():
            page.locator(GIFT).first.tap()
        page.wait_for_timeout(300)
    page.wait_for_selector("#place-panel:not([hidden])")
    page.wait_for_selector("#place-panel[data-map='region']")
    shown = layout(page)
    release = shown["release"]
    assert release is not None and release["bottom"] <= PHONE_HEIGHT, release
    assert shown["width"] == PHONE_WIDTH
    screenshot(page, "tower-390-place")
