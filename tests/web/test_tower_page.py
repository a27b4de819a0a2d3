"""The Splash! page (tower.html) in a real browser against a real server: the tower drawn
with WebGL, a gift chosen from the legal ones, a piece placed with the keyboard, a fall
replayed, the referee's reports on a phone; and the catalogue routes that give the page its
shapes."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

import httpx
import pytest

from tests.server.messages import RoomCreateBody

if TYPE_CHECKING:
    from playwright.sync_api import Page

Shot: TypeAlias = "Callable[[Page, str], Path]"
GIFT = "#action-buttons button"
GIFT_ORDER = ("cube", "beam", "prism", "cylinder", "arch")
"""Gifts whose first face stands steadily on the table, best first."""


def create_room(server_url: str, *, mode: str = "play") -> tuple[str, str]:
    """A two-player Splash! room dealt at random: seat 0 for this page (its token), seat 1
    a random bot; or, in referee mode, the room and its referee token."""
    body: RoomCreateBody = {
        "game": "tower",
        "mode": mode,
        "settings": ["options.players=2", "options.deal=random"],
    }
    if mode == "play":
        body["bots"] = [None, "random"]
    else:
        body["options"] = {"digital": ["deal"]}
    created = httpx.post(f"{server_url}/api/rooms", json=body)
    assert created.status_code == 201, created.text
    room = created.json()["room"]["id"]
    if mode == "referee":
        return room, created.json()["referee_token"]
    seat = httpx.post(f"{server_url}/api/rooms/{room}/seats/0", json={"name": "Ann"})
    assert seat.status_code == 201, seat.text
    return room, seat.json()["token"]


def open_page(page: Page, room: str, key: str, token: str, query: str = "") -> None:
    """Open the room's page with ``token`` stored as the lobby stores it."""
    page.context.add_init_script(f"localStorage.setItem({json.dumps(key)}, {json.dumps(token)})")
    page.goto(f"/static/tower.html?room={room}{query}")
    page.wait_for_function("() => window.splashTower && window.splashTower.view")


def tower_ids(page: Page) -> list[str]:
    return [str(p) for p in page.evaluate("() => window.splashTower.view.tower.map(p => p.piece)")]


def canvas_colours(page: Page) -> int:
    """How many distinct colours the WebGL canvas shows (1 for a blank canvas)."""
    from PIL import Image

    image = Image.open(io.BytesIO(page.locator("#tower-canvas").screenshot()))
    return len(image.convert("RGB").getcolors(maxcolors=1 << 24) or [])


def test_the_catalogue_route_serves_the_true_shapes(server_url: str) -> None:
    doc = httpx.get(f"{server_url}/api/catalogue/tower").json()
    assert doc["format"] == "splash/tower-pieces/1"
    assert len(doc["pieces"]) == 30 and doc["colours"]["red"] == "#d62828"
    arch = doc["shapes"]["arch"]
    assert [part["kind"] for part in arch["parts"]] == ["box", "box", "box"]
    feet = arch["faces"]["feet"]
    # On its feet the arch is 2.5 cm high and touches the table with its two 1.75 cm feet.
    assert feet["height"] == pytest.approx(0.025)
    assert len(feet["footprint"]) == 2
    widths = sorted(max(x for x, _ in f) - min(x for x, _ in f) for f in feet["footprint"])
    assert widths == pytest.approx([0.0175, 0.0175])
    assert len(doc["shapes"]["cube"]["faces"]["bottom"]["variants"]) == 6
    assert doc["shapes"]["cylinder"]["faces"]["side"]["axis"] == [0.0, 0.0, 1.0]

    room, _ = create_room(server_url)
    assert httpx.get(f"{server_url}/api/rooms/{room}/catalogue").json() == doc
    bash = httpx.post(f"{server_url}/api/rooms", json={"game": "bash", "bots": [None, "random"]})
    refused = httpx.get(f"{server_url}/api/rooms/{bash.json()['room']['id']}/catalogue")
    assert refused.status_code == 404 and refused.json()["detail"]["code"] == "no_catalogue"
    missing = httpx.get(f"{server_url}/api/rooms/nowhere/catalogue")
    assert missing.json()["detail"]["code"] == "room_not_found"


