"""Several server processes on one PostgreSQL database (``splash serve --cluster``): each
room is served by one process at a time, a room whose process is killed goes on in another
within 10 s, and nothing acknowledged is lost."""

from __future__ import annotations

import asyncio
import json
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.samples import Sample
from sqlalchemy import text
from typer.testing import CliRunner
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from splash.core.record import GameRecord
from splash.server import storage
from splash.server.leases import LEASE_S, LeaseLostError, Leases
from splash.server.protocol import CLOSE_MOVED
from splash.server.rules import build_game
from splash.server.settings import ServerSettings
from splash.server.writer import Writer
from tests.server.conftest import fresh_postgres
from tests.server.conversation import msg
from tests.server.drill import (
    DRILL_SETTINGS,
    Cluster,
    RoomPlay,
    ServerProcess,
    cluster_of,
    double_commits,
    open_rooms,
    owners,
    play_room,
    run_drill,
    stored_actions,
)
from tests.server.test_metrics import value
from tests.server.test_serve_command import command

pytestmark = pytest.mark.slow


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh PostgreSQL database."""
    with fresh_postgres() as url:
        yield url


def scraped(member: ServerProcess) -> list[Sample]:
    """The samples of ``member``'s ``/metrics``."""
    body = httpx.get(f"{member.base}/metrics").text
    return [s for family in text_string_to_metric_families(body) for s in family.samples]


def replays(database_url: str, rooms: list[str]) -> None:
    """Every room's stored log replays under the rules (no index written twice, no gap)."""
    game = build_game("bash", list(DRILL_SETTINGS), "play")
    for room, rows in stored_actions(database_url, rooms).items():
        assert [row.index for row in rows] == list(range(len(rows))), room
        GameRecord("bash", {}, [row.action for row in rows]).replay(game, len(rows))


def test_a_killed_process_s_rooms_go_on_elsewhere_with_nothing_lost(postgres_url: str) -> None:
    with cluster_of(postgres_url, 3) as cluster:
        report = asyncio.run(run_drill(cluster, 9, seed=3, kill_after=5.0, after_kill=14.0))
        rooms = list(owners(postgres_url))
    assert report.rooms >= 1 and report.continued == report.rooms, report
    assert report.lost_acks == 0 and report.double_owner == 0, report
    assert 0 < report.takeover_s <= 10.0, report
    assert report.acks > 100, report
    replays(postgres_url, rooms)


def test_a_room_nobody_is_connected_to_is_taken_over_by_the_sweep(postgres_url: str) -> None:
    """A game of people who are away, played by the turn timer's bot: no connection brings
    it to another process; the survivors' sweep takes it over once its lease expires."""
    with cluster_of(postgres_url, 2) as cluster:
        first = cluster.processes[0]
        body = {
            "game": "bash",
            "settings": list(DRILL_SETTINGS),
            "bots": [None, "random"],
            "options": {"turn_timer_s": 0.2},
        }
        room = httpx.post(f"{first.base}/api/rooms", json=body).json()["room"]["id"]
        assert httpx.post(f"{first.base}/api/rooms/{room}/seats/0", json={}).status_code == 201
        time.sleep(2.0)
        assert owners(postgres_url)[room] == first.instance
        before = len(stored_actions(postgres_url, [room])[room])
        assert before > 0
        killed = time.monotonic()
        cluster.kill(first)
        deadline = killed + 10.0
        while time.monotonic() < deadline:
            now = len(stored_actions(postgres_url, [room])[room])
            if now > before and owners(postgres_url).get(room) == cluster.processes[1].instance:
                break
            time.sleep(0.2)
        took = time.monotonic() - killed
        assert now > before, "the room did not go on within 10 s"
        assert LEASE_S - 1.0 <= took <= 10.0
        replays(postgres_url, [room])
        survivor = cluster.processes[1]
        samples = scraped(survivor)
        assert (
            value(samples, "splash_lease_takeovers_total", splash_instance=survivor.instance) == 1
        )
        assert value(samples, "splash_rooms_owned") == 1


