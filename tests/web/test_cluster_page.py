"""A game page opened on a server process that does not serve the room (several processes on
one PostgreSQL database): told ``moved``, it connects again, shows the game, and the game is
played there to its end."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING

import httpx
import pytest

from tests.server.conftest import fresh_postgres
from tests.server.drill import DRILL_SETTINGS, Cluster, cluster_of, owners
from tests.web.conftest import TIMEOUT_MS
from tests.web.rooms import play_to_summary

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = pytest.mark.browser


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    """Two ``splash serve --cluster`` processes on a fresh PostgreSQL database."""
    with fresh_postgres() as url, cluster_of(url, 2, log_level="warning") as running:
        yield running


def test_the_page_follows_a_room_another_process_served_and_plays_it_to_the_end(
    browser: Browser, cluster: Cluster
) -> None:
    owner, other = cluster.processes
    settings = [*DRILL_SETTINGS, "options.turn_cap=2"]
    body = {"game": "bash", "settings": settings, "bots": [None, "random"]}
    room = httpx.post(f"{owner.base}/api/rooms", json=body).json()["room"]["id"]
    token = httpx.post(f"{owner.base}/api/rooms/{room}/seats/0", json={"name": "Ann"}).json()[
        "token"
    ]
    assert owners(cluster.database_url)[room] == owner.instance
    context = browser.new_context(base_url=other.base, locale="en-GB")
    context.set_default_timeout(TIMEOUT_MS)
    key = json.dumps(f"splash-seats-{room}")
    context.add_init_script(f"localStorage.setItem({key}, {json.dumps(json.dumps({'0': token}))})")
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        sockets: list[str] = []
        page.on("websocket", lambda ws: sockets.append(ws.url))
        page.goto(f"/static/bash.html?room={room}")
        page.wait_for_selector("svg.pool")
        assert owners(cluster.database_url)[room] == other.instance
        assert len(sockets) >= 2  # the first was told `moved`
        play_to_summary((page,), 80)
        summary = page.evaluate("() => window.splashBash.view.summary")
        assert summary["turns"] == 2
        assert page.locator('#connection-banner[data-state="closed"]').count() == 0
    finally:
        context.close()
    assert errors == []
