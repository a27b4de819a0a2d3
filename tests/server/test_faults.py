"""A process that stalls, or is cut off from the database, never stalls the cluster: the
faults of ``splash serve --cluster`` processes on the scratch PostgreSQL, each process's
database connections through a loopback proxy that can blackhole (:mod:`blackhole`).

- (b) a process's writer stalls right after its fence (holding its locks) and the whole
  process is stopped (SIGSTOP): the others go on acknowledging their own rooms, and take
  its rooms over within 10 s;
- (c) every process is cut off from the database for 5 s: nothing acknowledged is lost, and
  every room goes on within 10 s of the end;
- (e) one process is cut off for 20 s while its clients still reach it: it fences itself
  (``moved``, not ready) and its rooms go on in the others within 10 s.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import signal
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager

import httpx
import pytest
from sqlalchemy.engine import make_url

from splash.server.leases import SELF_FENCE_S
from splash.server.writer import STALL_ENV, STALL_LINE
from tests.server.blackhole import BlackholeProxy
from tests.server.conftest import fresh_postgres
from tests.server.drill import (
    Cluster,
    RoomPlay,
    ServerProcess,
    double_commits,
    open_rooms,
    owners,
    play_room,
    stored_actions,
)

pytestmark = pytest.mark.slow

THINK = (0.1, 0.25)
"""The person's thinking time: a drill game lasts longer than a test."""


class FaultCluster(Cluster):
    """A :class:`Cluster` whose process ``n`` reaches the database at ``urls[n]`` with the
    environment ``envs[n]`` added, and whose proxy (:meth:`route`) is sticky: a room's
    requests go to its :attr:`homes` process (where :func:`open_homed_rooms` created it) as
    long as that one is live and ready, and to another only when it is not (:meth:`watch`),
    the room then staying there. Each process so holds rooms when its fault begins."""

    def __init__(
        self,
        database_url: str,
        urls: Sequence[str],
        envs: Mapping[int, Mapping[str, str]] | None = None,
    ) -> None:
        super().__init__(database_url, len(urls), urls=urls, envs=envs)
        self.unready: set[str] = set()
        self.homes: dict[str, str] = {}

    def route(self, room_id: str) -> ServerProcess:
        """The room's home while it is live and ready; otherwise, as :meth:`Cluster.route`
        among the ready processes when any is (the room's new home)."""
        ready = [p for p in self.live() if p.instance not in self.unready] or self.live()
        home = self.homes.get(room_id)
        for member in ready:
            if member.instance == home:
                return member

        def weight(member: ServerProcess) -> bytes:
            return hashlib.sha256(f"{member.instance}/{room_id}".encode()).digest()

        chosen = max(ready, key=weight)
        self.homes[room_id] = chosen.instance
        return chosen

    async def watch(self, until: float, period: float = 0.2) -> None:
        """Keep :attr:`unready` up to date (a health-checking proxy) until ``until``."""
        async with httpx.AsyncClient(timeout=0.5) as http:
            while time.monotonic() < until:
                for member in self.live():
                    try:
                        answer = await http.get(f"{member.base}/api/health/ready")
                        ready = answer.status_code == 200
                    except httpx.HTTPError:
                        ready = False
                    if ready:
                        self.unready.discard(member.instance)
                    else:
                        self.unready.add(member.instance)
                await asyncio.sleep(period)


@contextmanager
def fault_cluster(
    database_url: str,
    urls: Sequence[str],
    envs: Mapping[int, Mapping[str, str]] | None = None,
) -> Iterator[FaultCluster]:
    """A started :class:`FaultCluster`, stopped at the end (a stopped process killed)."""
    started = FaultCluster(database_url, urls, envs)
    try:
        started.start()
        yield started
    finally:
        for member in started.processes:
            if member.process.poll() is None:
                member.process.send_signal(signal.SIGCONT)
        started.close()


@contextmanager
def proxied(database_url: str) -> Iterator[tuple[BlackholeProxy, str]]:
    """A :class:`BlackholeProxy` in front of ``database_url``'s server, and the URL through
    it."""
    url = make_url(database_url)
    with BlackholeProxy(url.host or "127.0.0.1", url.port or 5432) as proxy:
        yield proxy, url.set(port=proxy.port).render_as_string(hide_password=False)


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh PostgreSQL database."""
    with fresh_postgres() as url:
        yield url


def lost_acks(database_url: str, plays: Sequence[RoomPlay]) -> int:
    """Acknowledged actions that the database lacks (or holds otherwise)."""
    logs = stored_actions(database_url, [p.room for p in plays])
    lost = 0
    for play in plays:
        stored = {row.index: row.action for row in logs[play.room]}
        lost += sum(1 for index, action in play.acked.items() if stored.get(index) != action)
    return lost


def first_ack_after(play: RoomPlay, moment: float) -> float | None:
    """Seconds from ``moment`` to the room's first acknowledgement after it."""
    after = [t for t, _ in play.ack_times if t > moment]
    return after[0] - moment if after else None


async def open_homed_rooms(cluster: FaultCluster, count: int) -> list[RoomPlay]:
    """:func:`open_rooms`, each room's home the process that created it."""
    creators = cluster.live()
    plays = await open_rooms(cluster, count)
    for number, play in enumerate(plays):
        cluster.homes[play.room] = creators[number % len(creators)].instance
    return plays


