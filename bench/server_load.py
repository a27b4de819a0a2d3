"""Load on the play server: concurrent games over WebSockets on 127.0.0.1, against an anchor.

Starts the play server with ``splash serve`` (one process, a fresh SQLite database per run)
and plays, in each run, N concurrent Splash & Bash games (2 teams, 1 lap): seat 0 is a
person-like client over a WebSocket that picks a random legal action after a seeded think
time of 100-300 ms, seat 1 is the server's ``random`` bot.  A game that ends is followed by
a new room, so N games run throughout.  Each run has a 5-s warm-up, then a fixed 20-s window
in which it measures:

- **act→ack** — from a client's ``act`` to its ``ack`` (applied, committed, acknowledged);
- **act→prompt** — from a client's ``act`` to the next message asking it to act again (the
  bot's and the chance moves in between included: what a player waits);
- **entries/s** — log entries committed per second (chance and bot moves included), read
  from the database.

Runs: N = 10, 50 and 200 with think time; then N = 200 with zero think time for the
throughput, against the anchor (``server_anchor.py``: a bare FastAPI WebSocket server doing
one SQLite insert and commit per action) with the same clients, in the same unit.  Before the
N = 200 run, its 200 rooms are created by 200 concurrent ``POST /api/rooms``
(**create p99**).

With PostgreSQL (``--postgres URL``, a role that may create databases, else
``SPLASH_TEST_POSTGRES_URL``), it then runs N = 200 with think time and with zero think time
on two ``splash serve --cluster`` processes sharing one PostgreSQL database (a new database
of its own, dropped at the end), the bench routing each room's connections as a
consistent-hash proxy would and creating rooms through the processes in turn (so half of the
new rooms are handed over to the other process before their first move; a client told
``moved`` connects again after 0.2 s).  Those figures are printed beside the one-process
ones; the last line stays the one-process figures.  The whole bench takes about 3 minutes
(4 with PostgreSQL); its last line is

    p99_ms_200=X turn_p99_ms_200=T p50_ms_200=Y entries_per_s=Z anchor_entries_per_s=A create_p99_ms=C

    .venv/bin/python bench/server_load.py
    .venv/bin/python bench/server_load.py --sizes 10 50 --window 10
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Required, TypedDict

import httpx
import numpy as np
from sqlalchemy import text
from websockets.asyncio.client import ClientConnection, connect

from splash.core.actions import Json
from splash.server import storage
from splash.server.schemas import Load

# The drill lives with the tests that run it: this checkout's tests package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.server.drill import cluster_of, scratch_database

FORMAT = "splash/ws/1"
SETTINGS = ["options.teams=2", "board.laps=1"]
SERVE = [sys.executable, "-c", "from splash.cli.main import main; main()", "serve"]
ANCHOR = [sys.executable, str(Path(__file__).with_name("server_anchor.py"))]


class View(TypedDict):
    """The part of a seat's view this client reads."""

    to_act: int
    legal_actions: list[Json]


@dataclass
class Target:
    """Where the games are played: the server processes (their ports and process ids) and
    how many log entries their database holds."""

    ports: list[int]
    pids: list[int]
    count: Callable[[], int]

    def route(self, room: str) -> int:
        """The port a consistent-hash proxy sends ``room`` to (rendezvous hashing)."""
        return max(self.ports, key=lambda p: hashlib.sha256(f"{p}/{room}".encode()).digest())

    def creator(self, number: int) -> int:
        """The port that creates the ``number``-th room (the processes in turn)."""
        return self.ports[number % len(self.ports)]

    def cpu(self) -> float:
        """The CPU time the server processes have used."""
        return sum(cpu_seconds(pid) for pid in self.pids)


class Message(TypedDict, total=False):
    """A message of the server, as far as this client reads it (docs/protocol.md)."""

    type: Required[str]
    index: int
    status: str
    view: View


@dataclass
class Window:
    """The measuring window of one run and what was measured in it."""

    start: float
    end: float
    acks: list[float] = field(default_factory=list)
    turns: list[float] = field(default_factory=list)
    errors: int = 0
    entries: int = 0
    cpu_s: float = 0.0
    """The server's CPU time (user and system) in the window."""
    client_cpu_s: float = 0.0
    """The bench's own CPU time (its clients) in the window: on a small machine they share
    the cores with the server."""

    def cpu_ms_per_entry(self) -> float:
        """The server's CPU time per entry committed in the window, in milliseconds: less
        hostage to other processes than the latencies."""
        return self.cpu_s * 1000 / self.entries if self.entries else float("nan")

    def client_ms_per_entry(self) -> float:
        """The clients' CPU time per entry committed in the window, in milliseconds."""
        return self.client_cpu_s * 1000 / self.entries if self.entries else float("nan")

    def inside(self, at: float) -> bool:
        """Whether an act sent at ``at`` counts."""
        return self.start <= at < self.end


