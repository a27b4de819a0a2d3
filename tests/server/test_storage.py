"""The storage layer on SQLite and PostgreSQL: rooms, seats, the action log, conflicts."""

from __future__ import annotations

from dataclasses import replace

import pytest
from sqlalchemy import text

from splash.server import storage
from splash.server.storage import RoomRow, SeatRow, StorageConflictError


def new_room(room_id: str = "r1") -> RoomRow:
    return RoomRow(
        id=room_id,
        name="pool",
        game="bash",
        mode="play",
        settings=["options.teams=2"],
        options={"turn_timer_s": None},
        seed=2**62 - 1,
        referee_token=None,
        status="open",
        created_at=1.0,
    )


def test_a_room_its_seats_and_its_log_come_back_as_stored(database_url: str) -> None:
    engine = storage.make_engine(database_url)
    try:
        storage.create_schema(engine=engine)
        storage.create_schema(engine=engine)  # a second call changes nothing
        storage.insert_room(
            engine=engine,
            room=new_room(),
            seat_rows=[SeatRow(0, "open"), SeatRow(1, "bot", bot="random")],
        )
        assert storage.get_room(engine=engine, room_id="r1") == new_room()
        assert storage.get_room(engine=engine, room_id="nope") is None
        storage.claim_seat(engine=engine, room_id="r1", seat=SeatRow(0, "human", "ann", None, "h"))
        with pytest.raises(StorageConflictError):
            storage.claim_seat(
                engine=engine, room_id="r1", seat=SeatRow(0, "human", "bob", None, "g")
            )
        with pytest.raises(StorageConflictError):
            storage.claim_seat(
                engine=engine, room_id="r1", seat=SeatRow(1, "human", "bob", None, "g")
            )
        assert storage.list_seats(engine=engine, room_id="r1") == [
            SeatRow(0, "human", "ann", None, "h"),
            SeatRow(1, "bot", None, "random", None),
        ]
        for index in range(3):
            storage.append_action(
                engine=engine,
                room_id="r1",
                index=index,
                action={"kind": "roll", "face": index + 1},
                actor=-1,
                source="chance",
            )
        with pytest.raises(StorageConflictError):
            storage.append_action(
                engine=engine,
                room_id="r1",
                index=1,
                action={"kind": "stay"},
                actor=0,
                source="human",
            )
        log = storage.load_actions(engine=engine, room_id="r1")
        assert [(r.index, r.action, r.actor, r.source) for r in log] == [
            (i, {"kind": "roll", "face": i + 1}, -1, "chance") for i in range(3)
        ]
        assert storage.count_actions(engine=engine, room_id="r1") == 3
        storage.set_status(engine=engine, room_id="r1", status="playing")
        storage.insert_room(engine=engine, room=new_room("r2"), seat_rows=[SeatRow(0, "open")])
        assert [r.id for r in storage.list_rooms(engine=engine, limit=10, status="playing")] == [
            "r1"
        ]
        assert {r.id for r in storage.list_rooms(engine=engine, limit=10)} == {"r1", "r2"}
    finally:
        engine.dispose()


OLD_ROOMS = """
CREATE TABLE rooms (
    id VARCHAR(32) PRIMARY KEY, name VARCHAR(100) NOT NULL, game VARCHAR(16) NOT NULL,
    mode VARCHAR(16) NOT NULL, settings TEXT NOT NULL, options TEXT NOT NULL,
    seed BIGINT NOT NULL, referee_token VARCHAR(64), status VARCHAR(16) NOT NULL,
    created_at FLOAT NOT NULL
)
"""
"""The ``rooms`` table as the version before host tokens created it."""


def test_a_database_of_the_previous_version_opens_and_its_rooms_have_no_host(
    database_url: str,
) -> None:
    engine = storage.make_engine(database_url)
    try:
        with engine.begin() as conn:
            conn.execute(text(OLD_ROOMS))
            conn.execute(
                text(
                    "INSERT INTO rooms VALUES ('old', 'pool', 'bash', 'play', '[]', '{}', 5,"
                    " NULL, 'playing', 1.0)"
                )
            )
        storage.create_schema(engine=engine)
        storage.create_schema(engine=engine)
        old = storage.get_room(engine=engine, room_id="old")
        assert old is not None and old.host_token is None and old.status == "playing"
        assert (old.last_activity_at, old.last_activity, old.closed_by) == (1.0, 1.0, None)
        storage.insert_room(
            engine=engine,
            room=replace(new_room("new"), host_token="h" * 64),
            seat_rows=[SeatRow(0, "open")],
        )
        new = storage.get_room(engine=engine, room_id="new")
        assert new is not None and new.host_token == "h" * 64
    finally:
        engine.dispose()


def test_closed_rooms_are_counted_and_listed_apart(database_url: str) -> None:
    engine = storage.make_engine(database_url)
    try:
        storage.create_schema(engine=engine)
        for room_id, status in [("a", "open"), ("b", "playing"), ("c", "over"), ("d", "closed")]:
            storage.insert_room(
                engine=engine,
                room=replace(new_room(room_id), status=status),
                seat_rows=[SeatRow(0, "open")],
            )
        assert storage.count_rooms(engine=engine, statuses=storage.OPEN_STATUSES) == 2
        listed = storage.list_rooms(engine=engine, limit=10, exclude=("closed",))
        assert {r.id for r in listed} == {"a", "b", "c"}
        storage.set_status(engine=engine, room_id="b", status="closed")
        closed = storage.get_room(engine=engine, room_id="b")
        assert closed is not None and closed.status == "closed"
        assert storage.count_rooms(engine=engine, statuses=storage.OPEN_STATUSES) == 1
    finally:
        engine.dispose()


def test_idle_rooms_are_found_by_their_last_activity_and_closed_once(database_url: str) -> None:
    engine = storage.make_engine(database_url)
    try:
        storage.create_schema(engine=engine)
        rows = [
            ("never", "open", None),  # an older room: its creation (1.0) is its last activity
            ("early", "playing", 5.0),
            ("late", "open", 50.0),
            ("ended", "over", 2.0),
            ("shut", "closed", 2.0),
        ]
        for room_id, status, last in rows:
            storage.insert_room(
                engine=engine,
                room=replace(new_room(room_id), status=status, last_activity_at=last),
                seat_rows=[SeatRow(0, "open")],
            )
        assert storage.idle_rooms(engine=engine, before=10.0) == ["never", "early"]
        storage.touch_room(engine=engine, room_id="never", at=20.0)
        storage.touch_room(engine=engine, room_id="never", at=15.0)  # older: not stored
        assert storage.idle_rooms(engine=engine, before=10.0) == ["early"]
        assert storage.close_if_idle(engine=engine, room_id="late", before=10.0) is False
        assert storage.close_if_idle(engine=engine, room_id="early", before=10.0) is True
        assert storage.close_if_idle(engine=engine, room_id="early", before=10.0) is False
        early = storage.get_room(engine=engine, room_id="early")
        assert early is not None and (early.status, early.closed_by) == ("closed", "idle")
        storage.append_action(
            engine=engine,
            room_id="late",
            index=0,
            action={"kind": "stay"},
            actor=0,
            source="human",
            at=70.0,
        )
        storage.close_room(engine=engine, room_id="never", by="host")
        assert storage.idle_rooms(engine=engine, before=100.0) == ["late"]
        late = storage.get_room(engine=engine, room_id="late")
        assert late is not None and late.last_activity == 70.0
        never = storage.get_room(engine=engine, room_id="never")
        assert never is not None and never.last_activity == 20.0
    finally:
        engine.dispose()
