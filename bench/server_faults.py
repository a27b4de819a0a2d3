"""Faults of the play server's cluster, through the documented proxy: three ``splash serve
--cluster`` processes on a PostgreSQL server of the bench's own, behind Debian's nginx
configured with the nginx block of docs/server.md ("Several processes": only its listen port
and its three upstream ports replaced), and page-like clients.

Each of ``--rooms`` clients plays seat 0 of a short Splash & Bash game against the
``random`` bot (think time 100-300 ms) through nginx, and opens a new room through nginx
when its game ends.  It keeps the page's heartbeat, read from the page's own constants
(``web/static/js/client.js``): a ``ping`` every ``PING_EVERY_MS`` from the join on, the
socket given up ``PONG_WITHIN_MS`` after a ping left unanswered, a new try ``MOVED_RETRY_MS`` after a close
4409, otherwise after ``BACKOFF_MS``.

Process 0 reaches the database through a loopback proxy that can blackhole
(``tests/server/blackhole.py``); process 1 starts with the writer's fault hook
(``SPLASH_FAULT_WRITER_STALL``).  The faults, in turn, each after at least 15 s of play:

- **b**: process 1's writer stalls right after its fence (its N-th fenced transaction,
  ``--stall-after``), and the whole process is stopped (SIGSTOP) for 12 s, then killed and
  started again without the hook;
- **a**: one process (1 or 2, whichever serves more rooms) stopped for 3, 8 and 20 s, each
  at a random moment;
- **c**: PostgreSQL stopped for 5 s (SIGSTOP of every process of its server);
- **d**: PostgreSQL restarted (``pg_ctl restart -m fast``);
- **e**: process 0's database connections blackholed for 20 s, its clients still reaching it;
- **f**: the process that serves most rooms killed with SIGKILL.

Before them, one process is stopped for 1 s, to count the sockets that a 1-s stall costs
(the heartbeat's false drops); that is no fault.  Per fault it reports:

- ``lost_acks``: acknowledged actions missing from the database (goal 0);
- ``double_commits``: action indices that two processes logged as committed (goal 0);
- ``double_takeovers``: a room logged ``taken over`` by a second process less than a
  lease (5 s) after another, with no ``handed over`` between (goal 0);
- ``healthy_ratio``: for a fault of one process, the acknowledgements per second of the
  rooms the other processes served when it began, during the fault (the pause, the stall's
  12 s, the cut's 20 s, the 10 s after the kill), over the same rooms' rate in the 10 s
  before (goal >= 0.8);
- ``resume_s``: from the fault's start (a database fault's end) to the slowest room's next
  acknowledgement (goal <= 10);
- ``unacked_commits``: actions a client sent that were stored but never acknowledged.

Acknowledgements, commits and take-overs count for the fault during or after which they
happened, until the next one.  It needs root (to run PostgreSQL's programs as ``postgres``
and to stop its processes), PostgreSQL's server programs and nginx (``make system-deps``);
it never touches another PostgreSQL server.  It takes about 6 minutes.  The last line is
exactly

    faults=F lost_acks=L double_commits=D double_takeovers=O min_healthy_ratio=H max_resume_s=R

    .venv/bin/python bench/server_faults.py
    .venv/bin/python bench/server_faults.py --faults b,e --rooms 21 --seed 3
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import httpx
import numpy as np
from rich.console import Console
from rich.table import Table
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from splash.core.actions import Json
from splash.server.leases import LEASE_S
from splash.server.protocol import WS_FORMAT
from splash.server.writer import STALL_ENV, STALL_LINE

# The drill lives with the tests that run it: this checkout's tests package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.server.blackhole import BlackholeProxy
from tests.server.drill import (
    CLIENT_JS,
    DRILL_SETTINGS,
    Cluster,
    Heartbeat,
    RoomPlay,
    ServerProcess,
    cluster_of,
    owners,
    stored_actions,
)
from tests.server.nginx import SERVER_DOC, nginx, nginx_block, nginx_program
from tests.server.process import free_port

ROOT = Path(__file__).resolve().parent.parent
FAULTS = ("b", "a3", "a8", "a20", "c", "d", "e", "f")
"""Every fault, in the order they run."""
SETTLE_S = 15.0
"""Play before each fault, after the last one ended: the 10 s of the healthy ratio's base,
and the recovery of the last."""
BEFORE_S = 10.0
"""The healthy ratio's base: the rate of the 10 s before a fault."""
KILLED_S = 10.0
"""How long a kill counts as the fault, for the healthy ratio."""
STALL_STOP_S = 12.0
THINK = (0.1, 0.3)
FATAL_CLOSE = frozenset({4400, 4401, 4404, 4410})
MOVED = 4409
OPEN_TIMEOUT_S = 60.0
"""A page waits for its socket as long as the proxy makes it; this only ends the drill's
wait on a proxy that never answers."""
_COMMITTED = re.compile(r"^room (\w+): action (\d+) \(")
_TAKEN = re.compile(r"^room (\w+): taken over$")
_HANDED = re.compile(r"^room (\w+): handed over")


