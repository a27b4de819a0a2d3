"""Group commit: one writer stores what every room writes, one transaction for all that
arrived while the previous one committed; a write is answered only once committed, a failing
one is refused alone, and what was handed over before a stop is committed."""

from __future__ import annotations

import asyncio
import itertools
import json
import signal
from pathlib import Path

import httpx
import pytest
from sqlalchemy import Connection
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from splash.server import storage
from splash.server.hub import TooManyRoomsError
from splash.server.options import RoomOptions
from splash.server.storage import NewAction, SeatRow, StorageConflictError
from splash.server.writer import Writer, WriterClosedError
from tests.server.conversation import (
    NO_HOLD,
    SMALL_BASH,
    create_room,
    join,
    msg,
    receive_until,
    take_seat,
)
from tests.server.harness import Serve, ServerClient
from tests.server.messages import UpdateMessage, WelcomeMessage
from tests.server.process import free_port, splash_serve
from tests.server.test_storage import new_room


def entry(room: str, index: int, over: bool = False) -> NewAction:
    return NewAction(
        room, index, {"kind": "roll", "face": 1 + index % 6}, -1, "chance", 10.0 + index, over
    )


def test_the_actions_of_many_rooms_share_transactions_and_a_conflict_is_refused_alone(
    database_url: str,
) -> None:
    engine = storage.make_engine(database_url)
    storage.create_schema(engine=engine)
    for room in ("a", "b", "c"):
        storage.insert_room(engine=engine, room=new_room(room), seat_rows=[SeatRow(0, "open")])

    async def scenario() -> tuple[Writer, list[BaseException | None]]:
        writer = Writer(engine)
        writer.start()

        async def job(e: NewAction) -> None:
            await writer.write(lambda conn: storage.write_actions(conn, [e]))

        entries = [entry(room, i, over=room == "c" and i == 9) for room in "abc" for i in range(10)]
        entries.append(entry("b", 3))  # index 3 of b twice: this one is refused
        outcomes = await asyncio.gather(*(job(e) for e in entries), return_exceptions=True)
        await writer.close()
        with pytest.raises(WriterClosedError):
            await writer.write(lambda conn: None)
        return writer, list(outcomes)

    try:
        writer, outcomes = asyncio.run(scenario())
        assert outcomes[:-1] == [None] * 30
        assert isinstance(outcomes[-1], StorageConflictError)
        assert writer.stats.jobs == 30
        assert writer.stats.transactions <= 3, writer.stats
        assert writer.stats.retried_batches == 1
        for room in "abc":
            stored = storage.load_actions(engine=engine, room_id=room)
            assert [row.index for row in stored] == list(range(10))
        assert storage.get_room(engine=engine, room_id="c").status == "over"  # type: ignore[union-attr]
        assert storage.get_room(engine=engine, room_id="a").last_activity_at == 19.0  # type: ignore[union-attr]
    finally:
        engine.dispose()


def test_the_actions_handed_over_together_go_in_one_statement_and_a_conflict_is_refused_alone(
    database_url: str,
) -> None:
    engine = storage.make_engine(database_url)
    storage.create_schema(engine=engine)
    for room in ("a", "b"):
        storage.insert_room(engine=engine, room=new_room(room), seat_rows=[SeatRow(0, "open")])
    storage.append_action(engine=engine, room_id="b", index=0, action={"x": 1}, actor=0, source="h")

    async def scenario() -> tuple[Writer, list[BaseException | None]]:
        writer = Writer(engine)
        writer.start()
        batches = [
            [entry("a", 0), entry("a", 1)],
            [entry("b", 0)],  # stored already: refused, and nothing of it stored
            [entry("a", 2, over=True)],
            [entry("b", 1)],
        ]
        outcomes = await asyncio.gather(
            *(writer.write_actions(b) for b in batches), return_exceptions=True
        )
        await writer.close()
        return writer, list(outcomes)

    try:
        writer, outcomes = asyncio.run(scenario())
        assert isinstance(outcomes[1], StorageConflictError)
        assert outcomes[:1] + outcomes[2:] == [None, None, None]
        assert writer.stats.jobs == 3
        assert [r.index for r in storage.load_actions(engine=engine, room_id="a")] == [0, 1, 2]
        assert [r.action for r in storage.load_actions(engine=engine, room_id="b")] == [
            {"x": 1},
            entry("b", 1).action,
        ]
        assert storage.get_room(engine=engine, room_id="a").status == "over"  # type: ignore[union-attr]
        assert storage.get_room(engine=engine, room_id="a").last_activity_at == 12.0  # type: ignore[union-attr]
    finally:
        engine.dispose()


