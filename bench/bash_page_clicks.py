"""Clicks and time of a whole Splash & Bash game played through the page in Chromium.

Starts the play server on a free port with a fresh SQLite database, every room's seed fixed
at ``--seed`` (the server draws seeds at random: the bench replaces that draw), creates a
two-team room in which team A is this page and team B the ``greedy`` bot, and clicks the
first offered choice until the game is over.  Prints the clicks, the clicks on "Pass", the
turns and the seconds the game took, last the line ``clicks=N pass_clicks=N seconds=S``.

    PYTHONPATH=src .venv/bin/python bench/bash_page_clicks.py --seed 1
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

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
secrets.randbits = lambda bits: {seed}
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


def play(base: str, chromium: str, limit: int) -> tuple[int, int, float]:
    """Play one game through the page: (clicks, clicks on Pass, seconds)."""
    from playwright.sync_api import sync_playwright

    body = {"game": "bash", "settings": ["options.teams=2"], "bots": [None, "greedy"]}
    created = httpx.post(f"{base}/api/rooms", json=body)
    created.raise_for_status()
    room = created.json()["room"]["id"]
    seat = httpx.post(f"{base}/api/rooms/{room}/seats/0", json={"name": "Ann"})
    seat.raise_for_status()
    tokens = json.dumps(json.dumps({"0": seat.json()["token"]}))
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, headless=True, args=CHROMIUM_ARGS
        )
        context = browser.new_context(base_url=base, locale="en-GB")
        context.set_default_timeout(30_000)
        context.add_init_script(f"localStorage.setItem('splash-seats-{room}', {tokens})")
        page = context.new_page()
        start = time.perf_counter()
        page.goto(f"/static/bash.html?room={room}")
        clicks = passes = 0
        while clicks < limit:
            page.wait_for_selector(f"{CHOICE}, #choices .winner")
            if page.locator("#choices .winner").count():
                break
            first = page.locator(CHOICE).first
            passes += first.get_attribute("data-kind") == "pass"
            first.click()
            clicks += 1
            page.wait_for_function(
                "() => !document.querySelector('#choices button.choice[disabled]')"
            )
        else:
            raise RuntimeError(f"the game did not end within {limit} clicks")
        seconds = time.perf_counter() - start
        browser.close()
    return clicks, passes, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1, help="the seed of every room")
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
            clicks, passes, seconds = play(base, args.chromium, args.limit)
        finally:
            process.kill()
            process.wait()
    print(f"seed {args.seed}, 2 teams, team B greedy, the first offered choice each time")
    print(f"clicks={clicks} pass_clicks={passes} seconds={seconds:.1f}")


if __name__ == "__main__":
    main()