# ----- what the bench reads from the page and the docs ----------------------------------------


# ----- the machinery: PostgreSQL, nginx -------------------------------------------------------


def as_postgres(*command: str) -> None:
    """Run ``command`` as the ``postgres`` user."""
    subprocess.run(
        ["runuser", "-u", "postgres", "--", *command], check=True, capture_output=True, timeout=120
    )


def postgres_bin() -> Path:
    """The folder of the newest PostgreSQL server programs installed."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"), key=lambda p: p.parts[-3])
    if not found:
        sys.exit("server_faults.py needs PostgreSQL's server (make system-deps)")
    return found[-1].parent


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append(int(entry.name))
    return found


class ScratchPostgres:
    """A PostgreSQL server of the bench's own (``initdb`` in a temporary folder, a free
    port of 127.0.0.1), that the bench may stop, continue and restart."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="splash-faults-pg-"))
        self.data = self.folder / "data"
        self.port = free_port()
        self.bin = postgres_bin()
        self.stopped: list[int] = []

    @property
    def url(self) -> str:
        """The URL of its database ``splash``."""
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/splash"

    def start(self) -> None:
        """Create the server and its database ``splash``, and start it."""
        shutil.chown(self.folder, "postgres", "postgres")
        as_postgres(str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres")
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1"
        as_postgres(
            str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.folder / "server.log"),
            "-w", "-o", options, "start",
        )  # fmt: skip
        as_postgres(
            str(self.bin / "psql"), "-h", "127.0.0.1", "-p", str(self.port), "-XqAt",
            "-c", "CREATE DATABASE splash",
        )  # fmt: skip

    def pause(self) -> None:
        """Stop (SIGSTOP) every process of the server, its postmaster last."""
        postmaster = int((self.data / "postmaster.pid").read_text().split()[0])
        self.stopped = [*children(postmaster), postmaster]
        for pid in self.stopped:
            with contextlib.suppress(ProcessLookupError):  # a session that just ended
                os.kill(pid, signal.SIGSTOP)

    def resume(self) -> None:
        """Continue (SIGCONT) what :meth:`pause` stopped, its postmaster first."""
        for pid in reversed(self.stopped):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)
        self.stopped = []

    def restart(self) -> None:
        """Restart the server (its sessions ended), once it accepts connections again."""
        as_postgres(
            str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.folder / "server.log"),
            "-w", "-m", "fast", "restart",
        )  # fmt: skip

    def close(self) -> None:
        """Stop the server and remove its files."""
        self.resume()
        with contextlib.suppress(subprocess.CalledProcessError):
            as_postgres(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)


@contextlib.contextmanager
def scratch_postgres() -> Iterator[ScratchPostgres]:
    """A started :class:`ScratchPostgres`, removed at the end."""
    server = ScratchPostgres()
    try:
        server.start()
        yield server
    finally:
        server.close()


class RemoteBlackhole:
    """A :class:`~tests.server.blackhole.BlackholeProxy` in a process of its own, so that
    the pages' clients never hold up the database traffic it forwards."""

    def __init__(self, host: str, port: int) -> None:
        context = multiprocessing.get_context("spawn")
        self._commands, theirs = context.Pipe()
        self._process = context.Process(target=_blackhole, args=(host, port, theirs), daemon=True)
        self._process.start()
        self.port = int(self._commands.recv())

    def blackhole(self) -> None:
        """Stop forwarding, in both directions, without closing anything."""
        self._commands.send("blackhole")

    def restore(self) -> None:
        """Forward again."""
        self._commands.send("restore")

    def close(self) -> None:
        """Close every connection and stop."""
        self._commands.send("close")
        self._process.join(timeout=20)


def _blackhole(host: str, port: int, commands: Connection) -> None:
    with BlackholeProxy(host, port) as proxy:
        commands.send(proxy.port)
        while (command := commands.recv()) != "close":
            getattr(proxy, command)()


@contextlib.contextmanager
def remote_blackhole(host: str, port: int) -> Iterator[RemoteBlackhole]:
    """A started :class:`RemoteBlackhole` in front of ``host:port``, closed at the end."""
    proxy = RemoteBlackhole(host, port)
    try:
        yield proxy
    finally:
        proxy.close()


