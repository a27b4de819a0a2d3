"""Languages complete: every named state of the pages (named_states.py) rendered in French,
Czech and Italian shows no visible text, placeholder, title or label equal to its English
rendering, but for the few words that are the same in that language (ALLOWED)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest

from tests.web.named_states import STATES, Rooms, page_in

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

TEXTS = """() => {
  const shown = (e) => e && e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden'
    && !e.closest('[hidden], details:not([open]) > :not(summary), .lang-switch, pre, code, svg.pool, [translate=no]');
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.replace(/\\s+/g, ' ').trim();
    if (text && shown(node.parentElement)) found.push(text);
  }
  for (const e of document.querySelectorAll('[placeholder], [title], [aria-label]')) {
    if (!shown(e)) continue;
    for (const name of ['placeholder', 'title', 'aria-label']) {
      const text = (e.getAttribute(name) || '').trim();
      if (text) found.push(text);
    }
  }
  found.push(document.title);
  return found;
}"""

SAME_EVERYWHERE = {
    "Splash!",
    "Splash & Bash",
    "Splash! & Splash & Bash",
    "splash",
    "English",
    "Français",
    "Čeština",
    "Italiano",
    "MuJoCo",
    "français",
    "italiano",
    "čeština",
    "Id",
    "s",
    # the draft's own Italian words, quoted by the rules in every language
    "Alta Marea",
    "Lisca di pesce",
    "Pedine",
    "Timoniere",
    "atterrare",
    "attraversare",
    "tamponamento",
}
"""Names: the games', the languages' own, abbreviations and the draft's Italian terms.  People's
names, room names and chat lines are marked ``translate="no"`` by the pages and skipped."""

ALLOWED: dict[str, set[str]] = {
    "fr": {
        "Mode",
        "Invitation",
        "bot",
        "Club",
        "Obstacles",
        "Centre",
        "Option",
        "option",
        "Message",
        "Place",
    },
    "cs": {"Chat", "Lobby", "bot"},
    "it": {"Chat", "Lobby", "bot", "Replay"},
}
"""Words the same in English and in that language."""

CODE = re.compile(
    r"[\w.]+=\S*"  # a KEY=VALUE setting
    r"|[A-Z]{1,2}\d{2}[a-z]?(, [A-Z]{1,2}\d{2}[a-z]?)*"  # rule ids: B03, BD06
    r"|[0-9a-f]{10}"  # a room's id
    r"|\b[A-D][1-3H]?\b"  # a team's letter, a piece's label
)
"""Settings, rule ids, room ids and piece labels: no language to them."""


def english_words(text: str, lang: str) -> list[str]:
    """The words of ``text`` that a reader of ``lang`` would take for English: what is left
    once names, codes and the words the same in ``lang`` are taken out."""
    for name in SAME_EVERYWHERE:
        text = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", " ", text)
    text = CODE.sub(" ", text)
    return [w for w in re.findall(r"[^\W\d_]+", text) if w not in ALLOWED[lang]]


def texts(page: Page) -> list[str]:
    found: list[str] = page.evaluate(TEXTS)
    return found


def untranslated(english: set[str], shown: list[str], lang: str) -> list[str]:
    """The texts of ``shown`` left in English: as the English page shows them, with words
    that are not the same in ``lang``."""
    return sorted({t for t in shown if t in english and english_words(t, lang)})


@pytest.mark.parametrize("state", list(STATES))
def test_no_english_is_left_on_the_page_in_another_language(
    browser: Browser, server_url: str, rooms: Rooms, state: str
) -> None:
    page = page_in(browser, server_url, "en")
    STATES[state](page, rooms, "en")
    english = set(texts(page))
    page.context.close()
    assert len(english) > 5
    left: dict[str, list[str]] = {}
    for lang in ("fr", "cs", "it"):
        page = page_in(browser, server_url, lang)
        STATES[state](page, rooms, lang)
        page.wait_for_function("(lang) => document.documentElement.lang === lang", arg=lang)
        found = untranslated(english, texts(page), lang)
        if found:
            left[lang] = found
        page.context.close()
    assert left == {}, left