def test_a_person_s_act_and_the_light_moves_after_it_are_one_write_each_update_with_its_view(
    client: ServerClient,
) -> None:
    room = create_room(
        client, game="bash", settings=SMALL_BASH, bots=[None, "random"], options=NO_HOLD
    )["room"]["id"]
    token = take_seat(client, room, 0)
    stats = client.application.state.writer.stats
    longest = 0
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        doc: WelcomeMessage | UpdateMessage = join(ws, token)
        for _ in range(40):
            view = doc["view"]
            if doc["status"] == "over":
                break
            before = stats.transactions
            ws.send_json(msg("act", action=view["legal_actions"][0], ref=1))
            receive_until(ws, "ack")
            updates: list[UpdateMessage] = []
            while not updates or (
                updates[-1]["view"]["to_act"] != 0 and updates[-1]["status"] != "over"
            ):
                updates.append(receive_until(ws, "update")[0])
            assert stats.transactions == before + 1
            assert [u["index"] for u in updates] == list(
                range(updates[0]["index"], updates[0]["index"] + len(updates))
            )
            for played, following in itertools.pairwise(updates):
                assert played["view"]["to_act"] == following["actor"]  # the view after each
            assert {u["source"] for u in updates[1:]} <= {"chance", "bot"}
            longest = max(longest, len(updates))
            doc = updates[-1]
    assert longest >= 3


def test_a_job_that_raises_stores_nothing_of_itself(sqlite_url: str) -> None:
    engine = storage.make_engine(sqlite_url)
    storage.create_schema(engine=engine)
    storage.insert_room(engine=engine, room=new_room("a"), seat_rows=[SeatRow(0, "open")])

    def half_then_fail(conn: Connection) -> None:
        storage.write_actions(conn, [entry("a", 0)])
        raise OSError("disk full")

    async def scenario() -> None:
        writer = Writer(engine)
        writer.start()
        with pytest.raises(OSError):
            await writer.write(half_then_fail)
        await writer.write(lambda conn: storage.write_actions(conn, [entry("a", 1)]))
        await writer.close()

    asyncio.run(scenario())
    assert [row.index for row in storage.load_actions(engine=engine, room_id="a")] == [1]
    engine.dispose()


def test_200_rooms_created_at_once_are_all_answered_and_the_limit_holds(serve: Serve) -> None:
    with serve(max_open_rooms=150) as client:
        hub = client.hub

        async def create() -> str:
            try:
                room, _, _ = await hub.create(
                    game_id="bash",
                    mode="play",
                    settings=SMALL_BASH,
                    options=RoomOptions(),
                    name="r",
                )
            except TooManyRoomsError:
                return "refused"
            return room.id

        async def burst() -> list[str]:
            return list(await asyncio.gather(*(create() for _ in range(200))))

        results = client.call(burst)
        assert results.count("refused") == 50
        assert storage.count_rooms(engine=client.engine, statuses=storage.OPEN_STATUSES) == 150


def test_sigterm_drains_an_acknowledged_action_is_stored_and_the_process_exits(
    tmp_path: Path,
) -> None:
    port = free_port()
    database_url = f"sqlite:///{tmp_path / 'drain.db'}"
    base = f"http://127.0.0.1:{port}"
    with splash_serve(database_url, port) as process:
        assert httpx.get(f"{base}/api/health/ready").json()["status"] == "ready"
        body = {"game": "bash", "settings": SMALL_BASH, "bots": [None, "random"]}
        room = httpx.post(f"{base}/api/rooms", json=body).json()["room"]["id"]
        token = httpx.post(f"{base}/api/rooms/{room}/seats/0", json={"name": "a"}).json()["token"]
        with connect(f"ws://127.0.0.1:{port}/ws/rooms/{room}") as ws:
            ws.send(json.dumps(msg("join", token=token)))
            welcome = json.loads(ws.recv(timeout=20))
            ws.send(json.dumps(msg("act", action=welcome["view"]["legal_actions"][0], ref=1)))
            while (doc := json.loads(ws.recv(timeout=20)))["type"] != "ack":
                pass
            acked = doc["index"]
            process.send_signal(signal.SIGTERM)
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    ws.recv(timeout=20)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
        # uvicorn stops gracefully, then raises the signal it caught again (exit -15).
        assert process.wait(timeout=30) in (0, -signal.SIGTERM)
    engine = storage.make_engine(database_url)
    stored = storage.load_actions(engine=engine, room_id=room)
    engine.dispose()
    assert len(stored) > acked and stored[acked].source == "human"


def test_readiness_answers_503_once_the_server_is_stopping(serve: Serve) -> None:
    with serve() as client:
        ready = client.get("/api/health/ready")
        assert ready.status_code == 200
        assert ready.json() == {"status": "ready", "writer": True, "stopping": False}
        client.application.state.stopping = True  # what splash serve sets on SIGTERM
        stopping = client.get("/api/health/ready")
        assert stopping.status_code == 503
        assert stopping.json() == {"status": "not_ready", "writer": True, "stopping": True}
        assert client.get("/api/health").status_code == 200
