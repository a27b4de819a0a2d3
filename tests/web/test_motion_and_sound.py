"""The Splash & Bash pool's moves animated over the final state, in a real browser: no
motion when the reader asks for less, at most 600 ms of it otherwise, ended by a click on
the pool, never in the way of the choices."""

from __future__ import annotations

import itertools
import re
from typing import TYPE_CHECKING, TypeAlias

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Page

CHOICE = "#choices button.choice:not([disabled])"
FACES = "#choices .outcomes-roll button.choice:not([disabled])"

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
    page: Page, page_errors: list[str]
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
    page.locator(CHOICE).first.click(trial=True)
    page.locator("svg.pool").click(position={"x": 20, "y": 20})
    assert page.evaluate("() => document.getAnimations().length") == 0
    assert page.locator("svg.pool .piece.moving").count() == 0
    step(page)
    assert page_errors == []
