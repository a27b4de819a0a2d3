"""A soak of the play server: 200 games and clients sending garbage, for minutes.

Starts ``splash serve`` (one process, a fresh SQLite database) on 127.0.0.1 and keeps, for
``--minutes`` (10 by default), 200 Splash & Bash games running (the person-like clients of
``server_load.py``: a seeded think time of 100-300 ms, a new room when a game ends) while
``--garbage`` clients, one message at a time, send what a door must refuse: deep nesting,
huge integers, wrong fields, non-JSON, a first message that is no join, and now and then a
16 MiB frame.  Everything stays on the loopback and bounded (one frame in flight per garbage
client).

It samples the server's resident memory every 10 s and prints it each minute.  At the end
it counts **errors** (an ``internal`` error to anyone, an ``error`` to a game client, a
client that failed) and **tracebacks** in the server's log.  Memory is flat when the end is
at most 1.1 times the resident size after the first minute; the last line is

    rss_start_mb=S rss_end_mb=E errors=R tracebacks=B

with S the resident size after the first minute (at the end for runs of one minute or less).

    .venv/bin/python bench/server_soak.py --minutes 2
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import httpx
import numpy as np
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).parent))
from server_load import (
    FORMAT,
    Target,
    Window,
    create_room,
    free_port,
    player,
    running,
    splash_serve,
)

GARBAGE = [
    "[" * 30_000 + "]" * 30_000,
    '{"format": "splash/ws/1", "type": "act", "action": ' + "9" * 5000 + "}",
    '{"format": "splash/ws/1", "type": "act", "action": 1e999}',
    '{"format": "splash/ws/1", "type": "act", "expect": "soon", "action": 1}',
    '{"format": "splash/ws/1", "type": "reveal", "seat": [1]}',
    '{"format": "splash/ws/2", "type": "act"}',
    '{"format": "splash/ws/1", "type": "dance"}',
    "{not json",
    "[]",
]
"""What the garbage clients send (after a join as spectators, or as the first message)."""
BIG_FRAME = b"x" * (16 * 1024 * 1024)


def rss_mb(pid: int) -> float:
    """The resident memory of process ``pid``, in MB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise LookupError("VmRSS")


async def garbage_client(port: int, room: str, seed: int, end: float, errors: list[str]) -> int:
    """Sends garbage until ``end``; counts ``internal`` errors in ``errors``; how many
    messages it sent."""
    rng = np.random.default_rng(seed)
    sent = 0
    while time.perf_counter() < end:
        try:
            async with connect(f"ws://127.0.0.1:{port}/ws/rooms/{room}", max_size=None) as ws:
                if rng.random() < 0.02:
                    await ws.send(BIG_FRAME)
                elif rng.random() < 0.3:
                    await ws.send(GARBAGE[int(rng.integers(len(GARBAGE)))])
                else:
                    await ws.send(json.dumps({"format": FORMAT, "type": "join"}))
                    await ws.recv()
                    for _ in range(int(rng.integers(1, 20))):
                        await ws.send(GARBAGE[int(rng.integers(len(GARBAGE)))])
                        reply = json.loads(await ws.recv())
                        if reply.get("code") == "internal":
                            errors.append("internal")
                sent += 1
        except Exception:  # the server closes the socket after a refused first message
            pass
        await asyncio.sleep(float(rng.uniform(0.0, 0.05)))
    return sent


async def soak(
    port: int, pid: int, games: int, garbage: int, seconds: float
) -> tuple[list[float], int, int]:
    """The soak: memory samples (MB, every 10 s), errors, garbage messages sent."""
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=0)
    errors: list[str] = []
    samples: list[float] = [rss_mb(pid)]
    async with httpx.AsyncClient(
        base_url=f"http://127.0.0.1:{port}", limits=limits, timeout=60
    ) as http:
        target = Target([port], [pid], lambda: 0)  # the soak counts no entries
        rooms = await asyncio.gather(*(create_room(http, target, n) for n in range(games)))
        start = time.perf_counter()
        window = Window(start, start + seconds)

        async def sample() -> None:
            while time.perf_counter() < window.end:
                await asyncio.sleep(10)
                samples.append(rss_mb(pid))
                if len(samples) % 6 == 1:
                    minute = (len(samples) - 1) // 6
                    print(f"minute {minute}: rss {samples[-1]:.0f} MB", flush=True)

        async def guarded(task: Coroutine[Any, Any, None]) -> None:
            try:
                await task
            except Exception as error:
                errors.append(type(error).__name__)

        players = [
            guarded(player(http, target, first=(room, token), seed=seed, think=True, window=window))
            for seed, (room, token, _) in enumerate(rooms)
        ]
        junk = [
            garbage_client(port, rooms[g % games][0], 1000 + g, window.end, errors)
            for g in range(garbage)
        ]
        results = await asyncio.gather(sample(), *players, *junk)
    samples.append(rss_mb(pid))
    sent = sum(r for r in results if isinstance(r, int))
    return samples, len(errors) + window.errors, sent


def main() -> None:
    """Parse the options, soak, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--garbage", type=int, default=10, help="garbage clients")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        database, port, log = Path(folder) / "soak.db", free_port(), Path(folder) / "server.log"
        with (
            log.open("wb") as sink,
            running(
                splash_serve(database, port), f"http://127.0.0.1:{port}/api/health", output=sink
            ) as server,
        ):
            samples, errors, sent = asyncio.run(
                soak(port, server.pid, args.games, args.garbage, args.minutes * 60)
            )
        text = log.read_text(errors="replace")
    tracebacks = text.count("Traceback (most recent call last)")
    after_first_minute = samples[min(6, len(samples) - 1)]
    print(
        f"{args.games} games, {args.garbage} garbage clients ({sent} garbage connections),"
        f" {args.minutes:g} min; rss at launch {samples[0]:.0f} MB, peak {max(samples):.0f} MB"
    )
    flat = samples[-1] <= 1.1 * after_first_minute
    print(f"memory {'flat' if flat else 'NOT flat'}: end <= 1.1 x after the first minute")
    print(
        f"rss_start_mb={after_first_minute:.0f} rss_end_mb={samples[-1]:.0f}"
        f" errors={errors} tracebacks={tracebacks}"
    )


if __name__ == "__main__":
    main()