def playing(cluster: Cluster, plays: Sequence[RoomPlay], until: float) -> list[asyncio.Task[None]]:
    """A client task for each room, until ``until``."""
    return [
        asyncio.create_task(play_room(cluster, play, seed=7 + i, until=until, think=THINK))
        for i, play in enumerate(plays)
    ]


async def wait_for_line(member: ServerProcess, line: str, timeout: float) -> None:
    """Until ``member`` logged ``line`` (fails after ``timeout`` s)."""
    deadline = time.monotonic() + timeout
    while line not in member.log_text():
        assert time.monotonic() < deadline, f"{member.instance} never logged {line!r}"
        await asyncio.sleep(0.05)


def test_b_a_process_stopped_inside_a_write_does_not_hold_the_others(postgres_url: str) -> None:
    with fault_cluster(postgres_url, [postgres_url] * 3, {0: {STALL_ENV: "30"}}) as cluster:
        victim, survivors = cluster.processes[0], cluster.processes[1:]
        assert f"{STALL_ENV}=30 is on" in victim.log_text()

        async def drill() -> tuple[list[RoomPlay], list[str], float, float]:
            plays = await open_homed_rooms(cluster, 6)
            until = time.monotonic() + 45
            tasks = playing(cluster, plays, until)
            await wait_for_line(victim, STALL_LINE, 30)
            os.kill(victim.process.pid, signal.SIGSTOP)
            stopped = time.monotonic()
            victim.alive = False  # the proxy sends it nothing more
            held = await asyncio.to_thread(owners, postgres_url)
            theirs = [p.room for p in plays if held.get(p.room) == victim.instance]
            assert theirs, held
            took = 0.0
            while True:
                now = await asyncio.to_thread(owners, postgres_url)
                took = time.monotonic() - stopped
                if all(now.get(room) in {s.instance for s in survivors} for room in theirs):
                    break
                assert took <= 10.0, f"not taken over within 10 s: {now}"
                await asyncio.sleep(0.2)
            await asyncio.sleep(max(0.0, 10.0 - took))
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            return plays, theirs, stopped, took

        plays, theirs, stopped, took = asyncio.run(drill())
        cluster.kill(victim)
        ours = [p for p in plays if p.room not in theirs and not p.over]
        for play in ours:
            # Each survivor room acknowledged actions while the victim was stopped.
            gap = first_ack_after(play, stopped)
            assert gap is not None and gap < 3.0, (play.room, gap)
        assert lost_acks(postgres_url, plays) == 0
        assert double_commits(cluster) == 0
        assert took <= 10.0


def test_c_every_process_cut_off_for_5_s_loses_nothing_and_resumes(postgres_url: str) -> None:
    with (
        proxied(postgres_url) as (proxy, through),
        fault_cluster(postgres_url, [through] * 3) as cluster,
    ):

        async def drill() -> tuple[list[RoomPlay], float]:
            plays = await open_homed_rooms(cluster, 6)
            until = time.monotonic() + 4 + 5 + 12
            tasks = playing(cluster, plays, until)
            await asyncio.sleep(4)
            proxy.blackhole()
            await asyncio.sleep(5)
            proxy.restore()
            restored = time.monotonic()
            await asyncio.gather(*tasks)
            return plays, restored

        plays, restored = asyncio.run(drill())
        for play in plays:
            if not play.over or any(t > restored for t, _ in play.ack_times):
                gap = first_ack_after(play, restored)
                assert gap is not None and gap <= 10.0, (play.room, gap)
        assert lost_acks(postgres_url, plays) == 0
        assert double_commits(cluster) == 0


def test_e_a_process_cut_off_for_20_s_fences_itself(postgres_url: str) -> None:
    with (
        proxied(postgres_url) as (proxy, through),
        fault_cluster(postgres_url, [through, postgres_url, postgres_url]) as cluster,
    ):
        victim = cluster.processes[0]

        async def drill() -> tuple[list[RoomPlay], list[str], float]:
            plays = await open_homed_rooms(cluster, 6)
            until = time.monotonic() + 3 + 20 + 3
            tasks = playing(cluster, plays, until)
            watching = asyncio.create_task(cluster.watch(until))
            await asyncio.sleep(3)
            held = await asyncio.to_thread(owners, postgres_url)
            theirs = [p.room for p in plays if held.get(p.room) == victim.instance]
            proxy.blackhole()
            cut = time.monotonic()
            await asyncio.sleep(20)
            proxy.restore()
            await asyncio.gather(*tasks, watching)
            return plays, theirs, cut

        plays, theirs, cut = asyncio.run(drill())
        log = victim.log_text()
        assert f"no lease renewed for {SELF_FENCE_S:g} s: this process fenced itself" in log
        assert "this process serves again" in log
        assert theirs
        for play in plays:
            if play.room in theirs and not play.over:
                gap = first_ack_after(play, cut + SELF_FENCE_S)
                assert gap is not None and SELF_FENCE_S + gap <= 10.0, (play.room, gap)
        assert lost_acks(postgres_url, plays) == 0
        assert double_commits(cluster) == 0