@pytest.mark.browser
def test_a_piece_is_given_then_placed_with_the_keyboard_and_the_tower_grows(
    page: Page, server_url: str, screenshot: Shot
) -> None:
    room, token = create_room(server_url)
    open_page(page, room, f"splash-seats-{room}", json.dumps({"0": token}))
    page.wait_for_selector(GIFT)
    page.wait_for_function("() => window.splashTower.scene.frames > 0")
    assert canvas_colours(page) > 50, "the WebGL canvas is blank"
    assert "Steadiness of the hand: ±0.5 mm" in page.inner_text("#players")

    gifts = [
        json.loads(a)
        for a in page.locator(GIFT).evaluate_all("bs => bs.map(b => b.dataset.action)")
    ]
    legal = page.evaluate("() => window.splashTower.view.legal_actions")
    assert gifts == legal and {g["kind"] for g in gifts} == {"give"}
    page.locator(GIFT).last.focus()
    assert page.evaluate("() => window.splashTower.scene.ghost.name") == gifts[-1]["piece"]
    given = give_a_steady_piece(page)

    page.wait_for_selector("#place-panel:not([hidden])")
    assert tower_ids(page) == [given]
    # The piece comes at the steadiest pose of the map's first face and turn.
    page.wait_for_selector("#place-panel[data-map='region']")
    start = page.evaluate("() => ({ ...window.splashTower.placing.pose })")
    before = page.locator("#tower-canvas").screenshot()
    page.locator("#tower-canvas").focus()
    for key in ("e", "ArrowRight", "ArrowUp", "ArrowUp", "q", "e"):
        page.keyboard.press(key)
    x, y = (round(start["xMm"] + 1, 1), round(start["yMm"] + 2, 1))
    shown = f"{x:g} mm, {y:g} mm"
    assert page.inner_text("[data-show='rotation']") == "15°"
    assert page.inner_text("[data-show='offset']") == shown
    placed = page.evaluate("() => window.splashTower.view.gift")
    screenshot(page, "placing")
    page.keyboard.press("Enter")

    page.wait_for_function("() => window.splashTower.view.tower.length >= 2")
    page.wait_for_function("() => !window.splashTower.scene.replaying")
    assert tower_ids(page) == [given, placed]
    assert page.locator("#events li", has_text=f"turned 15° at ({x:g}, {y:g}) mm").count() == 1
    assert page.locator("#tower-canvas").screenshot() != before
    screenshot(page, "grown")


def give_a_steady_piece(page: Page) -> str:
    """Give the legal gift that stands best on the table; its id."""
    gifts = [
        json.loads(a)
        for a in page.locator(GIFT).evaluate_all("bs => bs.map(b => b.dataset.action)")
    ]
    gift = min(gifts, key=lambda g: GIFT_ORDER.index(g["piece"].split("-")[1]))
    page.locator(GIFT).nth(gifts.index(gift)).click()
    return str(gift["piece"])


PAGE_STATE = """() => { const t = window.splashTower;
    return { phase: t.view.phase, to_act: t.view.to_act, drops: t.view.drops, index: t.shownIndex,
             server: t.server, busy: t.busy, queued: t.queue.length, replaying: t.scene.replaying,
             replays: window.replays, check: document.querySelector('#place-panel').dataset.check,
             error: document.querySelector('#error-line').textContent }; }"""