def test_a_connection_to_a_process_that_does_not_own_the_room_is_moved(
    postgres_url: str,
) -> None:
    with cluster_of(postgres_url, 2) as cluster:
        owner, other = cluster.processes
        (play,) = asyncio.run(open_rooms(cluster, 1))  # created through the first: it owns it
        assert owners(postgres_url)[play.room] == owner.instance
        with connect(f"ws://127.0.0.1:{other.port}/ws/rooms/{play.room}") as ws:
            doc = json.loads(ws.recv(timeout=10))
            assert doc["type"] == "moved" and doc["room"] == play.room
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_MOVED
        # The owner was asked to hand the room over: the next try at the other one holds it.
        deadline = time.monotonic() + 5
        while owners(postgres_url).get(play.room) != other.instance:
            with connect(f"ws://127.0.0.1:{other.port}/ws/rooms/{play.room}") as ws:
                ws.send(json.dumps(msg("join", token=play.token)))
                kind = json.loads(ws.recv(timeout=10))["type"]
            assert kind in ("welcome", "moved")
            assert time.monotonic() < deadline
            time.sleep(0.1)
        with connect(f"ws://127.0.0.1:{other.port}/ws/rooms/{play.room}") as ws:
            ws.send(json.dumps(msg("join", token=play.token)))
            welcome = json.loads(ws.recv(timeout=10))
        assert welcome["type"] == "welcome" and welcome["seat"] == 0
        handed = scraped(owner)
        assert value(handed, "splash_lease_handovers_total", reason="released") == 1
        assert value(handed, "splash_lease_handovers_total", reason="lost") == 0
        assert value(handed, "splash_lease_takeovers_total") == 0


def _marked(member: ServerProcess, room: str) -> bool:
    listed = {r["id"]: r for r in httpx.get(f"{member.base}/api/rooms").json()}
    return bool(listed[room]["seats"][0]["connected"])


def test_every_process_s_lobby_marks_who_is_connected_to_a_room_another_serves(
    postgres_url: str,
) -> None:
    with cluster_of(postgres_url, 2) as cluster:
        owner, other = cluster.processes
        (play,) = asyncio.run(open_rooms(cluster, 1))
        assert owners(postgres_url)[play.room] == owner.instance
        assert not _marked(other, play.room) and not _marked(owner, play.room)
        with connect(f"ws://127.0.0.1:{owner.port}/ws/rooms/{play.room}") as ws:
            ws.send(json.dumps(msg("join", token=play.token)))
            assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
            deadline = time.monotonic() + 5
            while not _marked(other, play.room):
                assert time.monotonic() < deadline, "the other process never marked the seat"
                time.sleep(0.1)
            assert _marked(owner, play.room)
        deadline = time.monotonic() + 5
        while _marked(other, play.room):
            assert time.monotonic() < deadline, "the mark outlived the connection"
            time.sleep(0.1)
        # A process that stops serving the room (its lease gone) leaves no mark behind.
        with connect(f"ws://127.0.0.1:{owner.port}/ws/rooms/{play.room}") as ws:
            ws.send(json.dumps(msg("join", token=play.token)))
            assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
            while not _marked(other, play.room):
                time.sleep(0.1)
            cluster.kill(owner)
            deadline = time.monotonic() + LEASE_S + 5
            while _marked(other, play.room):
                assert time.monotonic() < deadline, "a killed process's mark outlived its lease"
                time.sleep(0.2)


def test_a_seat_taken_through_another_process_waits_for_the_hand_over(postgres_url: str) -> None:
    with cluster_of(postgres_url, 2) as cluster:
        owner, other = cluster.processes
        body = {"game": "bash", "settings": list(DRILL_SETTINGS), "bots": [None, "random"]}
        room = httpx.post(f"{owner.base}/api/rooms", json=body).json()["room"]["id"]
        taken = httpx.post(f"{other.base}/api/rooms/{room}/seats/0", json={"name": "ann"})
        assert taken.status_code == 201, taken.text
        assert owners(postgres_url)[room] == other.instance
        seat = httpx.get(f"{owner.base}/api/rooms/{room}").json()["seats"][0]
        assert seat["kind"] == "human" and seat["name"] == "ann"
        # The game started in the process that took the seat: the log grows there.
        play = RoomPlay(room, str(taken.json()["token"]))
        asyncio.run(play_room(cluster, play, seed=1, until=time.monotonic() + 3, think=(0, 0)))
        assert len(play.acked) > 0


