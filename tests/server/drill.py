"""A fail-over drill: several ``splash serve --cluster`` processes on one PostgreSQL
database, games played across them, one process killed with SIGKILL.

The drill plays the part of the proxy (:meth:`Cluster.route`: rendezvous hashing of the room
id over the processes alive, as a consistent-hash proxy routes) and of the players (one
person-like client a room, against the ``random`` bot).  A client reconnects after a lost
connection or a ``moved`` message (close code 4409), as the pages do.  It measures what an
operator needs to trust a fail-over (:class:`DrillReport`):

- whether every room of the killed process went on, and how long its take-over took (from
  the kill to the room's first acknowledged action after it);
- the acknowledged actions that the database lacks (none may be);
- the action indices that two processes committed (none may be: a room is served by one
  process at a time), read from the processes' own logs.

``bench/server_failover.py`` and the fail-over tests run it.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import httpx
import numpy as np
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from splash.core.actions import Json
from splash.server import storage
from splash.server.protocol import WS_FORMAT
from tests.server.process import free_port

DRILL_SETTINGS: tuple[str, ...] = (
    "options.teams=2",
    "board.laps=1",
    "board.lanes.outer=12",
    "board.lanes.centre=10",
    "board.lanes.high_tide=8",
)
"""A short Splash & Bash game (about 200 actions)."""

_COMMITTED = re.compile(r"room (\w+): action (\d+) \(")
CLIENT_JS = Path(__file__).resolve().parents[2] / "src/splash/web/static/js/client.js"
"""The page's connection (its heartbeat's constants)."""


class Heartbeat:
    """The page's heartbeat and reconnection, in seconds, read from the source of
    ``client.js``."""

    def __init__(self, source: str) -> None:
        def constant(name: str) -> str:
            found = re.search(rf"^const {name} = (.+);$", source, re.MULTILINE)
            if found is None:
                raise ValueError(f"client.js has no constant {name}")
            return found.group(1)

        self.ping_every = int(constant("PING_EVERY_MS")) / 1000
        """A ``ping`` every so often, once welcomed."""
        self.pong_within = int(constant("PONG_WITHIN_MS")) / 1000
        """The socket given up this long after a ping left unanswered."""
        self.moved_retry = int(constant("MOVED_RETRY_MS")) / 1000
        """A new try this long after a close 4409."""
        self.backoff = tuple(int(ms) / 1000 for ms in json.loads(constant("BACKOFF_MS")))
        """The waits before the new tries after any other loss."""


@dataclass
class ServerProcess:
    """One ``splash serve --cluster`` process of the drill."""

    instance: str
    port: int
    process: subprocess.Popen[bytes]
    log: IO[bytes]
    alive: bool = True

    @property
    def base(self) -> str:
        """Its HTTP address."""
        return f"http://127.0.0.1:{self.port}"

    def log_text(self) -> str:
        """Everything it logged so far."""
        self.log.flush()
        self.log.seek(0)
        return self.log.read().decode(errors="replace")


class Cluster:
    """``size`` server processes on ``database_url``, started one after the other (with the
    ``splash serve`` options ``extra`` besides their own).  Process ``n`` may reach the
    database at ``urls[n]`` instead (through a proxy), with the environment ``envs[n]``
    added."""

    def __init__(
        self,
        database_url: str,
        size: int,
        *,
        log_level: str = "info",
        extra: Sequence[str] = (),
        cluster: bool = True,
        urls: Sequence[str] | None = None,
        envs: Mapping[int, Mapping[str, str]] | None = None,
    ) -> None:
        self.database_url = database_url
        self.size = size
        self.cluster = cluster
        self.log_level = log_level
        self.extra = list(extra)
        self.urls = list(urls) if urls is not None else [database_url] * size
        self.envs = dict(envs or {})
        self.processes: list[ServerProcess] = []
        self.retired: list[ServerProcess] = []
        """Processes that :meth:`restart` replaced."""

    def start(self) -> None:
        """Start every process and wait until each answers its readiness route."""
        for number in range(self.size):
            member = self.launch(number, free_port())
            self.processes.append(member)
            self._wait_ready(member)

    def launch(self, number: int, port: int, env: Mapping[str, str] | None = None) -> ServerProcess:
        """Start process ``number`` (instance ``drill-N``) on ``port``, with ``env`` added
        (by default ``envs[number]``), without waiting for it."""
        instance = f"drill-{number}"
        command = [
            sys.executable,
            "-c",
            "from splash.cli.main import main; main()",
            "serve",
            "--db",
            self.urls[number],
            "--port",
            str(port),
            *(["--cluster", "--instance", instance] if self.cluster else []),
            "--room-creations-per-minute",
            "100000",
            "--log-level",
            self.log_level,
            *self.extra,
        ]
        log = tempfile.TemporaryFile()  # noqa: SIM115 (closed in close)
        # Appended to, whatever the offset that reading the log (log_text) leaves.
        fcntl.fcntl(
            log.fileno(), fcntl.F_SETFL, fcntl.fcntl(log.fileno(), fcntl.F_GETFL) | os.O_APPEND
        )
        added = self.envs.get(number, {}) if env is None else env
        environ = {**os.environ, "PYTHONUNBUFFERED": "1", **added}
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=environ)
        return ServerProcess(instance, port, process, log)

    def restart(self, member: ServerProcess, env: Mapping[str, str] | None = None) -> ServerProcess:
        """Start ``member`` (stopped or killed) again under its name and port, with ``env``
        added, once it answers its readiness route; it replaces ``member`` in
        :attr:`processes`, whose log stays readable until :meth:`close`."""
        number = self.processes.index(member)
        fresh = self.launch(number, member.port, env)
        self.processes[number] = fresh
        self.retired.append(member)
        self._wait_ready(fresh)
        return fresh

    @staticmethod
    def _wait_ready(member: ServerProcess) -> None:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{member.base}/api/health/ready").status_code == 200:
                    return
            except httpx.TransportError:
                pass
            if member.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{member.instance} did not start:\n{member.log_text()}")
            time.sleep(0.1)

    def live(self) -> list[ServerProcess]:
        """The processes not killed."""
        return [p for p in self.processes if p.alive]

    def route(self, room_id: str) -> ServerProcess:
        """The process a consistent-hash proxy sends ``room_id``'s requests to: the live one
        of highest hash of (process, room)."""

        def weight(member: ServerProcess) -> bytes:
            return hashlib.sha256(f"{member.instance}/{room_id}".encode()).digest()

        return max(self.live(), key=weight)

    def kill(self, member: ServerProcess) -> None:
        """SIGKILL ``member``; the proxy stops sending it anything."""
        member.alive = False
        member.process.send_signal(signal.SIGKILL)
        member.process.wait()

    def stop(self) -> None:
        """Stop the processes still running (SIGTERM, then SIGKILL)."""
        every = [*self.processes, *self.retired]
        for member in every:
            if member.process.poll() is None:
                member.process.terminate()
        for member in every:
            try:
                member.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                member.process.kill()
                member.process.wait()

    def close(self) -> None:
        """Stop the processes and drop their logs."""
        self.stop()
        for member in [*self.processes, *self.retired]:
            member.log.close()


@dataclass
class RoomPlay:
    """What the client of one room saw."""

    room: str
    token: str
    acked: dict[int, Json] = field(default_factory=dict)
    """The actions acknowledged, by index."""
    ack_times: list[tuple[float, int]] = field(default_factory=list)
    """(monotonic time, index) of each acknowledgement."""
    moved: int = 0
    """``moved`` messages (or 4409 closes) received."""
    reconnects: int = 0
    over: bool = False


async def play_room(
    cluster: Cluster, play: RoomPlay, *, seed: int, until: float, think: tuple[float, float]
) -> None:
    """Play seat 0 of ``play.room`` until the game ends or the monotonic time ``until``,
    reconnecting through :meth:`Cluster.route` whenever the connection ends."""
    rng = np.random.default_rng(seed)
    while time.monotonic() < until and not play.over:
        target = cluster.route(play.room)
        url = f"ws://127.0.0.1:{target.port}/ws/rooms/{play.room}"
        try:
            async with connect(url, max_size=None, open_timeout=5) as ws:
                await _converse(ws, play, rng, until, think)
        except (ConnectionClosed, OSError, InvalidStatus, TimeoutError) as error:
            if isinstance(error, ConnectionClosed) and error.rcvd and error.rcvd.code == 4409:
                play.moved += 1
        if not play.over:
            play.reconnects += 1
            await asyncio.sleep(0.2)


async def _converse(
    ws: Any, play: RoomPlay, rng: np.random.Generator, until: float, think: tuple[float, float]
) -> None:
    await ws.send(json.dumps({"format": WS_FORMAT, "type": "join", "token": play.token}))
    sent: dict[int, Json] = {}
    acted = -1
    while time.monotonic() < until:
        try:
            raw = await asyncio.wait_for(ws.recv(), timeout=max(0.05, until - time.monotonic()))
        except TimeoutError:
            return
        doc = json.loads(raw)
        kind = doc["type"]
        if kind == "moved":
            play.moved += 1
            return
        if kind == "ack":
            index = int(doc["index"])
            if index in sent:
                play.acked[index] = sent[index]
                play.ack_times.append((time.monotonic(), index))
            continue
        if kind == "error":
            acted = -1
            await ws.send(json.dumps({"format": WS_FORMAT, "type": "sync"}))
            continue
        if doc.get("status") == "over":
            play.over = True
            return
        view = doc.get("view")
        if not view or view["to_act"] != 0 or not view["legal_actions"]:
            continue
        index = doc["index"] + (1 if kind == "update" else 0)
        if index <= acted:
            continue
        await asyncio.sleep(float(rng.uniform(*think)))
        legal = view["legal_actions"]
        action = legal[int(rng.integers(len(legal)))]
        sent[index], acted = action, index
        await ws.send(
            json.dumps({"format": WS_FORMAT, "type": "act", "action": action, "expect": index})
        )


async def open_rooms(
    cluster: Cluster, count: int, settings: Sequence[str] = DRILL_SETTINGS
) -> list[RoomPlay]:
    """``count`` Splash & Bash rooms of ``settings`` (seat 0 a person, seat 1 the ``random``
    bot), created through the processes in turn, with the person's token."""
    plays = []
    async with httpx.AsyncClient(timeout=30) as http:
        for number in range(count):
            member = cluster.live()[number % len(cluster.live())]
            body = {"game": "bash", "settings": list(settings), "bots": [None, "random"]}
            created = await http.post(f"{member.base}/api/rooms", json=body)
            created.raise_for_status()
            room = str(created.json()["room"]["id"])
            seat = await http.post(f"{member.base}/api/rooms/{room}/seats/0", json={"name": "p"})
            seat.raise_for_status()
            plays.append(RoomPlay(room, str(seat.json()["token"])))
    return plays


