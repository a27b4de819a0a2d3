"""The page's heartbeat (``client.js``): a socket whose server stops answering ``ping`` is
given up ``PONG_WITHIN_MS`` after the first ping left unanswered, and the page opens
another.  The page's clock is Playwright's, moved on by hand."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

import pytest

from tests.server.conversation import SMALL_BASH
from tests.server.drill import CLIENT_JS, Heartbeat
from tests.web.rooms import create_seated_room, open_seat_page

if TYPE_CHECKING:
    from playwright.sync_api import Page, WebSocketRoute

pytestmark = pytest.mark.browser

BEAT = Heartbeat(CLIENT_JS.read_text())


def test_a_page_gives_a_silent_socket_up_and_opens_another(page: Page, server_url: str) -> None:
    room, token = create_seated_room(
        server_url, {"game": "bash", "settings": SMALL_BASH, "bots": [None, "random"]}
    )
    opened: list[str] = []
    pongs = {"answered": True}

    def route(ws: WebSocketRoute) -> None:
        opened.append(ws.url)
        server = ws.connect_to_server()

        def to_page(message: str | bytes) -> None:
            if pongs["answered"] or json.loads(message)["type"] != "pong":
                ws.send(message)

        server.on_message(to_page)

    page.clock.install()
    page.route_web_socket(re.compile(r"/ws/rooms/"), route)
    open_seat_page(page, room, token, "bash.html")
    page.wait_for_selector("svg.pool")
    page.clock.pause_at(page.evaluate("Date.now()") + 1)
    assert len(opened) == 1
    pongs["answered"] = False
    # The next ping, its deadline, and the first retry after a loss (+20 % at most).
    ms = round((BEAT.ping_every + BEAT.pong_within + BEAT.backoff[0] * 1.2) * 1000) + 1
    with page.expect_websocket() as second:
        page.clock.run_for(ms)
    assert f"/ws/rooms/{room}" in second.value.url
    assert len(opened) == 2