def test_two_live_processes_may_not_share_an_instance_name(postgres_url: str) -> None:
    with cluster_of(postgres_url, 1) as cluster:
        (running,) = cluster.processes
        result = CliRunner().invoke(
            command(),
            ["serve", "--db", postgres_url, "--cluster", "--instance", running.instance],
        )
    assert result.exit_code != 0
    assert "another server process runs as instance" in result.output
    assert "Traceback" not in result.output


def test_cluster_mode_needs_postgresql() -> None:
    result = CliRunner().invoke(command(), ["serve", "--db", "sqlite:///x.db", "--cluster"])
    assert result.exit_code != 0
    assert "needs a PostgreSQL database" in result.output
    with pytest.raises(ValueError, match="PostgreSQL"):
        ServerSettings(database_url="sqlite:///x.db", cluster=True)


def test_the_writer_refuses_the_actions_of_a_room_whose_lease_another_holds(
    postgres_url: str,
) -> None:
    engine = storage.make_engine(postgres_url)
    storage.create_schema(engine=engine)
    mine, theirs = Leases(engine, "mine"), Leases(engine, "theirs")
    row = storage.RoomRow("r1", "r", "bash", "play", [], {}, 1, None, "playing", 0.0)
    storage.insert_room(engine=engine, room=row, seat_rows=[storage.SeatRow(0, "human")])

    async def scenario() -> tuple[BaseException | None, BaseException | None]:
        writer = Writer(engine, fence=mine.fence)
        writer.start()
        try:
            assert (await mine.acquire("r1")).held
            assert not (await theirs.acquire("r1")).held
            entry = storage.NewAction("r1", 0, {"kind": "x"}, 0, "seat", 1.0)
            await writer.write_actions([entry])  # held: stored
            with engine.begin() as conn:  # the lease expires: another process takes it
                conn.execute(text("UPDATE room_leases SET expires_at = 0"))
            assert (await theirs.acquire("r1")).held
            lost: BaseException | None = None
            try:
                await writer.write_actions([storage.NewAction("r1", 1, {"k": 1}, 0, "seat", 2.0)])
            except LeaseLostError as error:
                lost = error
            assert await mine.renew() == set()
            assert await theirs.renew() == {"r1"}
            return lost, None
        finally:
            await writer.close()

    try:
        lost, _ = asyncio.run(scenario())
        assert isinstance(lost, LeaseLostError) and lost.room_id == "r1"
        assert [r.index for r in storage.load_actions(engine=engine, room_id="r1")] == [0]
    finally:
        engine.dispose()


def test_a_cluster_can_be_stopped_and_its_rooms_taken_at_once(postgres_url: str) -> None:
    """SIGTERM drains: the process gives its leases up, so another takes its rooms at once
    instead of after the lease expires."""
    cluster = Cluster(postgres_url, 2)
    try:
        cluster.start()
        first, second = cluster.processes
        (play,) = asyncio.run(open_rooms(cluster, 1))
        assert owners(postgres_url)[play.room] == first.instance
        first.process.terminate()
        first.process.wait(timeout=20)
        first.alive = False
        assert play.room not in owners(postgres_url)
        started = time.monotonic()
        with connect(f"ws://127.0.0.1:{second.port}/ws/rooms/{play.room}") as ws:
            ws.send(json.dumps(msg("join", token=play.token)))
            welcome = json.loads(ws.recv(timeout=10))
        assert welcome["type"] == "welcome" and time.monotonic() - started < LEASE_S
    finally:
        cluster.close()


def test_the_drill_counts_an_index_that_two_processes_logged(tmp_path: Path) -> None:
    cluster = Cluster("postgresql+psycopg://unused/db", 2)
    lines = [
        "INFO splash.server: room abc: action 4 (roll) by chance\n",
        "INFO splash.server: room abc: action 5 (move) by human\n",
    ]
    for number, text_lines in enumerate([lines, lines[1:]]):
        log = (tmp_path / f"{number}.log").open("w+b")
        log.write("".join(text_lines).encode())
        process = subprocess.Popen(["true"])
        process.wait()
        cluster.processes.append(ServerProcess(f"drill-{number}", 0, process, log))
    try:
        assert double_commits(cluster) == 1
    finally:
        for member in cluster.processes:
            member.log.close()