@dataclass(frozen=True)
class DrillReport:
    """The outcome of :func:`run_drill`."""

    rooms: int
    """Rooms the killed process owned at the kill (still in play)."""
    continued: int
    """Of those, the rooms that acknowledged an action after the kill (or ended)."""
    lost_acks: int
    """Acknowledged actions (of every room) that the database lacks."""
    takeover_s: float
    """The slowest take-over: from the kill to the room's first acknowledgement after it."""
    double_owner: int
    """Action indices that two processes committed."""
    total_rooms: int
    acks: int
    moved: int

    def line(self) -> str:
        """The bench's last line."""
        return (
            f"rooms={self.rooms} continued={self.continued} lost_acks={self.lost_acks} "
            f"takeover_s={self.takeover_s:.1f} double_owner={self.double_owner}"
        )


def owners(database_url: str) -> dict[str, str]:
    """The owner of each room's lease, as stored."""
    engine = storage.make_engine(database_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(storage.room_leases.select()).fetchall()
    finally:
        engine.dispose()
    return {str(row.room_id): str(row.owner) for row in rows}


def stored_actions(database_url: str, rooms: Sequence[str]) -> dict[str, list[storage.ActionRow]]:
    """Each room's stored log."""
    engine = storage.make_engine(database_url)
    try:
        return {room: storage.load_actions(engine=engine, room_id=room) for room in rooms}
    finally:
        engine.dispose()


def double_commits(cluster: Cluster) -> int:
    """(room, index) pairs that more than one process logged as committed."""
    seen: dict[tuple[str, int], str] = {}
    doubles = 0
    for member in cluster.processes:
        for match in _COMMITTED.finditer(member.log_text()):
            key = (match.group(1), int(match.group(2)))
            first = seen.setdefault(key, member.instance)
            if first != member.instance:
                doubles += 1
    return doubles


async def run_drill(
    cluster: Cluster,
    rooms: int,
    *,
    seed: int,
    kill_after: float,
    after_kill: float,
    think: tuple[float, float] = (0.05, 0.15),
    victim: int | None = None,
    settings: Sequence[str] = DRILL_SETTINGS,
) -> DrillReport:
    """Open ``rooms`` rooms, play them, SIGKILL process number ``victim`` (by default the
    one that owns most rooms) after ``kill_after`` seconds, play ``after_kill`` seconds
    more, and report."""
    plays = await open_rooms(cluster, rooms, settings)
    start = time.monotonic()
    until = start + kill_after + after_kill
    tasks = [
        asyncio.create_task(play_room(cluster, play, seed=seed + i, until=until, think=think))
        for i, play in enumerate(plays)
    ]
    await asyncio.sleep(kill_after)
    held = await asyncio.to_thread(owners, cluster.database_url)
    by_owner: dict[str, int] = {}
    for play in plays:
        if not play.over and play.room in held:
            by_owner[held[play.room]] = by_owner.get(held[play.room], 0) + 1
    if victim is None:
        chosen = max(cluster.live(), key=lambda p: (by_owner.get(p.instance, 0), p.instance))
    else:
        chosen = cluster.processes[victim]
    killed_at = time.monotonic()
    cluster.kill(chosen)
    victims = [p for p in plays if held.get(p.room) == chosen.instance and not p.over]
    await asyncio.gather(*tasks)
    takeovers = []
    for play in victims:
        after = [t for t, _ in play.ack_times if t > killed_at]
        if after:
            takeovers.append(after[0] - killed_at)
    continued = len(takeovers) + sum(1 for p in victims if p.over and not p.ack_times)
    logs = await asyncio.to_thread(stored_actions, cluster.database_url, [p.room for p in plays])
    lost = 0
    for play in plays:
        stored = {row.index: row.action for row in logs[play.room]}
        lost += sum(1 for index, action in play.acked.items() if stored.get(index) != action)
    return DrillReport(
        rooms=len(victims),
        continued=continued,
        lost_acks=lost,
        takeover_s=max(takeovers, default=0.0),
        double_owner=double_commits(cluster),
        total_rooms=len(plays),
        acks=sum(len(p.acked) for p in plays),
        moved=sum(p.moved for p in plays),
    )


@contextlib.contextmanager
def scratch_database(admin_url: str) -> Iterator[str]:
    """A new, empty PostgreSQL database made through ``admin_url`` (a role that may create
    databases), dropped at the end: its URL."""
    admin = make_url(admin_url)
    name = f"splash_scratch_{uuid.uuid4().hex[:12]}"
    engine = create_engine(admin, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        try:
            yield admin.set(database=name).render_as_string(hide_password=False)
        finally:
            _drop(engine, name)
    finally:
        engine.dispose()


def _drop(engine: Engine, name: str, attempts: int = 20) -> None:
    """Drop the database ``name``, its sessions ended; an autovacuum worker in it may be
    beyond this role's reach (without ``pg_signal_backend``): then wait for it to finish."""
    for attempt in range(attempts):
        try:
            with engine.connect() as conn:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            return
        except DBAPIError:
            if attempt == attempts - 1:
                raise
            time.sleep(0.25)


@contextlib.contextmanager
def cluster_of(
    database_url: str,
    size: int,
    *,
    log_level: str = "info",
    extra: Sequence[str] = (),
    cluster: bool = True,
    urls: Sequence[str] | None = None,
    envs: Mapping[int, Mapping[str, str]] | None = None,
) -> Iterator[Cluster]:
    """A started :class:`Cluster`, stopped at the end (``cluster=False``: processes that
    are not in cluster mode, for one process on an SQLite store)."""
    started = Cluster(
        database_url,
        size,
        log_level=log_level,
        extra=extra,
        cluster=cluster,
        urls=urls,
        envs=envs,
    )
    try:
        started.start()
        yield started
    finally:
        started.close()


__all__ = [
    "CLIENT_JS",
    "DRILL_SETTINGS",
    "Cluster",
    "DrillReport",
    "Heartbeat",
    "RoomPlay",
    "ServerProcess",
    "cluster_of",
    "double_commits",
    "free_port",
    "open_rooms",
    "owners",
    "play_room",
    "run_drill",
    "scratch_database",
    "stored_actions",
]
