"""The named states of the pages that the language and accessibility tests visit: the lobby,
the join page, each game mid-play with a choice open, each game's end summary and replay,
and the rules.  One set of rooms serves every visit (:class:`Rooms`)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import httpx

from tests.server.messages import RoomCreateBody

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

LANGUAGES = ("en", "fr", "cs", "it")
SHORT_BASH = ["options.teams=2", "board.laps=1", "board.lanes.outer=8", "board.lanes.centre=6"]
QUICK_TOWER = ["options.players=2", "options.deal=random", "physics.ruling=statics"]


@dataclass(frozen=True)
class Rooms:
    """The rooms the states are shown in: two running with seat 0 a person's (its token),
    one with a free seat, and a finished game of each."""

    bash: str
    bash_token: str
    tower: str
    tower_token: str
    open_bash: str
    bash_over: str
    tower_over: str


def _room(server_url: str, body: RoomCreateBody, name: str | None = "Ann") -> tuple[str, str]:
    room = str(httpx.post(f"{server_url}/api/rooms", json=body).json()["room"]["id"])
    if name is None:
        return room, ""
    taken = httpx.post(f"{server_url}/api/rooms/{room}/seats/0", json={"name": name}).json()
    return room, str(taken["token"])


def _over(server_url: str, game: str, settings: list[str]) -> str:
    """A room of two people played out by the turn timer's bot, once its game is over."""
    body: RoomCreateBody = {
        "game": game,
        "settings": settings,
        "options": {"turn_timer_s": 0.05, "pass_hold_s": 0},
    }
    room, _ = _room(server_url, body)
    assert httpx.post(f"{server_url}/api/rooms/{room}/seats/1", json={"name": "Bea"}).is_success
    deadline = time.monotonic() + 120
    while httpx.get(f"{server_url}/api/rooms/{room}").json()["status"] != "over":
        assert time.monotonic() < deadline, f"the {game} game did not end"
        time.sleep(0.1)
    return room


def make_rooms(server_url: str) -> Rooms:
    """Create the rooms every named state is shown in."""
    bash, bash_token = _room(
        server_url, {"game": "bash", "settings": SHORT_BASH, "bots": [None, "greedy"]}
    )
    tower, tower_token = _room(
        server_url, {"game": "tower", "settings": QUICK_TOWER, "bots": [None, "random"]}
    )
    open_bash, _ = _room(server_url, {"game": "bash", "settings": SHORT_BASH}, name=None)
    return Rooms(
        bash,
        bash_token,
        tower,
        tower_token,
        open_bash,
        _over(server_url, "bash", SHORT_BASH),
        _over(server_url, "tower", QUICK_TOWER),
    )


def _seat(page: Page, room: str, token: str) -> None:
    """Keep seat 0's token in the page's storage, as the lobby keeps it."""
    kept = json.dumps(json.dumps({"0": token}))
    page.add_init_script(f"localStorage.setItem('splash-seats-{room}', {kept})")


def _lobby(page: Page, rooms: Rooms, lang: str) -> None:
    page.goto("/")
    page.wait_for_selector("#create-room")
    page.wait_for_selector(f"[data-replay='{rooms.bash_over}']")


def _join(page: Page, rooms: Rooms, lang: str) -> None:
    page.goto(f"/static/join.html?room={rooms.open_bash}")
    page.wait_for_selector("#take-0")


def _bash_play(page: Page, rooms: Rooms, lang: str) -> None:
    _seat(page, rooms.bash, rooms.bash_token)
    page.goto(f"/static/bash.html?room={rooms.bash}&seat=0")
    page.wait_for_selector("#choices button.choice:not([disabled])")


def _tower_play(page: Page, rooms: Rooms, lang: str) -> None:
    _seat(page, rooms.tower, rooms.tower_token)
    page.goto(f"/static/tower.html?room={rooms.tower}&seat=0")
    page.wait_for_selector("#action-buttons button:not([disabled])")


def _bash_summary(page: Page, rooms: Rooms, lang: str) -> None:
    page.goto(f"/static/bash.html?room={rooms.bash_over}&watch")
    page.wait_for_selector("#game-summary table")


def _tower_summary(page: Page, rooms: Rooms, lang: str) -> None:
    page.goto(f"/static/tower.html?room={rooms.tower_over}&watch")
    page.wait_for_selector("#game-summary table")


def _bash_replay(page: Page, rooms: Rooms, lang: str) -> None:
    page.goto(f"/static/replay.html?room={rooms.bash_over}#move=5")
    page.wait_for_function("() => window.splashReplay && window.splashReplay.shown === 5")


def _tower_replay(page: Page, rooms: Rooms, lang: str) -> None:
    page.goto(f"/static/replay.html?room={rooms.tower_over}#move=3")
    page.wait_for_function("() => window.splashReplay && window.splashReplay.shown === 3")


def _rules(page: Page, rooms: Rooms, lang: str) -> None:
    page.goto("/rules/splash-and-bash.md" if lang == "en" else f"/rules/{lang}/splash-and-bash.md")
    page.wait_for_selector("h1")


STATES: dict[str, Callable[[Page, Rooms, str], None]] = {
    "lobby": _lobby,
    "join": _join,
    "bash-play": _bash_play,
    "tower-play": _tower_play,
    "bash-summary": _bash_summary,
    "tower-summary": _tower_summary,
    "bash-replay": _bash_replay,
    "tower-replay": _tower_replay,
    "rules": _rules,
}
"""Each named state, by its name: how a page gets there (in the language given)."""


def page_in(browser: Browser, server_url: str, lang: str) -> Page:
    """A new page of a fresh context whose person chose ``lang`` (the pages remember it)."""
    context = browser.new_context(base_url=server_url, locale=f"{lang}-{lang.upper()}")
    context.set_default_timeout(20_000)
    context.add_init_script(f"localStorage.setItem('splash-lang', '{lang}')")
    return context.new_page()
