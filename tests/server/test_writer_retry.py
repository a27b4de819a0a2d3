"""A fenced writer tries again a transaction that could not reach the database (a restart,
a dropped connection), while its process serves, instead of refusing the write; a write the
database refused, or one of a process that stopped serving, is refused at once."""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Iterator
from pathlib import Path

import pytest
from sqlalchemy import Connection, Engine, text
from sqlalchemy.exc import IntegrityError, OperationalError

from splash.server import storage
from splash.server.leases import LeaseLostError
from splash.server.writer import Writer


class Flaky:
    """A job that fails ``failures`` times as a lost connection does, then writes."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.tries = 0

    def __call__(self, conn: Connection) -> int:
        self.tries += 1
        if self.tries <= self.failures:
            raise OperationalError("SELECT 1", {}, ConnectionError("server closed the connection"))
        conn.execute(text("INSERT INTO marks (n) VALUES (1)"))
        return self.tries


def every_room(_conn: Connection, rooms: Collection[str]) -> set[str]:
    return set(rooms)


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    made = storage.make_engine(f"sqlite:///{tmp_path / 'retry.db'}")
    with made.begin() as conn:
        conn.execute(text("CREATE TABLE marks (n INTEGER)"))
    yield made
    made.dispose()


def marks(engine: Engine) -> int:
    with engine.connect() as conn:
        return int(conn.execute(text("SELECT count(*) FROM marks")).scalar_one())


def run(writer: Writer, job: Flaky) -> object:
    async def scenario() -> object:
        writer.start()
        try:
            return await writer.write(job)
        except Exception as error:
            return error
        finally:
            await writer.close()

    return asyncio.run(scenario())


def test_a_fenced_write_that_lost_the_database_is_tried_again(engine: Engine) -> None:
    job = Flaky(failures=2)
    assert run(Writer(engine, fence=every_room, serving=lambda: True), job) == 3
    assert marks(engine) == 1


def test_without_a_fence_the_write_is_refused_at_once(engine: Engine) -> None:
    job = Flaky(failures=1)
    assert isinstance(run(Writer(engine), job), OperationalError)
    assert job.tries == 1 and marks(engine) == 0


def test_a_process_that_does_not_serve_is_not_tried_again(engine: Engine) -> None:
    serving = iter([True, False])
    job = Flaky(failures=5)
    writer = Writer(engine, fence=every_room, serving=lambda: next(serving, False))
    refused = run(writer, job)
    assert isinstance(refused, OperationalError | LeaseLostError)
    assert marks(engine) == 0


def test_a_write_the_database_refuses_is_not_tried_again(engine: Engine) -> None:
    tries = []

    def refused(conn: Connection) -> None:
        tries.append(1)
        raise IntegrityError("INSERT", {}, ValueError("duplicate key"))

    async def scenario() -> BaseException | None:
        writer = Writer(engine, fence=every_room, serving=lambda: True)
        writer.start()
        try:
            await writer.write(refused)
        except IntegrityError as error:
            return error
        finally:
            await writer.close()
        return None

    assert isinstance(asyncio.run(scenario()), IntegrityError)
    assert tries == [1]