# ----- page-like clients ----------------------------------------------------------------------


@dataclass
class PagePlay(RoomPlay):
    """What the page of one room saw, with what it sent and when its sockets ended."""

    created: float = 0.0
    ended: float | None = None
    sent: dict[int, tuple[Json, float]] = field(default_factory=dict)
    """The last action sent for each index, and when."""
    errors: list[tuple[float, str]] = field(default_factory=list)
    """(time, code) of each ``error`` message."""
    losses: list[tuple[float, str]] = field(default_factory=list)
    """(time, how) of each socket that ended: ``drop`` (no pong in time), ``moved``,
    ``refused`` (the upgrade answered otherwise), ``closed N``."""


async def new_room(http: httpx.AsyncClient, stop: asyncio.Event) -> PagePlay | None:
    """A room made through the proxy, as the lobby makes one, with seat 0's token; tried
    again after 1 s while the proxy or the server refuses (``None`` once ``stop`` is set)."""
    body = {"game": "bash", "settings": list(DRILL_SETTINGS), "bots": [None, "random"]}
    while not stop.is_set():
        try:
            created = await http.post("/api/rooms", json=body)
            created.raise_for_status()
            room = str(created.json()["room"]["id"])
            seat = await http.post(f"/api/rooms/{room}/seats/0", json={"name": "p"})
            seat.raise_for_status()
            return PagePlay(room, str(seat.json()["token"]), created=time.monotonic())
        except (httpx.HTTPError, KeyError, ValueError):
            await asyncio.sleep(1.0)
    return None


class Page:
    """A page's connection to one room (``client.js``'s ``Connection``): it plays seat 0."""

    def __init__(
        self, proxy: int, play: PagePlay, beat: Heartbeat, rng: np.random.Generator
    ) -> None:
        self.url = f"ws://127.0.0.1:{proxy}/ws/rooms/{play.room}?lang=en"
        self.play = play
        self.beat = beat
        self.rng = rng

    def jitter(self, delay: float) -> float:
        """``delay`` spread by +-20 %, as the page spreads its retries."""
        return delay * float(self.rng.uniform(0.8, 1.2))

    async def run(self, stop: asyncio.Event) -> None:
        """Connect, play and reconnect until the game ends or ``stop`` is set."""
        attempt = moves = 0
        while not self.play.over and not stop.is_set():
            code, welcomed = await self.connect_once(stop)
            if welcomed:
                attempt = moves = 0
            if self.play.over or stop.is_set() or code in FATAL_CLOSE:
                return
            moves = moves + 1 if code == MOVED else 0
            if code == MOVED and moves <= 10:
                delay = self.jitter(self.beat.moved_retry)
            else:
                delay = self.jitter(self.beat.backoff[min(attempt, len(self.beat.backoff) - 1)])
                attempt += 1
            self.play.reconnects += 1
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), delay)

    async def connect_once(self, stop: asyncio.Event) -> tuple[int | None, bool]:
        """One socket, until it ends: its close code (``None`` when lost without one) and
        whether it was welcomed."""
        try:
            async with connect(
                self.url, max_size=None, open_timeout=OPEN_TIMEOUT_S, ping_interval=None
            ) as ws:
                join = {"format": WS_FORMAT, "type": "join", "token": self.play.token}
                await ws.send(json.dumps(join))
                return await self.converse(ws, stop)
        except ConnectionClosed as closed:  # while sending
            code = closed.rcvd.code if closed.rcvd is not None else None
            self.play.losses.append(
                (time.monotonic(), "moved" if code == MOVED else f"closed {code}")
            )
            return code, False
        except (InvalidStatus, OSError, TimeoutError):
            self.play.losses.append((time.monotonic(), "refused"))
        return None, False

    async def converse(self, ws: ClientConnection, stop: asyncio.Event) -> tuple[int | None, bool]:
        """Exchange messages on ``ws``: acts when seat 0 is to act (after a think time),
        pings as the page does, gives the socket up when a pong is late."""
        play, beat = self.play, self.beat
        welcomed = False
        next_ping = time.monotonic() + beat.ping_every  # from the join on
        deadline: float | None = None
        due: tuple[float, int, list[Json]] | None = None  # when, index, legal actions
        acted = -1
        while True:
            now = time.monotonic()
            timers = [t for t in (deadline, due[0] if due else None) if t is not None]
            wake = min([now + 0.5, next_ping, *timers])
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.0, wake - now))
            except TimeoutError:
                now = time.monotonic()
                if stop.is_set():
                    ws.transport.abort()
                    return None, welcomed
                if deadline is not None and now >= deadline:
                    play.losses.append((now, "drop"))
                    ws.transport.abort()
                    return None, welcomed
                if now >= next_ping:
                    next_ping = now + beat.ping_every
                    deadline = deadline or now + beat.pong_within
                    await ws.send(json.dumps({"format": WS_FORMAT, "type": "ping"}))
                if due is not None and now >= due[0]:
                    _, index, legal = due
                    action = legal[int(self.rng.integers(len(legal)))]
                    play.sent[index] = (action, now)
                    acted, due = index, None
                    act = {"format": WS_FORMAT, "type": "act", "action": action, "expect": index}
                    await ws.send(json.dumps(act))
                continue
            except ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd is not None else None
                play.losses.append(
                    (time.monotonic(), "moved" if code == MOVED else f"closed {code}")
                )
                return code, welcomed
            doc = json.loads(raw)
            kind = doc["type"]
            if kind == "pong":
                deadline = None
            elif kind == "moved":
                play.moved += 1
            elif kind == "ack":
                index = int(doc["index"])
                if index in play.sent:
                    play.acked[index] = play.sent[index][0]
                    play.ack_times.append((time.monotonic(), index))
            elif kind == "error":
                play.errors.append((time.monotonic(), str(doc.get("code"))))
                acted, due = -1, None
                await ws.send(json.dumps({"format": WS_FORMAT, "type": "sync"}))
            welcomed = welcomed or kind == "welcome"
            if doc.get("status") == "over":
                play.over, play.ended = True, time.monotonic()
                ws.transport.abort()
                return None, welcomed
            view = doc.get("view")
            if kind in ("welcome", "state", "update") and view:
                index = doc["index"] + (1 if kind == "update" else 0)
                if view["to_act"] != 0 or not view["legal_actions"]:
                    due = None
                elif index > acted and (due is None or due[1] != index):
                    due = (
                        time.monotonic() + float(self.rng.uniform(*THINK)),
                        index,
                        view["legal_actions"],
                    )


