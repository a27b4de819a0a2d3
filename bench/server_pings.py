"""What keeping connections alive costs the play server: its CPU time per ``ping`` of the
page's heartbeat, and per WebSocket ping of uvicorn, at 200 connections.

Starts ``splash serve`` (a fresh SQLite store) and opens ``--connections`` spectator sockets
on 20 open rooms (nothing is played), then measures the server process's CPU time (user and
system, from ``/proc``) over three windows of ``--window`` seconds each:

- **idle**: the sockets open, silent, uvicorn's pings off;
- **uvicorn**: the same with uvicorn's pings as ``splash serve`` sets them;
- **page**: uvicorn's pings on, and every socket sending ``ping`` as the page does
  (``PING_EVERY_MS`` of ``web/static/js/client.js``), each answered by a ``pong``.

The cost of a ping is the CPU time above the window before, over the pings in the window.
The last line is exactly

    connections=N page_ping_us=P page_cpu_pct=C uvicorn_ping_us=U uvicorn_cpu_pct=V

(``_cpu_pct``: percent of one core at that many connections).

    .venv/bin/python bench/server_pings.py
    .venv/bin/python bench/server_pings.py --connections 200 --window 20
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
from websockets.asyncio.client import ClientConnection, connect

from splash.cli.serve import WS_PING_INTERVAL_S
from splash.server.protocol import WS_FORMAT

# The page's heartbeat is read as the fault drill reads it: this checkout's tests package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.server.drill import CLIENT_JS, Heartbeat
from tests.server.process import free_port, wait_healthy

SERVE = """
import sys
from splash.cli.serve import run_uvicorn, uvicorn_options
from splash.server.app import create_app
from splash.server.settings import ServerSettings
settings = ServerSettings(database_url=sys.argv[1], port=int(sys.argv[2]))
options = uvicorn_options(settings, "warning")
if sys.argv[3] == "off":
    options["ws_ping_interval"] = None
run_uvicorn(create_app(settings), **options)
"""
"""``splash serve``'s application and uvicorn options, uvicorn's pings on or off."""
ROOMS = 20


def cpu_s(pid: int) -> float:
    """The CPU time (user and system) that process ``pid`` used so far, in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextlib.contextmanager
def served(pings: bool) -> Iterator[tuple[int, int]]:
    """The server on a fresh SQLite store, uvicorn's pings on or off: (pid, port)."""
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        url = f"sqlite:///{folder}/pings.db"
        command = [sys.executable, "-c", SERVE, url, str(port), "on" if pings else "off"]
        process = subprocess.Popen(command)
        try:
            wait_healthy(process, port)
            yield process.pid, port
        finally:
            process.terminate()
            process.wait()


async def spectators(port: int, count: int) -> list[ClientConnection]:
    """``count`` spectator sockets on :data:`ROOMS` open rooms, welcomed."""
    rooms = []
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
        for _ in range(ROOMS):
            body = {"game": "bash", "bots": [None, "random"]}
            created = await http.post("/api/rooms", json=body)
            created.raise_for_status()
            rooms.append(str(created.json()["room"]["id"]))
    sockets = []
    for number in range(count):
        ws = await connect(f"ws://127.0.0.1:{port}/ws/rooms/{rooms[number % ROOMS]}")
        await ws.send(json.dumps({"format": WS_FORMAT, "type": "join"}))
        await ws.recv()
        sockets.append(ws)
    return sockets


async def heartbeat(ws: ClientConnection, every: float, until: float, pongs: list[int]) -> None:
    """Send ``ping`` every ``every`` s until ``until``, counting the pongs."""
    ping = json.dumps({"format": WS_FORMAT, "type": "ping"})
    due = time.monotonic() + every * (id(ws) % 997) / 997  # spread over the period
    while due < until:
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        await ws.send(ping)
        with contextlib.suppress(TimeoutError):
            while json.loads(await asyncio.wait_for(ws.recv(), every))["type"] != "pong":
                pass
            pongs.append(1)
        due += every


async def measure(port: int, pid: int, count: int, window: float, page: float) -> list[float]:
    """CPU seconds of the server over a silent window, then over a window of page pings,
    and the pings answered in it."""
    sockets = await spectators(port, count)
    try:
        await asyncio.sleep(2.0)
        before = cpu_s(pid)
        await asyncio.sleep(window)
        silent = cpu_s(pid) - before
        pongs: list[int] = []
        until = time.monotonic() + window
        before = cpu_s(pid)
        await asyncio.gather(*(heartbeat(ws, page, until, pongs) for ws in sockets))
        pinged = cpu_s(pid) - before
        return [silent, pinged, float(len(pongs))]
    finally:
        for ws in sockets:
            ws.transport.abort()


def main() -> None:
    """Measure and print the costs."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=200)
    parser.add_argument("--window", type=float, default=20.0, help="seconds a window")
    options = parser.parse_args()
    page = Heartbeat(CLIENT_JS.read_text()).ping_every
    count, window = options.connections, options.window
    with served(pings=False) as (pid, port):
        idle, _, _ = asyncio.run(measure(port, pid, count, window, page))
    with served(pings=True) as (pid, port):
        uvicorn, paged, pongs = asyncio.run(measure(port, pid, count, window, page))
    uvicorn_pings = count * window / WS_PING_INTERVAL_S
    uvicorn_us = (uvicorn - idle) / uvicorn_pings * 1e6
    page_us = (paged - uvicorn) / max(pongs, 1.0) * 1e6
    print(
        f"{count} sockets, {window:g}-s windows: {idle:.2f} s of CPU silent without uvicorn's"
        f" pings, {uvicorn:.2f} s with them (every {WS_PING_INTERVAL_S:g} s), {paged:.2f} s"
        f" with the page's pings too ({pongs:.0f} pongs, one every {page:g} s a socket)"
    )
    page_pct = page_us * count / page / 1e4
    uvicorn_pct = uvicorn_us * count / WS_PING_INTERVAL_S / 1e4
    print(
        f"connections={count} page_ping_us={page_us:.0f} page_cpu_pct={page_pct:.1f}"
        f" uvicorn_ping_us={uvicorn_us:.0f} uvicorn_cpu_pct={uvicorn_pct:.1f}"
    )


if __name__ == "__main__":
    main()
