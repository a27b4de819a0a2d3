"""Load on the play server: concurrent games over WebSockets on 127.0.0.1.

Starts ``uvicorn`` with the play server on a free port and a fresh SQLite database (or the
``--db`` given), creates ``--games`` Splash & Bash rooms in which seat 0 is a client over a
WebSocket choosing uniformly among its legal actions and seat 1 is the server's ``random``
bot, plays them all at once to the end, and prints:

- **actions/s** — actions stored and sent per second, over all games (chance outcomes and
  the server bot's actions included);
- **client action latency p50 / p99** — from sending an ``act`` to receiving its ``ack``
  (the action applied, committed to the database and acknowledged).

Every action is committed before its ``ack``, so with SQLite the figures mostly measure the
synchronous writes of the disk.

    .venv/bin/python bench/server_load.py --games 8
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from typing import Required, TypedDict

import httpx
import numpy as np
from websockets.asyncio.client import connect

from splash.core.actions import Json

FORMAT = "splash/ws/1"
SETTINGS = ["options.teams=2", "board.laps=1"]


class View(TypedDict):
    """The part of a seat's view this client reads."""

    to_act: int
    legal_actions: list[Json]


class Message(TypedDict, total=False):
    """A message of the server, as far as this client reads it: ``type`` is in every
    message, the other keys in some types only (docs/protocol.md)."""

    type: Required[str]
    index: int
    status: str
    view: View


def free_port() -> int:
    """A port of 127.0.0.1 nobody listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(database_url: str, port: int) -> subprocess.Popen[bytes]:
    """The server as a subprocess, once it answers its health check."""
    env = {
        **os.environ,
        "SPLASH_SERVER_DATABASE_URL": database_url,
        # One client creates every room of the load, far faster than people do.
        "SPLASH_SERVER_ROOM_CREATIONS_PER_MINUTE": "100000",
        "SPLASH_SERVER_MAX_OPEN_ROOMS": "100000",
    }
    command = [sys.executable, "-m", "uvicorn", "--factory", "splash.server.main:app"]
    command += ["--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"]
    process = subprocess.Popen(command, env=env)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health").status_code == 200:
                return process
        except httpx.TransportError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("the server did not start")


async def play_one(base: str, port: int, seed: int, latencies: list[float]) -> int:
    """One game to its end; the length of its log."""
    async with httpx.AsyncClient(base_url=base) as http:
        body = {"game": "bash", "settings": SETTINGS, "bots": [None, "random"]}
        room = (await http.post("/api/rooms", json=body)).json()["room"]["id"]
        token = (await http.post(f"/api/rooms/{room}/seats/0", json={"name": "bench"})).json()
    rng = np.random.default_rng(seed)
    sent: dict[int, float] = {}
    async with connect(f"ws://127.0.0.1:{port}/ws/rooms/{room}", max_size=None) as ws:
        await ws.send(json.dumps({"format": FORMAT, "type": "join", "token": token["token"]}))
        while True:
            doc: Message = json.loads(await ws.recv())
            if doc["type"] == "ack":
                latencies.append(time.perf_counter() - sent.pop(doc["index"]))
                continue
            if doc.get("status") == "over" and doc["type"] == "update":
                return int(doc["index"]) + 1
            view = doc.get("view")
            if not view or view["to_act"] != 0 or not view["legal_actions"]:
                continue
            index = doc["index"] + (1 if doc["type"] == "update" else 0)
            legal = view["legal_actions"]
            sent[index] = time.perf_counter()
            act = {"format": FORMAT, "type": "act", "expect": index}
            act["action"] = legal[int(rng.integers(len(legal)))]
            await ws.send(json.dumps(act))


async def run(games: int, port: int) -> tuple[int, float, list[float]]:
    """Every game at once: total actions, seconds, client latencies."""
    latencies: list[float] = []
    base = f"http://127.0.0.1:{port}"
    start = time.perf_counter()
    lengths = await asyncio.gather(*(play_one(base, port, g, latencies) for g in range(games)))
    return sum(lengths), time.perf_counter() - start, latencies


def main() -> None:
    """Parse the options, run the games, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8, help="concurrent games")
    parser.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        database_url = args.db or f"sqlite:///{folder}/bench.db"
        port = free_port()
        server = start_server(database_url, port)
        try:
            actions, seconds, latencies = asyncio.run(run(args.games, port))
        finally:
            server.terminate()
            server.wait()
    p50, p99 = (float(np.percentile(latencies, q)) * 1000 for q in (50, 99))
    print(f"games: {args.games} concurrent, {actions} actions in {seconds:.2f} s")
    print(f"actions/s: {actions / seconds:.0f}")
    print(f"client action latency: p50 {p50:.1f} ms, p99 {p99:.1f} ms ({len(latencies)} actions)")


if __name__ == "__main__":
    main()