async def page_slot(
    proxy: int, beat: Heartbeat, seed: int, plays: list[PagePlay], stop: asyncio.Event
) -> None:
    """One player: a room made through the proxy and played to its end, then the next."""
    rng = np.random.default_rng(seed)
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{proxy}", timeout=30) as http:
        while (play := await new_room(http, stop)) is not None:
            plays.append(play)
            await Page(proxy, play, beat, rng).run(stop)


# ----- the faults -----------------------------------------------------------------------------


@dataclass
class Fault:
    """One fault as it ran (times are monotonic)."""

    name: str
    what: str
    start: float
    end: float
    database: bool
    victim: str | None
    victims: frozenset[str]
    """The rooms in play the victim served when it began."""
    others: frozenset[str]
    """The rooms in play the other processes served when it began."""

    @property
    def reference(self) -> float:
        """Where ``resume_s`` counts from: the start, or a database fault's end."""
        return self.end if self.database else self.start


@dataclass
class Drill:
    """The faults, one after the other, on a running cluster behind nginx."""

    cluster: Cluster
    database: ScratchPostgres
    proxy: RemoteBlackhole
    plays: Sequence[PagePlay]
    rng: np.random.Generator
    faults: list[Fault] = field(default_factory=list)
    calm_since: float = field(default_factory=time.monotonic)
    """When the last fault ended."""
    probe: str = ""
    """What the 1-s stop cost."""

    def say(self, line: str) -> None:
        """A line of progress."""
        print(
            f"[{time.monotonic() - self.calm_since:5.1f} s after the last fault] {line}", flush=True
        )

    async def settle(self) -> None:
        """Play until :data:`SETTLE_S` (and a random 0-5 s more) after the last fault ended."""
        until = self.calm_since + SETTLE_S + float(self.rng.uniform(0.0, 5.0))
        await asyncio.sleep(max(0.0, until - time.monotonic()))

    async def owners_now(self) -> dict[str, str]:
        """The owner of each room in play, as stored."""
        held = await asyncio.to_thread(owners, self.database.url)
        return {p.room: held[p.room] for p in self.plays if not p.over and p.room in held}

    def busiest(self, held: Mapping[str, str], among: Sequence[ServerProcess]) -> ServerProcess:
        """The process of ``among`` that serves most rooms."""
        count: dict[str, int] = defaultdict(int)
        for owner in held.values():
            count[owner] += 1
        return max(among, key=lambda p: (count[p.instance], p.instance))

    def begin(
        self, name: str, what: str, held: Mapping[str, str], victim: ServerProcess | None
    ) -> Fault:
        """Record that the fault ``name`` begins now."""
        mine = frozenset(r for r, o in held.items() if victim is not None and o == victim.instance)
        fault = Fault(
            name,
            what,
            time.monotonic(),
            time.monotonic(),
            database=victim is None,
            victim=victim.instance if victim is not None else None,
            victims=mine,
            others=frozenset(held) - mine,
        )
        self.faults.append(fault)
        shown = f" of {victim.instance} ({len(mine)} of {len(held)} rooms)" if victim else ""
        self.say(f"{name}: {what}{shown}")
        return fault

    def end(self, fault: Fault, at: float | None = None) -> None:
        """Record the end of ``fault``."""
        fault.end = time.monotonic() if at is None else at
        self.calm_since = fault.end

    @staticmethod
    def signal(member: ServerProcess | None, number: signal.Signals) -> None:
        """Send ``member`` the signal ``number``."""
        assert member is not None
        os.kill(member.process.pid, number)

    async def stalled_writer(self) -> None:
        """(b) process 1's writer stalls after its fence (whenever its fenced transactions
        reach the hook's count); at once the process is stopped for 12 s, then killed and
        started again without the fault hook."""
        member = self.cluster.processes[1]
        await wait_for_line(member, STALL_LINE)
        self.signal(member, signal.SIGSTOP)
        fault = self.begin("b", "writer stalled after its fence, process stopped 12 s",
                           await self.owners_now(), member)  # fmt: skip
        await asyncio.sleep(STALL_STOP_S)
        self.end(fault)
        await asyncio.to_thread(self.cluster.kill, member)
        await asyncio.to_thread(self.cluster.restart, member, {})

    async def short_stall(self) -> None:
        """One process stopped for 1 s: the sockets that costs (no fault)."""
        await self.settle()
        member = self.cluster.processes[2]
        pages = sum(1 for p in self.plays if not p.over)
        start = time.monotonic()
        self.signal(member, signal.SIGSTOP)
        await asyncio.sleep(1.0)
        self.signal(member, signal.SIGCONT)
        await asyncio.sleep(6.0)
        lost = [how for p in self.plays for at, how in p.losses if start <= at < start + 6.0]
        drops = sum(1 for how in lost if how == "drop")
        self.probe = (
            f"a 1-s stop of {member.instance}: {drops} sockets of {pages} pages dropped for a"
            f" late pong, {len(lost) - drops} ended otherwise"
        )
        self.say(self.probe)
        self.calm_since = start + 1.0

    async def hold(
        self,
        name: str,
        what: str,
        seconds: float,
        *,
        choose: Callable[[Mapping[str, str]], ServerProcess | None],
        begin: Callable[[ServerProcess | None], object],
        end: Callable[[ServerProcess | None], object] = lambda _: None,
    ) -> None:
        """After :meth:`settle`: the fault ``name`` on the process ``choose`` picks from the
        rooms' owners (``None``: the database), from ``begin`` to ``end``, ``seconds``
        apart."""
        await self.settle()
        held = await self.owners_now()
        member = choose(held)
        begin(member)
        fault = self.begin(name, what, held, member)
        await asyncio.sleep(seconds)
        end(member)
        self.end(fault)

    async def paused(self, seconds: float) -> None:
        """(a) process 1 or 2, whichever serves more rooms, stopped for ``seconds``."""
        await self.hold(
            f"a {seconds:g} s",
            f"process stopped {seconds:g} s",
            seconds,
            choose=lambda held: self.busiest(held, self.cluster.processes[1:]),
            begin=lambda member: self.signal(member, signal.SIGSTOP),
            end=lambda member: self.signal(member, signal.SIGCONT),
        )

    async def database_paused(self) -> None:
        """(c) PostgreSQL stopped for 5 s."""
        await self.hold(
            "c",
            "PostgreSQL stopped 5 s",
            5.0,
            choose=lambda _: None,
            begin=lambda _: self.database.pause(),
            end=lambda _: self.database.resume(),
        )

    async def database_restarted(self) -> None:
        """(d) PostgreSQL restarted."""
        await self.settle()
        fault = self.begin("d", "PostgreSQL restarted", await self.owners_now(), None)
        await asyncio.to_thread(self.database.restart)
        self.end(fault)

    async def cut_off(self) -> None:
        """(e) process 0's database connections blackholed for 20 s."""
        await self.hold(
            "e",
            "database connections blackholed 20 s",
            20.0,
            choose=lambda _: self.cluster.processes[0],
            begin=lambda _: self.proxy.blackhole(),
            end=lambda _: self.proxy.restore(),
        )

    async def killed(self) -> None:
        """(f) the process that serves most rooms killed with SIGKILL."""

        def kill(member: ServerProcess | None) -> None:
            assert member is not None
            self.cluster.kill(member)

        await self.hold(
            "f",
            "process killed (SIGKILL)",
            KILLED_S,
            choose=lambda held: self.busiest(held, self.cluster.live()),
            begin=kill,
        )


