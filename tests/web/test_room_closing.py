"""Closing a room from the lobby of the browser that created it, and the game page that was
open on it."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Dialog, ElementHandle, Page

pytestmark = pytest.mark.browser

CLOSED_BANNER = '#connection-banner[data-state="closed"]'


def closed_banner(page: Page) -> ElementHandle:
    """The banner of a closed room, once it shows."""
    banner = page.wait_for_selector(CLOSED_BANNER, state="visible")
    assert banner is not None
    return banner


def test_the_host_closes_a_room_from_the_lobby_and_the_game_page_says_so(
    page: Page, server_url: str, page_errors: list[str]
) -> None:
    stranger = httpx.post(f"{server_url}/api/rooms", json={"game": "bash"}).json()["room"]["id"]
    page.goto("/")
    page.wait_for_selector("#create-room")
    page.fill("#name", "closing time")
    page.select_option("#who-1", "open")
    page.click("#create-room")
    page.wait_for_url(re.compile(r"/static/bash\.html\?room=\w+"))
    found = re.search(r"room=(\w+)", page.url)
    assert found is not None
    room = found.group(1)
    page.wait_for_selector("svg.pool")

    lobby = page.context.new_page()
    lobby.on("pageerror", lambda error: page_errors.append(str(error)))
    lobby.goto("/")
    row = f'tr[data-room="{room}"]'
    lobby.wait_for_selector(f"{row} button.close-room")
    assert lobby.locator(f'tr[data-room="{stranger}"]').count() == 1
    assert lobby.locator(f'tr[data-room="{stranger}"] button.close-room').count() == 0

    questions: list[str] = []

    def answer(accept: bool) -> Callable[[Dialog], None]:
        def handle(dialog: Dialog) -> None:
            questions.append(dialog.message)
            if accept:
                dialog.accept()
            else:
                dialog.dismiss()

        return handle

    lobby.once("dialog", answer(False))
    lobby.click(f"{row} button.close-room")
    assert len(questions) == 1 and "closing time" in questions[0]
    assert httpx.get(f"{server_url}/api/rooms/{room}").json()["status"] == "open"

    lobby.once("dialog", answer(True))
    lobby.click(f"{row} button.close-room")
    lobby.wait_for_selector(row, state="detached")
    assert len(questions) == 2
    assert httpx.get(f"{server_url}/api/rooms/{room}").json()["status"] == "closed"
    assert lobby.evaluate(f"() => localStorage.getItem('splash-host-{room}')") is None

    banner = closed_banner(page)
    assert banner.inner_text() == "This room was closed by its host."
    page.reload()
    banner = closed_banner(page)
    assert banner.inner_text() == "This room was closed by its host."
    assert "closed by its host" in page.inner_text("#error-line")
    assert page_errors == []


def test_the_page_of_a_room_closed_for_lack_of_play_says_so(
    page: Page, tmp_path: Path, page_errors: list[str]
) -> None:
    from splash.server import storage
    from tests.server.process import free_port, server

    url = f"sqlite:///{tmp_path / 'idle.db'}"
    engine = storage.make_engine(url)
    try:
        storage.create_schema(engine=engine)
        storage.insert_room(
            engine=engine,
            room=storage.RoomRow(
                id="idle0room1",
                name="forgotten",
                game="bash",
                mode="play",
                settings=[],
                options={},
                seed=7,
                referee_token=None,
                status="open",
                created_at=1.0,
            ),
            seat_rows=[storage.SeatRow(0, "open"), storage.SeatRow(1, "open")],
        )
        storage.close_room(engine=engine, room_id="idle0room1", by="idle")
    finally:
        engine.dispose()
    port = free_port()
    with server(url, port):
        page.goto(f"http://127.0.0.1:{port}/static/bash.html?room=idle0room1")
        banner = closed_banner(page)
        assert banner.inner_text() == "This room was closed after a long time without play."
        assert "without play" in page.inner_text("#error-line")
    assert page_errors == []
