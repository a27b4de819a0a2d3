"""The replay page (replay.html) in a real browser against a real server: a finished game
opened from the lobby and stepped through with the keys and the buttons, every hand shown;
the replay of a game still running refused with the server's message."""

from __future__ import annotations

import io
import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

import httpx
import pytest

from splash.core.i18n import message
from tests.server.messages import ReplayStepDoc, View

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser

Shot: TypeAlias = "Callable[[Page, str], Path]"
SHORT_BASH = [
    "options.teams=2",
    "board.laps=1",
    "board.lanes.outer=8",
    "board.lanes.centre=6",
    "board.lanes.high_tide=5",
]
"""A Splash & Bash course so short that two bots finish in about a hundred actions."""
QUICK_TOWER = ["options.players=2", "options.deal=random", "physics.ruling=statics"]
"""Splash! between two random bots ruled by statics alone: a game in a few seconds."""


def finished_room(server_url: str, game: str, settings: list[str]) -> str:
    """A room of two random bots, once its game is over."""
    body = {"game": game, "settings": settings, "bots": ["random", "random"]}
    created = httpx.post(f"{server_url}/api/rooms", json=body)
    assert created.status_code == 201, created.text
    room = str(created.json()["room"]["id"])
    deadline = time.monotonic() + 120
    while httpx.get(f"{server_url}/api/rooms/{room}").json()["status"] != "over":
        if time.monotonic() > deadline:
            pytest.fail(f"the {game} game of room {room} did not end")
        time.sleep(0.1)
    return room


def counter(page: Page, index: int, length: int) -> None:
    """Wait until the page shows step ``index``."""
    page.wait_for_function(
        "(text) => document.querySelector('#step-counter')?.textContent === text",
        arg=f"Step {index} of {length}",
    )


def pool(page: Page) -> str:
    return str(page.inner_html("#replay-stage svg.pool"))


def step_with_two_hands(server_url: str, room: str, length: int) -> ReplayStepDoc | None:
    """The last step of the replay where both teams hold cards (``None`` if there is none)."""
    for index in range(length, 0, -1):
        step: ReplayStepDoc = httpx.get(f"{server_url}/api/rooms/{room}/replay/{index}").json()
        if all(view["hand"] for view in step["views"]):
            return step
    return None


def finished_room_with_two_hands(server_url: str) -> str:
    """A finished short Splash & Bash game with a step where both teams hold cards (a room's
    seed is the server's own, so a few games may be needed)."""
    for _ in range(10):
        room = finished_room(server_url, "bash", SHORT_BASH)
        length = len(httpx.get(f"{server_url}/api/rooms/{room}/replay").json()["actions"])
        if step_with_two_hands(server_url, room, length) is not None:
            return room
    pytest.fail("no game of 10 had a step where both teams hold cards")