async def wait_for_line(member: ServerProcess, line: str, timeout: float = 600.0) -> None:
    """Until ``member`` logged ``line``, reading only what it wrote since the last look."""
    seen, tail = 0, b""
    deadline = time.monotonic() + timeout
    needle = line.encode()
    while time.monotonic() < deadline:
        member.log.seek(seen)
        chunk = member.log.read()
        seen += len(chunk)
        if needle in tail + chunk:
            return
        tail = chunk[-len(needle) :]
        await asyncio.sleep(0.05)
    raise RuntimeError(f"{member.instance} never logged {line!r}")


# ----- what the faults cost -------------------------------------------------------------------


@dataclass(frozen=True)
class LogEvent:
    """A line of a process's JSON log: when (monotonic), which process, what."""

    at: float
    member: int
    event: str


def log_events(members: Sequence[ServerProcess], offset: float) -> list[LogEvent]:
    """Every line of the members' JSON logs, ``offset`` taken from their wall-clock times."""
    events = []
    for number, member in enumerate(members):
        for line in member.log_text().splitlines():
            if not line.startswith("{"):
                continue
            try:
                doc = json.loads(line)
                at = datetime.fromisoformat(doc["time"]).timestamp() - offset
            except (ValueError, KeyError):
                continue
            events.append(LogEvent(at, number, str(doc.get("event", ""))))
    return sorted(events, key=lambda e: e.at)


