"""The Splash & Bash pool's moves animated over the final state, and the optional sounds of
both game pages, in a real browser: no motion when the reader asks for less, at most
600 ms of it otherwise, ended by a click on the pool, never in the way of the choices; the
Sounds switch off by default and remembered; and the sound files the package ships."""

from __future__ import annotations

import io
import itertools
import json
import re
import wave
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

import pytest

from tests.web.test_tower_page import create_room as create_tower_room
from tests.web.test_tower_page import open_page as open_tower_page

if TYPE_CHECKING:
    from playwright.sync_api import Page

Shot: TypeAlias = "Callable[[Page, str], Path]"
CHOICE = "#choices button.choice:not([disabled])"
FACES = "#choices .outcomes-roll button.choice:not([disabled])"
SOUNDS = ("roll", "bump", "fall")

WATCH = """
window.__frames = [];
window.__holdMotion = false;
new MutationObserver(() => {
  const page = window.splashBash;
  if (!page || !page.view) return;
  const animations = document.getAnimations();
  if (window.__holdMotion) animations.forEach((a) => a.pause());
  window.__frames.push({
    pieces: page.view.pieces,
    animations: animations.length,
    moving: animations.filter((a) => a.effect.target.closest && a.effect.target.closest(".piece")).length,
    end: Math.max(0, ...animations.map((a) => a.effect.getComputedTiming().endTime)),
  });
}).observe(document, { childList: true, subtree: true });
"""
"""Records, after each change of the page, its pieces and its animations (and pauses them
when ``window.__holdMotion`` is set, for a test to look at one under way)."""

SPY = """
window.__played = [];
HTMLMediaElement.prototype.play = function () {
  window.__played.push(new URL(this.src).pathname);
  return Promise.reject(new DOMException("blocked", "NotAllowedError"));
};
"""
"""Every sound a page plays, by path; each one refused as a browser blocking autoplay does."""

Frame: TypeAlias = "dict[str, object]"


def open_referee_room(page: Page) -> None:
    """A two-team Splash & Bash room of a referee, who enters every choice and roll here."""
    page.goto("/")
    page.select_option("#mode", "referee")
    page.click("#create-room")
    page.wait_for_url(re.compile(r"/static/bash\.html\?room=\w+&referee"))
    settle(page)


def settle(page: Page) -> None:
    page.wait_for_function("() => !document.querySelector('#choices button.choice[disabled]')")
    page.wait_for_selector(CHOICE)


def step(page: Page) -> None:
    """Enter the next choice: a roll of 4 when a roll is asked for, else the first choice."""
    faces = page.locator(FACES)
    if faces.count():
        faces.nth(3).click()
    else:
        page.locator(CHOICE).first.click()
    settle(page)


def moved_on_course(before: object, after: object) -> bool:
    """Whether a piece already on the course stands elsewhere in ``after``."""
    assert isinstance(before, list) and isinstance(after, list)
    for old_team, new_team in zip(before, after, strict=True):
        for old, new in zip(old_team, new_team, strict=True):
            if (
                old["lane"] is not None
                and not new["finished"]
                and (old["lane"], old["s"])
                != (
                    new["lane"],
                    new["s"],
                )
            ):
                return True
    return False


def frames(page: Page) -> list[Frame]:
    found: list[Frame] = page.evaluate("() => window.__frames")
    return found


@pytest.mark.browser
def test_with_reduced_motion_a_move_shows_its_final_state_at_once(
    page: Page, page_errors: list[str]
) -> None:
    page.emulate_media(reduced_motion="reduce")
    page.add_init_script(WATCH)
    open_referee_room(page)
    moves = 0
    for _ in range(30):
        step(page)
        seen = frames(page)
        pairs = list(itertools.pairwise(seen))
        assert all(frame["animations"] == 0 for frame in seen), "something moved"
        moves = sum(moved_on_course(a["pieces"], b["pieces"]) for a, b in pairs)
        if moves:
            break
    assert moves, "no piece moved on the course"
    assert page.evaluate("() => document.getAnimations().length") == 0
    assert page_errors == []


@pytest.mark.browser
def test_a_move_is_animated_briefly_a_click_on_the_pool_ends_it_and_the_choices_stay_usable(
    page: Page, screenshot: Shot, page_errors: list[str]
) -> None:
    page.add_init_script(WATCH)
    open_referee_room(page)
    page.evaluate("() => { window.__holdMotion = true; }")
    moving: Frame | None = None
    for _ in range(30):
        step(page)
        moving = next((f for f in frames(page) if f["moving"]), None)
        if moving:
            break
    assert moving is not None, "no piece was animated"
    end = moving["end"]
    assert isinstance(end, int | float) and 0 < end <= 600
    held = page.evaluate(
        "() => document.getAnimations().map((a) => a.effect.getComputedTiming().endTime)"
    )
    assert held and max(held) <= 600
    # The page already holds the new view: the animated pieces are drawn at their new places.
    final = page.evaluate(
        """() => [...document.querySelectorAll('svg.pool .piece.moving title')]
                 .map((t) => t.textContent)"""
    )
    assert final and all(" · " in text for text in final)
    page.evaluate(
        "() => document.getAnimations().forEach((a) => {"
        " a.currentTime = a.effect.getComputedTiming().endTime / 2; })"
    )
    screenshot(page, "pool-mid-move")
    page.locator(CHOICE).first.click(trial=True)
    page.locator("svg.pool").click(position={"x": 20, "y": 20})
    assert page.evaluate("() => document.getAnimations().length") == 0
    assert page.locator("svg.pool .piece.moving").count() == 0
    step(page)
    assert page_errors == []


