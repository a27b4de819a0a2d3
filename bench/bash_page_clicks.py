"""Clicks and time of a whole Splash & Bash game played through the page in Chromium.

Starts the play server on a free port with a fresh SQLite database, every room's seed fixed
at ``--seed`` (the server draws seeds at random: the bench replaces that draw), creates a
two-team room and clicks the first offered choice until the game is over.  With
``--people 1`` team A is a page and team B the ``greedy`` bot; with ``--people 2`` both
teams are pages, each in a browser context of its own, as two friends play.  The server is
the one ``PYTHONPATH`` names: point it at another checkout's ``src`` to measure that one
with the same clicks.

Prints the clicks, the clicks on "Pass", those on a "Pass" offered as the only choice and
the seconds the game took, last the line
``clicks=N pass_clicks=P lone_pass_clicks=L seconds=S``.

    PYTHONPATH=src .venv/bin/python bench/bash_page_clicks.py --people 2 --seed 1
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
CHOICE = "#choices button.choice:not([disabled])"
LAUNCH = """
import secrets, sys, uvicorn
import splash.core.fairness as fairness
secrets.randbits = lambda bits: {seed}
fairness.new_secret = lambda: ({seed}).to_bytes(32, "big")
uvicorn.run("splash.server.main:app", factory=True, host="127.0.0.1", port={port},
            log_level="warning")
"""


def free_port() -> int:
    """A free TCP port of 127.0.0.1."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_healthy(base: str, process: subprocess.Popen[bytes]) -> None:
    """Return once the server answers its health check; raise if it died or took 30 s."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and process.poll() is None:
        try:
            if httpx.get(f"{base}/api/health").status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.2)
    raise RuntimeError("the play server did not start")


@dataclass
class Clicks:
    """What the pages clicked: every choice, those on "Pass", those on a lone "Pass"."""

    clicks: int = 0
    passes: int = 0
    lone_passes: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    """Clicks by the kind of the choice and how many choices were offered with it."""


def seated_room(base: str, people: int) -> tuple[str, list[str]]:
    """A two-team room whose first ``people`` seats people take (the other is ``greedy``):
    its id and their tokens."""
    body = {
        "game": "bash",
        "settings": ["options.teams=2"],
        "bots": [None, None if people == 2 else "greedy"],
    }
    created = httpx.post(f"{base}/api/rooms", json=body)
    created.raise_for_status()
    room = str(created.json()["room"]["id"])
    tokens = []
    for seat, name in list(enumerate(["Ann", "Bea"]))[:people]:
        taken = httpx.post(f"{base}/api/rooms/{room}/seats/{seat}", json={"name": name})
        taken.raise_for_status()
        tokens.append(str(taken.json()["token"]))
    return room, tokens


def click_first(page: Page, counted: Clicks, policy: str) -> None:
    """Click the first choice the page offers (with ``policy`` ``cards``, a card when one is
    offered); wait until it is answered."""
    offered = page.locator(CHOICE)
    kinds = offered.evaluate_all("bs => bs.map(b => b.dataset.kind)")
    if not kinds:
        return
    pick = kinds.index("play") if policy == "cards" and "play" in kinds else 0
    offered.nth(pick).click()
    counted.clicks += 1
    counted.passes += kinds[pick] == "pass"
    counted.lone_passes += kinds == ["pass"]
    many = str(len(kinds)) if len(kinds) < 4 else "4+"
    counted.kinds[f"{kinds[pick]} of {many}"] += 1
    page.wait_for_function("() => !document.querySelector('#choices button.choice[disabled]')")


def play(base: str, chromium: str, people: int, policy: str, limit: int) -> tuple[Clicks, float]:
    """Play one game through the pages: what they clicked, and the seconds it took."""
    from playwright.sync_api import sync_playwright

    room, tokens = seated_room(base, people)
    counted = Clicks()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, headless=True, args=CHROMIUM_ARGS
        )
        pages = []
        for seat, token in enumerate(tokens):
            context = browser.new_context(base_url=base, locale="en-GB")
            context.set_default_timeout(30_000)
            kept = json.dumps(json.dumps({str(seat): token}))
            context.add_init_script(f"localStorage.setItem('splash-seats-{room}', {kept})")
            pages.append(context.new_page())
        start = time.perf_counter()
        for seat, page in enumerate(pages):
            page.goto(f"/static/bash.html?room={room}&seat={seat}")
            page.wait_for_selector("svg.pool")
        while counted.clicks < limit:
            if any(page.locator("#choices .winner").count() for page in pages):
                break
            ready = [page for page in pages if page.locator(CHOICE).count()]
            if not ready:
                time.sleep(0.02)
                continue
            for page in ready:
                # The choices may change between the look and the click: look again then.
                with contextlib.suppress(PlaywrightError):
                    click_first(page, counted, policy)
        else:
            raise RuntimeError(f"the game did not end within {limit} clicks")
        seconds = time.perf_counter() - start
        browser.close()
    return counted, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1, help="the seed of every room")
    parser.add_argument(
        "--policy",
        choices=("first", "cards"),
        default="first",
        help="first: the first choice offered; cards: a card when one is offered",
    )
    parser.add_argument(
        "--people", type=int, choices=(1, 2), default=2, help="teams played from pages"
    )
    parser.add_argument(
        "--chromium", default=os.environ.get("SPLASH_CHROMIUM", "/usr/bin/chromium")
    )
    parser.add_argument("--limit", type=int, default=2000, help="most clicks before giving up")
    args = parser.parse_args()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        env = {
            **os.environ,
            "SPLASH_SERVER_DATABASE_URL": f"sqlite:///{Path(folder) / 'splash.db'}",
            "SPLASH_SERVER_ROOM_CREATIONS_PER_MINUTE": "1000",
        }
        launch = LAUNCH.format(seed=args.seed, port=port)
        process = subprocess.Popen([sys.executable, "-c", launch], env=env)
        try:
            wait_healthy(base, process)
            counted, seconds = play(base, args.chromium, args.people, args.policy, args.limit)
        finally:
            process.kill()
            process.wait()
    for kind, count in sorted(counted.kinds.items(), key=lambda item: -item[1]):
        print(f"  {count:4d} clicks on {kind}")
    team_b = "a page" if args.people == 2 else "greedy"
    way = (
        "a card when one is offered, else the first choice"
        if args.policy == "cards"
        else ("the first choice offered")
    )
    print(f"seed {args.seed}, 2 teams, team A a page, team B {team_b}, {way}")
    print(
        f"clicks={counted.clicks} pass_clicks={counted.passes} "
        f"lone_pass_clicks={counted.lone_passes} seconds={seconds:.1f}"
    )


if __name__ == "__main__":
    main()
