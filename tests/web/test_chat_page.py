"""The chat panel of both game pages, between two friends in two browser contexts: messages
both ways, and markup shown as text."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

import pytest

from tests.web.rooms import friend, room_of_two

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

Shot: TypeAlias = "Callable[[Page, str], Path]"
PAGES = {"bash": "bash.html", "tower": "tower.html"}


def say(page: Page, text: str) -> None:
    page.fill("#chat-text", text)
    page.click("#chat-send")


@pytest.mark.parametrize("game", ["bash", "tower"])
def test_two_friends_chat_both_ways_and_markup_shows_as_text(
    browser: Browser, server_url: str, screenshot: Shot, game: str
) -> None:
    room, tokens = room_of_two(server_url, game)
    with (
        friend(browser, server_url, room, seat=0, token=tokens[0], html=PAGES[game]) as ann,
        friend(browser, server_url, room, seat=1, token=tokens[1], html=PAGES[game]) as bob,
    ):
        for page in (ann, bob):
            page.wait_for_selector("#chat-text")
        say(ann, "<b>hi</b>")
        line = bob.locator("#chat-lines li").last
        line.wait_for()
        assert line.locator(".chat-text").inner_text() == "<b>hi</b>"
        assert bob.locator("#chat-lines b").count() == 0, "the markup is not markup"
        say(bob, "hello Ann")
        ann.locator("#chat-lines li", has_text="hello Ann").wait_for()
        texts = ann.locator("#chat-lines .chat-text").all_inner_texts()
        assert texts == ["<b>hi</b>", "hello Ann"]
        who = ann.locator("#chat-lines .chat-who").all_inner_texts()
        assert who[0] != who[1], f"the two writers are told apart: {who}"
        assert ann.input_value("#chat-text") == "", "the line is cleared once sent"
        screenshot(ann, "chat")
        ann.reload()  # the welcome carries the chat so far
        ann.locator("#chat-lines li", has_text="hello Ann").wait_for()
        assert ann.locator("#chat-lines .chat-text").all_inner_texts() == texts
