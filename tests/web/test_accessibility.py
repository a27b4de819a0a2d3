"""Accessibility, measured by axe-core (vendored, tests/web/vendor/axe-core) in Chromium: no
serious or critical issue on any named state of the pages (named_states.py) in any of the
four languages; every control reachable by keyboard; the 3D tower described in words."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

import pytest

from tests.web.named_states import LANGUAGES, STATES, Rooms, page_in

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
AXE_SHA256 = "29348999450cdf2849a8e70b7912fc2da85a849da39c0d0d5394f51d4a9ed95c"
RUN_AXE = """async () => {
  const found = await axe.run(document, { resultTypes: ['violations'] });
  return found.violations.map((v) => ({ id: v.id, impact: v.impact,
    nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
}"""


class Violation(TypedDict):
    """An axe-core rule a page breaks: its id, how much it matters, where (the first 3)."""

    id: str
    impact: str
    nodes: list[str]


@pytest.fixture
def pages(browser: Browser, server_url: str) -> Iterator[dict[str, Page]]:
    opened = {lang: page_in(browser, server_url, lang) for lang in LANGUAGES}
    yield opened
    for page in opened.values():
        page.context.close()


def violations(page: Page) -> list[Violation]:
    """axe-core's violations on the page as it is."""
    page.add_script_tag(path=str(AXE))
    found: list[Violation] = page.evaluate(RUN_AXE)
    return found


def test_the_vendored_axe_core_is_the_pinned_one() -> None:
    assert hashlib.sha256(AXE.read_bytes()).hexdigest() == AXE_SHA256


@pytest.mark.parametrize("state", list(STATES))
def test_no_serious_or_critical_axe_issue_in_any_language(
    pages: dict[str, Page], rooms: Rooms, state: str
) -> None:
    found: dict[str, list[Violation]] = {}
    for lang, page in pages.items():
        STATES[state](page, rooms, lang)
        bad = [v for v in violations(page) if v["impact"] in ("serious", "critical")]
        if bad:
            found[lang] = bad
    assert found == {}, found


CONTROLS = """() => [...document.querySelectorAll(
    'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), '
    + 'textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])')]
  .filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden'
    && !e.closest('[hidden], details:not([open]) > :not(summary)'))
  .map((e, i) => { e.dataset.controlIndex = String(i); return i; })"""


@pytest.mark.parametrize("state", list(STATES))
def test_every_control_is_reached_with_the_tab_key(
    browser: Browser, server_url: str, rooms: Rooms, state: str
) -> None:
    page = page_in(browser, server_url, "en")
    STATES[state](page, rooms, "en")
    controls = set(page.evaluate(CONTROLS))
    assert controls, "no control on the page"
    reached: set[int] = set()
    page.locator("body").focus()
    for _ in range(len(controls) + 10):
        page.keyboard.press("Tab")
        index = page.evaluate("() => document.activeElement?.dataset.controlIndex ?? null")
        if index is not None:
            reached.add(int(index))
        if reached >= controls:
            break
    missed = page.evaluate(
        "(missed) => missed.map((i) => document.querySelector(`[data-control-index='${i}']`).outerHTML.slice(0, 120))",
        sorted(controls - reached),
    )
    assert not missed, missed
    page.context.close()


@pytest.mark.parametrize("state", ["tower-summary", "tower-replay"])
def test_the_3d_tower_is_described_in_words_for_a_screen_reader(
    browser: Browser, server_url: str, rooms: Rooms, state: str
) -> None:
    page = page_in(browser, server_url, "en")
    STATES[state](page, rooms, "en")
    canvas = page.locator("#tower-canvas")
    described = page.text_content("#tower-description")
    assert canvas.get_attribute("aria-describedby") == "tower-description"
    view = page.evaluate(
        "() => window.splashTower ? window.splashTower.view : window.splashReplay.step.views[0]"
    )
    pieces = [p for p in view["tower"] if p["piece"] not in {t["piece"] for t in view["table"]}]
    assert described is not None
    if pieces:
        assert described.startswith(f"The tower: {len(pieces)} pieces,")
        assert described.count(", on the ") + described.count(", the base.") == len(pieces)
    else:
        assert described.startswith("No tower stands yet.")
    if view["table"]:
        assert "On the table: " in described
    page.context.close()