def double_commit_times(events: Sequence[LogEvent]) -> list[float]:
    """When an action index was logged as committed by a second process."""
    first: dict[tuple[str, int], int] = {}
    counted: set[tuple[str, int]] = set()
    doubles = []
    for event in events:
        found = _COMMITTED.match(event.event)
        if found is None:
            continue
        key = (found.group(1), int(found.group(2)))
        if first.setdefault(key, event.member) != event.member and key not in counted:
            doubles.append(event.at)
            counted.add(key)
    return doubles


def double_takeover_times(events: Sequence[LogEvent]) -> list[float]:
    """When a room was taken over by a second process less than a lease after another, with
    no hand-over between."""
    last: dict[str, LogEvent] = {}
    handed: dict[str, list[LogEvent]] = defaultdict(list)
    doubles = []
    for event in events:
        if (found := _HANDED.match(event.event)) is not None:
            handed[found.group(1)].append(event)
            continue
        if (found := _TAKEN.match(event.event)) is None:
            continue
        room = found.group(1)
        before = last.get(room)
        if (
            before is not None
            and before.member != event.member
            and event.at - before.at < LEASE_S
            and not any(h.member == before.member and h.at >= before.at for h in handed[room])
        ):
            doubles.append(event.at)
        last[room] = event
    return doubles


@dataclass(frozen=True)
class FaultReport:
    """What one fault cost."""

    fault: Fault
    lost_acks: int
    double_commits: int
    double_takeovers: int
    healthy_ratio: float | None
    resume_s: float
    unacked_commits: int
    drops: int
    moved: int


def gaps(stored: Mapping[str, Sequence[Any]]) -> int:
    """Indices missing from the rooms' stored logs (each numbered 0, 1, 2, ...)."""
    missing = 0
    for rows in stored.values():
        indices = {row.index for row in rows}
        missing += (max(indices) + 1 - len(indices)) if indices else 0
    return missing


def window(faults: Sequence[Fault], number: int) -> tuple[float, float]:
    """The times that count for fault ``number``: from its start (the first: from the
    beginning) to the next one's."""
    start = faults[number].start if number else float("-inf")
    end = faults[number + 1].start if number + 1 < len(faults) else float("inf")
    return start, end


