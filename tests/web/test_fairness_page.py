"""Chance anyone can check, in the browser: the lobby and the invite page add a random
seed the person may replace, the game pages show the commitment and every seed, and once
the game is over "Check this game" hashes the revealed secret (WebCrypto, or the vendored
SHA-256 where the page is not a secure context)."""

from __future__ import annotations

import hashlib
import re
from typing import TYPE_CHECKING

import httpx
import pytest

from splash.core.fairness import commitment
from tests.server.conversation import SMALL_BASH

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser

HEX24 = re.compile(r"[0-9a-f]{24}")
DIGEST = """async (secret) => {
  const fair = await import('/static/js/fairness.js');
  return fair.commitmentDigest(secret);
}"""


def room_with_open_seat(server_url: str) -> tuple[str, str]:
    """A short Splash & Bash room of a bot and an open seat: its id and commitment."""
    created = httpx.post(
        f"{server_url}/api/rooms",
        json={"game": "bash", "settings": SMALL_BASH, "bots": [None, "random"]},
    )
    assert created.status_code == 201, created.text
    room = created.json()["room"]
    return str(room["id"]), str(room["commitment"])


def test_the_lobby_adds_a_seed_the_person_may_replace(page: Page, server_url: str) -> None:
    page.goto("/")
    page.wait_for_selector("#client-seed")
    assert HEX24.fullmatch(page.input_value("#client-seed"))
    page.fill("#client-seed", "Ann's lucky 7")
    page.select_option("#who-1", "random")
    page.fill("#settings", "\n".join(SMALL_BASH[1:]))
    page.click("#create-room")
    page.wait_for_url(re.compile(r"/static/bash\.html\?room=\w+"))
    room = re.search(r"room=(\w+)", page.url)
    assert room is not None
    seats = httpx.get(f"{server_url}/api/rooms/{room[1]}").json()["seats"]
    assert seats[0]["client_seed"] == "Ann's lucky 7"
    page.wait_for_selector("#fair-seeds li")
    assert "Ann's lucky 7" in page.inner_text("#fair-seeds")
    assert "a bot adds no seed" in page.inner_text("#fair-seeds")
    shown = httpx.get(f"{server_url}/api/rooms/{room[1]}").json()["commitment"]
    page.goto("/")
    listed = page.locator(f"[data-commitment='{room[1]}']")
    assert listed.inner_text() == f"chance committed: {shown[:12]}…"
    assert listed.locator("code").get_attribute("title") == shown


def test_the_invite_page_sends_its_random_seed_with_the_seat(page: Page, server_url: str) -> None:
    room, shown = room_with_open_seat(server_url)
    page.goto(f"/static/join.html?room={room}")
    page.wait_for_selector("#join-seed")
    seed = page.input_value("#join-seed")
    assert HEX24.fullmatch(seed)
    page.click("#take-0")
    page.wait_for_url(re.compile(r"/static/bash\.html"))
    assert httpx.get(f"{server_url}/api/rooms/{room}").json()["seats"][0]["client_seed"] == seed
    page.wait_for_selector("#fair-commitment")
    assert page.inner_text("#fair-commitment") == shown[:16] + "…"
    assert page.input_value("#fair-commitment-full") == shown


@pytest.mark.slow
def test_a_game_watched_from_before_play_is_checked_at_its_end(page: Page, server_url: str) -> None:
    room, shown = room_with_open_seat(server_url)
    page.goto(f"/static/bash.html?room={room}&watch")
    page.wait_for_selector("#fair-commitment")
    taken = httpx.post(f"{server_url}/api/rooms/{room}/seats/0", json={"bot": "random"})
    assert taken.status_code == 201, taken.text
    page.wait_for_selector("#fair-check", timeout=60_000)
    page.click("#fair-check")
    page.wait_for_selector("#fair-verdict")
    assert (
        page.inner_text("#fair-verdict")
        == "The secret revealed at the end gives the commitment shown before play."
    )
    assert page.input_value("#fair-command") == (
        f"splash verify {server_url}/api/rooms/{room}/replay"
    )
    secret = httpx.get(f"{server_url}/api/rooms/{room}/replay").json()["meta"]["fairness"]["secret"]
    assert commitment(bytes.fromhex(secret)) == shown


@pytest.mark.parametrize("secure", [True, False])
def test_the_page_hashes_a_secret_as_the_server_commits_to_it(page: Page, secure: bool) -> None:
    if not secure:
        page.add_init_script(
            "Object.defineProperty(window, 'isSecureContext', { get: () => false })"
        )
    page.goto("/static/join.html")
    assert page.evaluate("() => window.isSecureContext") is secure
    for secret in (bytes(32), bytes(range(32)), hashlib.sha256(b"splash").digest()):
        assert page.evaluate(DIGEST, secret.hex()) == commitment(secret)