def test_a_finished_bash_game_is_stepped_through_from_the_lobby_link(
    page: Page, server_url: str, screenshot: Shot, page_errors: list[str]
) -> None:
    room = finished_room_with_two_hands(server_url)
    running = httpx.post(
        f"{server_url}/api/rooms", json={"game": "bash", "bots": [None, "random"]}
    ).json()["room"]["id"]
    actions = httpx.get(f"{server_url}/api/rooms/{room}/replay").json()["actions"]
    board = httpx.get(f"{server_url}/api/rooms/{room}/board").json()
    n = len(actions)
    assert n > 20

    page.goto("/")
    page.wait_for_selector(f"a[data-replay='{room}']")
    assert page.locator(f"a[data-replay='{running}']").count() == 0
    assert page.inner_text(f"a[data-replay='{room}']") == "Watch the replay"
    page.click(f"a[data-replay='{room}']")
    page.wait_for_url(re.compile(rf"/static/replay\.html\?room={room}$"))
    counter(page, 0, n)
    assert page.inner_text("#step-action") == "The start: no action yet."
    assert page.is_disabled("#replay-back") and not page.is_disabled("#replay-forward")
    start = pool(page)

    # The first action puts team A's first pawn on the start line of its lane.
    page.keyboard.press("ArrowRight")
    counter(page, 1, n)
    lane = next(lane["name"] for lane in board["lanes"] if lane["id"] == actions[0]["lane"])
    assert page.inner_text("#step-action") == f"Team A: Start in the {lane} lane"
    assert pool(page) != start
    assert page.locator("#replay-stage .piece").count() == 1
    page.keyboard.press("ArrowLeft")
    counter(page, 0, n)
    assert pool(page) == start

    page.click("#replay-forward")
    counter(page, 1, n)
    page.click("#replay-forward")
    counter(page, 2, n)
    page.click("#replay-back")
    counter(page, 1, n)
    page.keyboard.press("End")
    counter(page, n, n)
    assert page.is_disabled("#replay-forward") and page.is_disabled("#replay-last")
    assert page.inner_text("#step-state").startswith("Game over")
    end = pool(page)
    page.click("#replay-first")
    counter(page, 0, n)
    page.click("#replay-last")
    counter(page, n, n)
    assert pool(page) == end
    page.keyboard.press("Home")
    counter(page, 0, n)

    # Both hands, cards named, at a step where both teams hold some (reached from the end).
    step = step_with_two_hands(server_url, room, n)
    assert step is not None
    page.keyboard.press("End")
    counter(page, n, n)
    for _ in range(n - step["index"]):
        page.keyboard.press("ArrowLeft")
    counter(page, step["index"], n)
    names = {
        card: entry["name"]
        for deck in board["decks"].values()
        for card, entry in deck["cards"].items()
    }
    for team, view in enumerate(step["views"]):
        hand = view["hand"]
        assert hand is not None
        line = page.inner_text(f"#hands li[data-team='{team}']")
        assert line.startswith(f"Team {'AB'[team]}"), line
        assert all(names[card] in line for card in hand), (line, hand)
    screenshot(page, "hands")
    assert page_errors == []


def test_the_replay_of_a_running_game_is_refused_with_the_servers_message(
    page: Page, server_url: str, page_errors: list[str]
) -> None:
    created = httpx.post(f"{server_url}/api/rooms", json={"game": "bash", "bots": [None, "random"]})
    room = created.json()["room"]["id"]
    page.goto(f"/static/replay.html?room={room}")
    refusal = message("the game has not ended: its replay is shown after the end")
    page.wait_for_function(
        "(text) => document.querySelector('#replay-error')?.textContent === text",
        arg=refusal.render("en"),
    )
    assert page.locator("#replay-controls").count() == 0
    assert page.get_attribute("#watch-live", "href") == f"/static/bash.html?room={room}&watch"
    page.click("[data-lang-choice=fr]")
    page.wait_for_function(
        "(text) => document.querySelector('#replay-error')?.textContent === text",
        arg=refusal.render("fr"),
    )
    assert page_errors == []


def test_a_finished_splash_game_replays_its_tower_in_3d(
    page: Page, server_url: str, screenshot: Shot, page_errors: list[str]
) -> None:
    from PIL import Image

    room = finished_room(server_url, "tower", QUICK_TOWER)
    actions = httpx.get(f"{server_url}/api/rooms/{room}/replay").json()["actions"]
    n = len(actions)
    last = httpx.get(f"{server_url}/api/rooms/{room}/replay/{n}").json()["views"][0]
    page.goto(f"/static/replay.html?room={room}")
    counter(page, 0, n)
    page.keyboard.press("ArrowRight")
    counter(page, 1, n)
    assert page.inner_text("#step-action").endswith("dealt.")
    page.keyboard.press("End")
    counter(page, n, n)
    assert page.inner_text("#step-state").startswith("The game is over")
    page.wait_for_function("() => window.splashReplay.game.scene.frames > 0")
    assert scene_pieces(page) == shown_pieces(last) > 0
    image = Image.open(io.BytesIO(page.locator("#tower-canvas").screenshot()))
    assert len(image.convert("RGB").getcolors(maxcolors=1 << 24) or []) > 50
    screenshot(page, "tower")
    loose_text = (
        "() => [...document.getElementById('app').childNodes].some((n) => n.nodeType === 3)"
    )
    assert not page.evaluate(loose_text)
    page.keyboard.press("Home")
    counter(page, 0, n)
    assert scene_pieces(page) == 0

    # A step forward onto a placement's result replays it, then shows where the pieces are.
    result = max(k for k, action in enumerate(actions, 1) if action["kind"] == "result")
    page.goto(f"/static/replay.html?room={room}&step={result - 1}")
    counter(page, result - 1, n)
    page.evaluate(COUNT_REPLAYS)
    page.keyboard.press("ArrowRight")
    counter(page, result, n)
    assert page.evaluate("() => window.replays") == 1
    page.wait_for_function("() => !window.splashReplay.game.scene.replaying")
    after = httpx.get(f"{server_url}/api/rooms/{room}/replay/{result}").json()["views"][0]
    page.wait_for_function(
        "(count) => window.splashReplay.game.scene.pieces.size === count", arg=shown_pieces(after)
    )
    assert page_errors == []