def healthy_ratio(fault: Fault, plays: Mapping[str, PagePlay]) -> float | None:
    """The acknowledgement rate of the other processes' rooms during ``fault`` over their
    rate in the :data:`BEFORE_S` before; ``None`` for a database fault or without a base."""
    if fault.database or fault.end <= fault.start:
        return None
    rooms = [
        plays[r]
        for r in fault.others
        if r in plays
        and plays[r].created <= fault.start - BEFORE_S
        and (plays[r].ended or float("inf")) > fault.end
    ]
    before = sum(
        1 for p in rooms for t, _ in p.ack_times if fault.start - BEFORE_S <= t < fault.start
    )
    during = sum(1 for p in rooms for t, _ in p.ack_times if fault.start <= t < fault.end)
    if before == 0:
        return None
    return (during / (fault.end - fault.start)) / (before / BEFORE_S)


def resume_s(fault: Fault, plays: Sequence[PagePlay], until: float) -> float:
    """From the fault's :attr:`~Fault.reference` to the slowest room's next acknowledgement
    (a room in play then; one that never acknowledged again before ``until`` counts to
    ``until``)."""
    slowest = 0.0
    for play in plays:
        if play.created > fault.reference - 2.0 or (play.ended or until) <= fault.reference:
            continue
        after = [t for t, _ in play.ack_times if t > fault.reference]
        if after:
            slowest = max(slowest, after[0] - fault.reference)
        elif play.ended is None:
            slowest = max(slowest, until - fault.reference)
    return slowest


def reports(
    faults: Sequence[Fault],
    plays: Sequence[PagePlay],
    stored: Mapping[str, Sequence[Any]],
    events: Sequence[LogEvent],
    until: float,
) -> list[FaultReport]:
    """What each fault cost."""
    lost, unacked = [], []
    for play in plays:
        log = {row.index: row.action for row in stored[play.room]}
        acked_at = {index: t for t, index in play.ack_times}
        lost += [acked_at[i] for i, action in play.acked.items() if log.get(i) != action]
        unacked += [
            t
            for i, (action, t) in play.sent.items()
            if i not in play.acked and log.get(i) == action
        ]
    commits, takeovers = double_commit_times(events), double_takeover_times(events)
    by_room = {p.room: p for p in plays}
    found = []
    for number, fault in enumerate(faults):
        start, end = window(faults, number)

        def within(times: Sequence[float], start: float = start, end: float = end) -> int:
            return sum(1 for t in times if start <= t < end)

        losses = [how for p in plays for t, how in p.losses if start <= t < end]
        found.append(
            FaultReport(
                fault,
                lost_acks=within(lost),
                double_commits=within(commits),
                double_takeovers=within(takeovers),
                healthy_ratio=healthy_ratio(fault, by_room),
                resume_s=resume_s(fault, plays, min(end, until)),
                unacked_commits=within(unacked),
                drops=losses.count("drop"),
                moved=losses.count("moved"),
            )
        )
    return found


def table(found: Sequence[FaultReport]) -> Table:
    """The per-fault table."""
    shown = Table(title="Faults of three processes behind nginx")
    for header in (
        "fault", "what", "victim", "its rooms", "lost_acks", "double_commits",
        "double_takeovers", "healthy_ratio", "resume_s", "unacked_commits", "drops", "moved",
    ):  # fmt: skip
        shown.add_column(
            header, justify="left" if header in ("fault", "what", "victim") else "right"
        )
    for report in found:
        fault = report.fault
        ratio = "-" if report.healthy_ratio is None else f"{report.healthy_ratio:.2f}"
        shown.add_row(
            fault.name, fault.what, fault.victim or "-", str(len(fault.victims)) if fault.victim else "-",
            str(report.lost_acks), str(report.double_commits), str(report.double_takeovers),
            ratio, f"{report.resume_s:.1f}", str(report.unacked_commits), str(report.drops),
            str(report.moved),
        )  # fmt: skip
    return shown


def last_line(found: Sequence[FaultReport]) -> str:
    """The bench's last line."""
    ratios = [r.healthy_ratio for r in found if r.healthy_ratio is not None]
    return (
        f"faults={len(found)} lost_acks={sum(r.lost_acks for r in found)}"
        f" double_commits={sum(r.double_commits for r in found)}"
        f" double_takeovers={sum(r.double_takeovers for r in found)}"
        f" min_healthy_ratio={min(ratios, default=float('nan')):.2f}"
        f" max_resume_s={max((r.resume_s for r in found), default=0.0):.1f}"
    )


# ----- the run --------------------------------------------------------------------------------


