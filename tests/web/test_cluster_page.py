"""A game page opened on a server process that does not serve the room (several processes on
one PostgreSQL database): told ``moved``, it connects again and shows the game."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import httpx
import pytest

from splash.server.drill import DRILL_SETTINGS, Cluster, cluster_of, owners
from tests.server.conftest import fresh_postgres
from tests.web.conftest import TIMEOUT_MS

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = pytest.mark.browser


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    """Two ``splash serve --cluster`` processes on a fresh PostgreSQL database."""
    with fresh_postgres() as url, cluster_of(url, 2, log_level="warning") as running:
        yield running


def test_the_page_follows_a_room_that_another_process_served(
    browser: Browser, cluster: Cluster
) -> None:
    owner, other = cluster.processes
    body = {"game": "bash", "settings": list(DRILL_SETTINGS), "bots": [None, "random"]}
    room = httpx.post(f"{owner.base}/api/rooms", json=body).json()["room"]["id"]
    assert owners(cluster.database_url)[room] == owner.instance
    context = browser.new_context(base_url=other.base, locale="en-GB")
    context.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        sockets: list[str] = []
        page.on("websocket", lambda ws: sockets.append(ws.url))
        page.goto(f"/static/bash.html?room={room}")
        page.wait_for_selector("svg.pool")
        page.wait_for_selector('#connection-banner[data-state="closed"]', state="detached")
        assert owners(cluster.database_url)[room] == other.instance
        assert len(sockets) >= 2  # the first was told `moved`
        assert page.locator('#connection-banner[data-state="closed"]').count() == 0
    finally:
        context.close()
    assert errors == []