def free_port() -> int:
    """A port of 127.0.0.1 nobody listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def running(
    command: list[str], health: str, output: IO[bytes] | None = None
) -> Iterator[subprocess.Popen[bytes]]:
    """``command`` as a subprocess (its output to ``output``), once ``health`` answers 200;
    stopped at the end."""
    process = subprocess.Popen(command, stdout=output, stderr=output)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(health).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the server did not start: {' '.join(command)}")
            time.sleep(0.1)
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def splash_serve(database: Path, port: int) -> list[str]:
    """``splash serve`` for the load: one client address creates every room."""
    limits = ["--room-creations-per-minute", "1000000", "--max-open-rooms", "1000000"]
    return [
        *SERVE,
        "--db",
        f"sqlite:///{database}",
        "--port",
        str(port),
        "--log-level",
        "warning",
        "--idle-room-close-s",
        "0",
        *limits,
    ]


def rows_of(database: Path) -> Callable[[], int]:
    """A counter of the entries of the SQLite file ``database``."""
    return lambda: count_rows(database)


def count_rows(database: Path) -> int:
    """The log entries committed so far (read beside the server: SQLite in WAL mode)."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=30) as db:
        return int(db.execute("SELECT count(*) FROM actions").fetchone()[0])


async def create_room(
    http: httpx.AsyncClient, target: Target, number: int
) -> tuple[str, str, float]:
    """A room with the client in seat 0 and the ``random`` bot in seat 1: its id, the seat's
    token, and how long ``POST /api/rooms`` took."""
    body = {"game": "bash", "settings": SETTINGS, "bots": [None, "random"]}
    start = time.perf_counter()
    created = await http.post(f"http://127.0.0.1:{target.creator(number)}/api/rooms", json=body)
    took = time.perf_counter() - start
    created.raise_for_status()
    room = created.json()["room"]["id"]
    seat_url = f"http://127.0.0.1:{target.route(room)}/api/rooms/{room}/seats/0"
    seat = await http.post(seat_url, json={"name": "bench"})
    seat.raise_for_status()
    return room, str(seat.json()["token"]), took


async def play_game(
    ws: ClientConnection, token: str, rng: np.random.Generator, think: bool, window: Window
) -> bool:
    """One game on ``ws`` to its end (or the end of the window); whether the room moved to
    another process (the game goes on there)."""
    await ws.send(json.dumps({"format": FORMAT, "type": "join", "token": token}))
    sent_at: float | None = None
    acted = -1
    while time.perf_counter() < window.end:
        doc: Message = json.loads(await ws.recv())
        now = time.perf_counter()
        if doc["type"] == "moved":
            return True
        if doc["type"] == "ack":
            if sent_at is not None and window.inside(sent_at):
                window.acks.append(now - sent_at)
            continue
        if doc["type"] == "error":
            window.errors += 1
            sent_at, acted = None, -1
            await ws.send(json.dumps({"format": FORMAT, "type": "sync"}))
            continue
        if doc.get("status") == "over":
            return False
        view = doc.get("view")
        if not view or view["to_act"] != 0 or not view["legal_actions"]:
            continue
        index = doc["index"] + (1 if doc["type"] == "update" else 0)
        if index <= acted:
            continue
        if sent_at is not None and window.inside(sent_at):
            window.turns.append(now - sent_at)
        if think:
            await asyncio.sleep(float(rng.uniform(0.1, 0.3)))
        legal = view["legal_actions"]
        act = {"format": FORMAT, "type": "act", "expect": index}
        act["action"] = legal[int(rng.integers(len(legal)))]
        sent_at, acted = time.perf_counter(), index
        await ws.send(json.dumps(act))
    return False


async def player(
    http: httpx.AsyncClient,
    target: Target,
    *,
    first: tuple[str, str],
    seed: int,
    think: bool,
    window: Window,
) -> None:
    """Games one after the other until the window ends, the first in room ``first``."""
    rng = np.random.default_rng(seed)
    room, token = first
    made = 0
    while time.perf_counter() < window.end:
        url = f"ws://127.0.0.1:{target.route(room)}/ws/rooms/{room}"
        async with connect(url, max_size=None) as ws:
            moved = await play_game(ws, token, rng, think, window)
        if moved:
            await asyncio.sleep(0.2)
            continue
        if time.perf_counter() < window.end:
            made += 1
            room, token, _ = await create_room(http, target, seed * 1000 + made)