COUNT_REPLAYS = """() => {
  const scene = window.splashReplay.game.scene;
  const replay = scene.replay.bind(scene);
  window.replays = 0;
  scene.replay = (...args) => { window.replays += 1; return replay(...args); };
}"""


def scene_pieces(page: Page) -> int:
    return int(page.evaluate("() => window.splashReplay.game.scene.pieces.size"))


def shown_pieces(view: View) -> int:
    """How many pieces the tower page draws for ``view``: the tower and the table."""
    table = {p["piece"] for p in view.get("table") or []}
    tower = [] if view["phase"] == "base" else view.get("tower") or []
    return len(table) + len([p for p in tower if p["piece"] not in table])


def test_a_replay_tells_the_story_with_names_the_chat_the_summary_play_and_a_link(
    page: Page, server_url: str, screenshot: Shot, page_errors: list[str]
) -> None:
    from websockets.sync.client import connect

    body = {
        "game": "bash",
        "settings": SHORT_BASH,
        "bots": [None, None],
        "options": {"turn_timer_s": 0.05, "pass_hold_s": 0},  # the timer's bot plays Ann
    }
    room = str(httpx.post(f"{server_url}/api/rooms", json=body).json()["room"]["id"])
    seat = httpx.post(f"{server_url}/api/rooms/{room}/seats/0", json={"name": "Ann"}).json()
    with connect(f"{server_url.replace('http', 'ws', 1)}/ws/rooms/{room}") as ws:
        ws.send(json.dumps({"format": "splash/ws/1", "type": "join", "token": seat["token"]}))
        ws.send(json.dumps({"format": "splash/ws/1", "type": "chat", "text": "good luck <3"}))
        while '"type":"chat"' not in str(ws.recv()).replace(" ", ""):
            pass
    # The game starts once Ann's wish is in the log: before its first move.
    bot = httpx.post(f"{server_url}/api/rooms/{room}/seats/1", json={"bot": "random"})
    assert bot.status_code == 201, bot.text
    deadline = time.monotonic() + 120
    while httpx.get(f"{server_url}/api/rooms/{room}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the game did not end"
        time.sleep(0.1)
    n = len(httpx.get(f"{server_url}/api/rooms/{room}/replay").json()["actions"])

    page.goto(f"/static/replay.html?room={room}#move=3")
    counter(page, 3, n)
    assert page.inner_text("#replay-chat .chat-line") == "step 0 Team A (Ann): good luck <3"
    assert page.locator("#replay-summary table").count() == 0  # only at the end
    page.keyboard.press("End")
    counter(page, n, n)
    assert page.evaluate("location.hash") == f"#move={n}"
    assert page.get_attribute("#move-link", "href") == f"#move={n}"
    summary = page.inner_text("#replay-summary")
    assert "Game summary" in summary and "Team A (Ann)" in summary
    screenshot(page, "replay-end")
    page.evaluate("location.hash = '#move=2'")
    counter(page, 2, n)
    page.click("#replay-play")
    assert page.get_attribute("#replay-play", "aria-pressed") == "true"
    counter(page, 4, n)
    page.click("#replay-play")
    assert page.get_attribute("#replay-play", "aria-pressed") == "false"
    stopped = page.evaluate("window.splashReplay.wanted")
    page.wait_for_timeout(2_000)
    assert page.evaluate("window.splashReplay.wanted") == stopped
    page.keyboard.press(" ")
    counter(page, stopped + 1, n)
    page.keyboard.press(" ")
    assert "null" not in page.inner_text("body").split()
    assert page_errors == []