PLAN = """async () => {
  const { planMotion, MOTION_MS } = await import("/static/js/bash-motion.js");
  const { squarePoint } = await import("/static/js/bash-board.js");
  const board = { lanes: [{ length: 40 }, { length: 34 }, { length: 28 }] };
  const at = (lane, s) => ({ lane, s, finished: false });
  const off = { lane: null, s: 0, finished: false };
  const before = { events: [], pieces: [[at(0, 3), at(2, 5), off, off], [at(0, 6), at(0, 7), off, off]] };
  const after = {
    events: [
      { event: "roll", face: 3 },
      { event: "bump", piece: "A1", lane: "outer", s: 6, target: "B1", direction: "forward" },
      { event: "bump", piece: "B1", lane: "outer", s: 7, target: "B2", direction: "forward" },
      { event: "fall", piece: "A2", lane: "high_tide", s: 5 },
      { event: "restart", piece: "A2", lane: "high_tide", s: 0 },
    ],
    pieces: [[at(0, 6), at(2, 0), off, off], [at(0, 7), at(0, 8), off, off]],
  };
  const from = new Map([["A1", squarePoint(board, 0, 3)], ["A2", squarePoint(board, 2, 5)],
    ["B1", squarePoint(board, 0, 6)], ["B2", squarePoint(board, 0, 7)]]);
  const plan = planMotion(board, before, after, from);
  const move = (piece) => plan.moves.find((m) => m.piece === piece);
  return {
    limit: MOTION_MS, total: plan.total, rolled: plan.rolled,
    ends: plan.moves.map((m) => m.delay + m.duration),
    delays: ["A1", "B1", "B2"].map((p) => move(p).delay),
    steps: move("A1").path.length, bumped: ["A1", "B1", "B2"].map((p) => move(p).bumped),
    fell: move("A2").fell,
    still: planMotion(board, after, { ...after }, from),
  };
}"""
"""A roll of 3 whose walk bumps B1, which bumps B2, and a fall, as planMotion plans them."""


@pytest.mark.browser
def test_a_chain_of_bumps_is_shown_link_by_link_within_the_limit(page: Page) -> None:
    page.goto("/static/index.html")
    plan = page.evaluate(PLAN)
    assert plan["limit"] == 600
    assert plan["rolled"]
    assert 0 < plan["total"] <= 600 and max(plan["ends"]) <= plan["total"]
    first, second, third = plan["delays"]
    assert 0 < first < second < third, "the die first, then each link of the chain in turn"
    assert plan["steps"] == 3, "A1 starts on square 3 and crosses squares 4 and 5"
    assert plan["bumped"] == [False, True, True]
    assert plan["fell"]
    assert plan["still"] is None, "nothing new, nothing to show"


@pytest.mark.browser
def test_the_sounds_are_off_by_default_remembered_once_on_and_a_roll_plays_its_sound(
    page: Page, server_url: str, screenshot: Shot, page_errors: list[str]
) -> None:
    page.add_init_script(SPY)
    open_referee_room(page)
    switch = page.locator("#sounds-switch")
    assert not switch.is_checked()
    assert page.locator("label.sound-switch").inner_text().strip() == "Sounds"

    def roll() -> None:
        rolls = page.inner_text("#log").count("The die shows")
        for _ in range(30):
            step(page)
            if page.inner_text("#log").count("The die shows") > rolls:
                return
        pytest.fail("no roll was asked for")

    roll()
    page.wait_for_timeout(400)
    assert page.evaluate("() => window.__played") == []

    switch.check()
    page.reload()
    settle(page)
    assert page.locator("#sounds-switch").is_checked()
    roll()
    page.wait_for_function("() => window.__played.includes('/static/sounds/roll.wav')")
    for name in SOUNDS:
        response = page.request.get(f"/static/sounds/{name}.wav")
        assert response.ok and response.body()[:4] == b"RIFF"
    page.wait_for_function("() => document.getAnimations().length === 0")
    screenshot(page, "bash-sound-switch")

    room, token = create_tower_room(server_url)
    open_tower_page(page, room, f"splash-seats-{room}", json.dumps({"0": token}))
    page.wait_for_selector("#lang-slot #sounds-switch")
    assert page.locator("#sounds-switch").is_checked(), "one choice for both pages"
    page.click("#lang-fr")
    page.wait_for_function(
        "() => document.querySelector('label.sound-switch').textContent.trim() === 'Sons'"
    )
    screenshot(page, "tower-sound-switch")
    # The page's own handling of an update whose result is a fall (the physics would take a
    # whole game to bring one about): the splash plays.
    page.evaluate(
        """() => {
          const tower = window.splashTower;
          tower.conn.emit("update", { index: tower.server.index, actor: -1, status: tower.status,
            view: tower.view, action: { kind: "result", outcome: { result: "fell" } } });
        }"""
    )
    page.wait_for_function("() => window.__played.includes('/static/sounds/fall.wav')")
    assert page_errors == []


@pytest.mark.parametrize("name", SOUNDS)
def test_each_sound_ships_in_the_package_as_a_short_small_wav(name: str) -> None:
    sound = files("splash.web").joinpath("static", "sounds", f"{name}.wav")
    data = sound.read_bytes()
    assert len(data) <= 50_000
    with wave.open(io.BytesIO(data), "rb") as read:
        assert read.getnchannels() == 1
        assert 0 < read.getnframes() / read.getframerate() <= 1.0