async def splash_run(
    target: Target,
    games: int,
    *,
    think: bool,
    warmup: float,
    seconds: float,
) -> tuple[Window, float, list[float]]:
    """One run: the window, entries/s in it, and the times of the first rooms' creation."""
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=0)
    async with httpx.AsyncClient(limits=limits, timeout=60) as http:
        rooms = await asyncio.gather(*(create_room(http, target, n) for n in range(games)))
        start = time.perf_counter() + warmup
        window = Window(start, start + seconds)
        players = [
            player(http, target, first=(room, token), seed=seed, think=think, window=window)
            for seed, (room, token, _) in enumerate(rooms)
        ]
        counter = asyncio.create_task(count_window(target, window))
        loads = [
            asyncio.create_task(load_window(http, f"http://127.0.0.1:{port}", window))
            for port in target.ports
        ]
        await asyncio.gather(*players)
        entries = await counter
        for load in loads:
            print(describe_load(await load), flush=True)
    return window, entries / seconds, [took for _, _, took in rooms]


async def load_window(http: httpx.AsyncClient, base: str, window: Window) -> Load:
    """The ``/api/health/load`` of the server at ``base`` over ``window``: event-loop lag,
    GC, commits."""
    await asyncio.sleep(max(0.0, window.start - time.perf_counter()))
    (await http.post(f"{base}/api/health/load/reset")).raise_for_status()
    await asyncio.sleep(max(0.0, window.end - time.perf_counter()))
    answer = await http.get(f"{base}/api/health/load")
    answer.raise_for_status()
    return Load.model_validate(answer.json())


