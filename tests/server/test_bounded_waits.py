"""The lease paths never wait unboundedly: a take-over and a fence give up on a lease row
another transaction holds, a lease taken over lasts from its write, a session
idle in a transaction is ended, and a process whose renewals lapsed writes nothing."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import DBAPIError

from splash.server import storage
from splash.server.leases import (
    ACQUIRE_LOCK_TIMEOUT_S,
    IDLE_IN_TRANSACTION_S,
    LEASE_S,
    LOCK_TIMEOUT_S,
    SELF_FENCE_S,
    LeaseLostError,
    Leases,
)
from splash.server.writer import Writer
from tests.server.conftest import fresh_postgres

pytestmark = pytest.mark.slow


@pytest.fixture
def engine() -> Iterator[Engine]:
    """The server's engine on a fresh PostgreSQL store with one room in play, ``r1``."""
    with fresh_postgres() as url:
        made = storage.make_engine(
            url, idle_in_transaction_s=IDLE_IN_TRANSACTION_S, lock_timeout_s=LOCK_TIMEOUT_S
        )
        storage.create_schema(engine=made)
        row = storage.RoomRow("r1", "r", "bash", "play", [], {}, 1, None, "playing", 0.0)
        storage.insert_room(engine=made, room=row, seat_rows=[storage.SeatRow(0, "human")])
        try:
            yield made
        finally:
            made.dispose()


def test_a_take_over_gives_up_on_a_locked_row_and_its_lease_lasts_from_its_write(
    engine: Engine,
) -> None:
    mine, theirs = Leases(engine, "mine"), Leases(engine, "theirs")
    assert asyncio.run(mine.acquire("r1")).held
    with engine.begin() as conn:
        conn.execute(text("UPDATE room_leases SET expires_at = 0"))
    with engine.connect() as holder:  # a stalled writer's fence: the row locked, shared
        holder.execute(text("SELECT 1 FROM room_leases WHERE room_id = 'r1' FOR SHARE"))
        started = time.monotonic()
        lease = asyncio.run(theirs.acquire("r1"))
        took = time.monotonic() - started
        holder.rollback()
    assert not lease.held and lease.owner == "mine"
    assert took < ACQUIRE_LOCK_TIMEOUT_S + 0.5
    assert asyncio.run(theirs.acquire("r1")).held
    with engine.connect() as conn:
        left = conn.execute(
            text(
                "SELECT expires_at - extract(epoch from clock_timestamp())"
                " FROM room_leases WHERE room_id = 'r1'"
            )
        ).scalar_one()
    assert LEASE_S - 1.0 < left <= LEASE_S


def test_a_fence_that_waits_too_long_refuses_the_write_as_moved(engine: Engine) -> None:
    mine = Leases(engine, "mine")
    assert asyncio.run(mine.acquire("r1")).held

    async def write() -> BaseException | None:
        writer = Writer(engine, fence=mine.fence, serving=mine.serving)
        writer.start()
        try:
            await writer.write_actions([storage.NewAction("r1", 0, {"k": 0}, 0, "seat", 1.0)])
        except LeaseLostError as error:
            return error
        finally:
            await writer.close()
        return None

    with engine.connect() as holder:  # a take-over under way: the row locked, exclusive
        holder.execute(text("SELECT 1 FROM room_leases WHERE room_id = 'r1' FOR UPDATE"))
        started = time.monotonic()
        refused = asyncio.run(write())
        took = time.monotonic() - started
        holder.rollback()
    assert isinstance(refused, LeaseLostError) and refused.room_id == "r1"
    assert took < LOCK_TIMEOUT_S + 1.0
    assert storage.load_actions(engine=engine, room_id="r1") == []


def test_postgresql_ends_a_session_idle_in_a_transaction(engine: Engine) -> None:
    with engine.connect() as conn:
        conn.execute(text("SELECT 1 FROM room_leases FOR SHARE"))
        time.sleep(IDLE_IN_TRANSACTION_S + 0.5)
        with pytest.raises(DBAPIError):
            conn.execute(text("SELECT 1"))


def test_a_process_whose_renewals_lapsed_writes_nothing_until_one_gets_through(
    engine: Engine,
) -> None:
    mine = Leases(engine, "mine")
    assert asyncio.run(mine.acquire("r1")).held
    mine._renewed = time.monotonic() - SELF_FENCE_S - 0.1  # the renewals were cut off
    assert mine.lapsed and not mine.serving()

    async def write(index: int) -> BaseException | None:
        writer = Writer(engine, fence=mine.fence, serving=mine.serving)
        writer.start()
        try:
            await writer.write_actions([storage.NewAction("r1", index, {}, 0, "seat", 1.0)])
        except LeaseLostError as error:
            return error
        finally:
            await writer.close()
        return None

    assert isinstance(asyncio.run(write(0)), LeaseLostError)
    try:
        assert asyncio.run(mine.renew()) == {"r1"}
    finally:
        asyncio.run(mine.stop())
    assert not mine.lapsed
    assert asyncio.run(write(0)) is None
    assert [r.index for r in storage.load_actions(engine=engine, room_id="r1")] == [0]