async def play_faults(
    cluster: Cluster,
    database: ScratchPostgres,
    proxy: RemoteBlackhole,
    port: int,
    options: argparse.Namespace,
) -> tuple[list[Fault], list[PagePlay], float, str]:
    """Play through nginx on ``port`` while the chosen faults run; the faults, the plays,
    the end and the short stall's line."""
    beat = Heartbeat(CLIENT_JS.read_text())
    plays: list[PagePlay] = []
    stop = asyncio.Event()
    slots = [
        asyncio.create_task(page_slot(port, beat, options.seed * 1000 + i, plays, stop))
        for i in range(options.rooms)
    ]
    drill = Drill(cluster, database, proxy, plays, np.random.default_rng(options.seed))
    steps = {
        "b": drill.stalled_writer,
        "a3": lambda: drill.paused(3.0),
        "a8": lambda: drill.paused(8.0),
        "a20": lambda: drill.paused(20.0),
        "c": drill.database_paused,
        "d": drill.database_restarted,
        "e": drill.cut_off,
        "f": drill.killed,
    }
    try:
        for name in FAULTS:
            if name in options.faults:
                await steps[name]()
            if name == "b":
                await drill.short_stall()
        await asyncio.sleep(max(0.0, drill.calm_since + SETTLE_S - time.monotonic()))
    finally:
        stop.set()
        await asyncio.gather(*slots, return_exceptions=True)
    return drill.faults, plays, time.monotonic(), drill.probe


def keep(
    folder: Path,
    members: Sequence[ServerProcess],
    faults: Sequence[Fault],
    plays: Sequence[PagePlay],
) -> None:
    """Write the members' logs, and the faults' and the pages' times (seconds from the
    first fault), into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    for number, member in enumerate(members):
        (folder / f"{number}-{member.instance}.log").write_text(member.log_text())
    zero = faults[0].start if faults else 0.0
    times = {
        "faults": [{"name": f.name, "start": f.start - zero, "end": f.end - zero} for f in faults],
        "pages": [
            {
                "room": p.room,
                "created": p.created - zero,
                "ended": None if p.ended is None else p.ended - zero,
                "acks": [round(t - zero, 3) for t, _ in p.ack_times],
                "sent": {i: round(t - zero, 3) for i, (_, t) in p.sent.items()},
                "losses": [(round(t - zero, 3), how) for t, how in p.losses],
                "errors": [(round(t - zero, 3), code) for t, code in p.errors],
            }
            for p in plays
        ],
    }
    (folder / "times.json").write_text(json.dumps(times, indent=1))


def main() -> None:
    """Run the faults and print what each cost."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=24, help="rooms in play at once")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--faults", default=",".join(FAULTS), help=f"which faults, of {','.join(FAULTS)}"
    )
    parser.add_argument(
        "--stall-after", type=int, default=200, help="(b): the fenced transaction that stalls"
    )
    parser.add_argument(
        "--logs", type=Path, help="a folder to keep the processes' logs and the pages' times in"
    )
    options = parser.parse_args()
    options.faults = set(options.faults.split(","))
    if not options.faults <= set(FAULTS) or options.rooms < 20:
        sys.exit(f"server_faults.py: --faults among {','.join(FAULTS)}, --rooms at least 20")
    if nginx_program() is None:
        sys.exit("server_faults.py needs nginx (make system-deps)")
    if os.geteuid() != 0:
        sys.exit("server_faults.py needs root: it runs PostgreSQL's programs and stops them")
    block = nginx_block(SERVER_DOC.read_text())
    offset = time.time() - time.monotonic()
    envs = {1: {STALL_ENV: str(options.stall_after)}} if "b" in options.faults else {}
    with (
        scratch_postgres() as database,
        remote_blackhole("127.0.0.1", database.port) as proxy,
    ):
        through = database.url.replace(f":{database.port}/", f":{proxy.port}/")
        urls = [through, database.url, database.url]
        extra = ("--log-format", "json")
        with cluster_of(database.url, 3, extra=extra, urls=urls, envs=envs) as cluster:
            with nginx(block, [p.port for p in cluster.processes]) as port:
                print(f"3 processes behind nginx on port {port}, {options.rooms} rooms", flush=True)
                faults, plays, until, probe = asyncio.run(
                    play_faults(cluster, database, proxy, port, options)
                )
            stored = stored_actions(database.url, [p.room for p in plays])
            members = [*cluster.retired, *cluster.processes]
            events = log_events(members, offset)
            if options.logs is not None:
                keep(options.logs, members, faults, plays)
    found = reports(faults, plays, stored, events, until)
    acks = sum(len(p.acked) for p in plays)
    print(f"{len(plays)} rooms played, {acks} actions acknowledged, {gaps(stored)} gaps in")
    print(f"the stored logs; {probe}")
    Console(width=160).print(table(found))
    print(last_line(found))


if __name__ == "__main__":
    main()