def describe_load(load: Load) -> str:
    """One line of where the server's time went."""
    return (
        f"  server: loop lag p50 {load.loop_lag_p50_ms:.1f} p99 {load.loop_lag_p99_ms:.1f}"
        f" max {load.loop_lag_max_ms:.1f} ms;"
        f" gc by generation {'/'.join(str(n) for n in load.gc_collections)},"
        f" longest {'/'.join(f'{t:.1f}' for t in load.gc_longest_ms)} ms,"
        f" total {load.gc_total_ms:.0f} ms; {load.transactions} commits of {load.jobs} jobs"
        f" (largest {load.largest_batch}), commit mean {load.commit_ms_mean:.1f}"
        f" max {load.commit_ms_max:.1f} ms"
    )


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) process ``pid`` has used (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def count_window(target: Target, window: Window) -> int:
    """The entries committed between the start and the end of ``window`` (and the servers'
    CPU time meanwhile, in ``window``)."""
    await asyncio.sleep(max(0.0, window.start - time.perf_counter()))
    before, cpu = await asyncio.to_thread(target.count), target.cpu()
    client = time.process_time()
    await asyncio.sleep(max(0.0, window.end - time.perf_counter()))
    window.cpu_s = target.cpu() - cpu
    window.client_cpu_s = time.process_time() - client
    window.entries = await asyncio.to_thread(target.count) - before
    return window.entries


async def anchor_client(port: int, game: int, window: Window) -> None:
    """Acts without pause on the anchor until the window ends."""
    async with connect(f"ws://127.0.0.1:{port}/ws") as ws:
        index = 0
        while time.perf_counter() < window.end:
            sent_at = time.perf_counter()
            await ws.send(json.dumps({"type": "act", "game": game, "index": index}))
            await ws.recv()
            if window.inside(sent_at):
                window.acks.append(time.perf_counter() - sent_at)
            index += 1


async def anchor_run(
    port: int, database: Path, clients: int, *, pid: int, warmup: float, seconds: float
) -> tuple[Window, float]:
    """The anchor's run: its window and entries/s."""
    start = time.perf_counter() + warmup
    window = Window(start, start + seconds)
    target = Target([port], [pid], lambda: count_rows(database))
    counter = asyncio.create_task(count_window(target, window))
    await asyncio.gather(*(anchor_client(port, game, window) for game in range(clients)))
    return window, await counter / seconds


def ms(values: list[float], q: float) -> float:
    """The ``q`` percentile of ``values``, in milliseconds (nan when empty)."""
    return float(np.percentile(values, q)) * 1000 if values else float("nan")


def report(label: str, think: bool, window: Window, rate: float, creates: list[float]) -> None:
    """Print one run's figures."""
    kind = "think 100-300 ms" if think else "zero think"
    print(
        f"{label} ({kind}): act->ack p50 {ms(window.acks, 50):.1f} ms"
        f" p99 {ms(window.acks, 99):.1f} ms; act->prompt p50 {ms(window.turns, 50):.1f}"
        f" ms p99 {ms(window.turns, 99):.1f} ms; {rate:.0f} entries/s;"
        f" server CPU {window.cpu_ms_per_entry():.2f} ms/entry"
        f" (clients {window.client_ms_per_entry():.2f});"
        f" {len(window.acks)} acts, {window.errors} errors;"
        f" {len(creates)} rooms created at once: p99 {ms(creates, 99):.0f} ms",
        flush=True,
    )


def postgres_runs(admin_url: str, games: int, warmup: float, seconds: float) -> None:
    """N = ``games`` with think time, then without, on two ``--cluster`` processes sharing
    a new PostgreSQL database."""
    extra = ["--idle-room-close-s", "0", "--max-open-rooms", "1000000"]
    for think in (True, False):
        with (
            scratch_database(admin_url) as url,
            cluster_of(url, 2, log_level="warning", extra=extra) as cluster,
        ):
            engine = storage.make_engine(url)
            try:

                def count(engine: Any = engine) -> int:
                    with engine.connect() as conn:
                        return int(conn.execute(text("SELECT count(*) FROM actions")).scalar())

                target = Target(
                    [p.port for p in cluster.processes],
                    [p.process.pid for p in cluster.processes],
                    count,
                )
                window, rate, creates = asyncio.run(
                    splash_run(target, games, think=think, warmup=warmup, seconds=seconds)
                )
            finally:
                engine.dispose()
        report(f"splash 2 processes, PostgreSQL, N={games}", think, window, rate, creates)


def main() -> None:
    """Parse the options, run every run, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 50, 200])
    parser.add_argument("--throughput-games", type=int, default=200)
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before the window")
    parser.add_argument("--window", type=float, default=20.0, help="seconds measured")
    parser.add_argument(
        "--postgres",
        default=os.environ.get("SPLASH_TEST_POSTGRES_URL"),
        help="PostgreSQL URL (a role that may create databases) for the two-process runs",
    )
    args = parser.parse_args()
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as folder:
        for n, think in [(n, True) for n in args.sizes] + [(args.throughput_games, False)]:
            database, port = Path(folder) / f"splash-{n}-{think}.db", free_port()
            health = f"http://127.0.0.1:{port}/api/health"
            with running(splash_serve(database, port), health) as server:
                target = Target([port], [server.pid], rows_of(database))
                window, rate, creates = asyncio.run(
                    splash_run(target, n, think=think, warmup=args.warmup, seconds=args.window)
                )
            report(f"splash N={n}", think, window, rate, creates)
            if think and n == 200:
                figures["p99"], figures["turn"] = ms(window.acks, 99), ms(window.turns, 99)
                figures["p50"], figures["create"] = ms(window.acks, 50), ms(creates, 99)
            if not think:
                figures["entries"] = rate
        database, port = Path(folder) / "anchor.db", free_port()
        anchor = [*ANCHOR, "--db", str(database), "--port", str(port)]
        with running(anchor, f"http://127.0.0.1:{port}/health") as server:
            window, rate = asyncio.run(
                anchor_run(
                    port,
                    database,
                    args.throughput_games,
                    pid=server.pid,
                    warmup=args.warmup,
                    seconds=args.window,
                )
            )
        print(
            f"anchor N={args.throughput_games} (zero think): act->ack p50"
            f" {ms(window.acks, 50):.1f} ms p99 {ms(window.acks, 99):.1f} ms; {rate:.0f} entries/s;"
            f" server CPU {window.cpu_ms_per_entry():.2f} ms/entry"
            f" (clients {window.client_ms_per_entry():.2f})",
            flush=True,
        )
        figures["anchor"] = rate
    if args.postgres:
        postgres_runs(args.postgres, args.throughput_games, args.warmup, args.window)
    nan = float("nan")
    print(
        f"p99_ms_200={figures.get('p99', nan):.1f} turn_p99_ms_200={figures.get('turn', nan):.1f}"
        f" p50_ms_200={figures.get('p50', nan):.1f} entries_per_s={figures.get('entries', nan):.0f}"
        f" anchor_entries_per_s={figures.get('anchor', nan):.0f}"
        f" create_p99_ms={figures.get('create', nan):.0f}"
    )


if __name__ == "__main__":
    main()