def wait_state(page: Page, condition: str) -> None:
    """Wait for ``condition`` (a script) to hold; a failure names the page's state."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(condition)
    except PlaywrightTimeout:
        pytest.fail(f"not reached: {condition}; the page: {page.evaluate(PAGE_STATE)}")


@pytest.mark.browser
def test_a_fall_is_replayed_from_the_recorded_poses(
    page: Page, server_url: str, screenshot: Shot
) -> None:
    room, token = create_room(server_url)
    open_page(page, room, f"splash-seats-{room}", json.dumps({"0": token}))
    page.wait_for_selector(GIFT)
    page.evaluate(
        """() => {
            const scene = window.splashTower.scene;
            const replay = scene.replay.bind(scene);
            window.replays = [];
            scene.replay = (before, after, done) => {
                window.replays.push({ before: [...before.keys()], after: [...after.keys()] });
                replay(before, after, done);
            };
        }"""
    )
    base = give_a_steady_piece(page)
    page.wait_for_selector("#place-panel:not([hidden])")
    placed = page.evaluate("() => window.splashTower.view.gift")
    # The piece comes at its steadiest pose once the map is there; the player centres it.
    page.wait_for_selector("#place-panel[data-map='region']")
    page.click("[data-place='centre']")
    page.locator("#tower-canvas").focus()
    # 15 mm across: the centre of mass is 2.5 mm beyond the edge of the 25-mm cube given as
    # the base, and even a beam (15 mm wide) still overlaps it by 5 mm (at 20 mm a beam only
    # grazed the edge, and a tremor that made it miss was a spontaneous fall, with no drop).
    for _ in range(3):
        page.keyboard.press("Shift+ArrowUp")
    # The states waited for, in order: the server's check took this pose (T06), the fall
    # was ruled (the giver's drop, T10), its replay was started with both pieces, and ended.
    assert page.inner_text("[data-show='offset']") == "0 mm, 15 mm"
    wait_state(page, "() => document.querySelector('#place-panel').dataset.check === 'ok'")
    page.keyboard.press("Enter")
    wait_state(page, "() => window.splashTower.view.drops[1] === 1")
    wait_state(page, "() => window.replays.some((r) => r.before.length === 2)")
    screenshot(page, "falling")
    wait_state(page, "() => !window.splashTower.scene.replaying")
    replays = page.evaluate("() => window.replays")
    assert {"before": [base, placed], "after": [base, placed]} in [
        {k: sorted(v, key=[base, placed].index) for k, v in r.items()} for r in replays
    ]
    assert page.locator("#events li", has_text="the tower fell").count() == 1
    screenshot(page, "fallen")


@pytest.mark.browser
def test_a_referee_reports_on_a_phone_what_the_tower_did(
    page: Page, server_url: str, screenshot: Shot
) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    room, token = create_room(server_url, mode="referee")
    open_page(page, room, f"splash-referee-{room}", token, "&referee")
    page.wait_for_selector(GIFT)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    page.locator(GIFT).first.click()
    page.wait_for_selector("[data-report='stood']")
    screenshot(page, "report")
    page.click("[data-report='stood']")
    page.wait_for_function("() => window.splashTower.view.tower.length === 1")
    base = tower_ids(page)[0]

    page.locator(GIFT).first.click()
    page.click("[data-report='fell']")
    gift = page.evaluate("() => window.splashTower.view.gift")
    page.locator(".referee input[type='checkbox']").first.check()
    page.click(".referee button[type='submit']")
    # The base stood alone and the gift fell: a single piece is the tallest stack, so every
    # piece on the table may be the new base (T11), and until it is chosen the whole fallen
    # tower lies on the table (T01).
    page.wait_for_function("() => window.splashTower.view.phase === 'base'")
    view = page.evaluate("() => window.splashTower.view")
    assert sum(view["drops"]) == 1, "the giver of the piece that toppled the tower earns a drop"
    assert view["tower"] == []
    assert sorted(p["piece"] for p in view["table"]) == sorted([base, gift])
    screenshot(page, "fell")
    page.click(f"""#action-buttons button[data-action='{{"kind":"base","piece":"{base}"}}']""")
    page.wait_for_function("() => window.splashTower.view.phase === 'give'")
    assert tower_ids(page) == [base]


@pytest.mark.browser
def test_a_fall_report_keeps_standing_pieces_on_their_standing_supports(
    page: Page, server_url: str
) -> None:
    page.goto("/static/tower.html")
    report = page.evaluate(
        """async () => {
            const { fallReport } = await import('/static/js/tower-referee.js');
            const supports = new Map([['a', null], ['b', 'a'], ['c', 'b'], ['d', 'c']]);
            return fallReport(['a', 'b', 'c', 'd'], supports, new Set(['a', 'c', 'd']));
        }"""
    )
    assert report == {"standing": [["a"], ["c", "d"]], "on_table": ["b"]}
