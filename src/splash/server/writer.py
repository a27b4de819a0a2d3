"""Group commit: one writer per server process stores what every room writes, together.

A room hands the writer a *job* (a function that writes through a database connection) and
waits; the writer runs, in one transaction, every job that arrived while it was committing
the previous one, commits once, and only then answers each waiting room.  An action is thus
still acknowledged only once it is committed, but a disk sync serves every room that acted
in the meantime instead of one.  A job that fails (an index stored already, a full disk)
makes the writer roll the batch back, refuse that job, and commit the others again
without it.

When several processes share the database, the writer is *fenced*: each transaction first
checks that this process still holds the lease of every room whose actions it writes
(:meth:`splash.server.leases.Leases.fence`), and refuses the actions of a room it lost with
:class:`~splash.server.leases.LeaseLostError`; while the process is not ``serving`` (it
fenced itself), every job is refused so.

In that mode a transaction that fails because the database could not be reached (it
restarted, the network dropped) is tried again, for up to :data:`RETRY_S` and while the
process still serves, instead of refusing its jobs: each try is fenced again.

The actions handed over with :meth:`Writer.write_actions` are stored together: the actions
of every room in a batch go in one ``INSERT`` of many rows (and one update of the rooms'
activity), instead of two statements per room; when that fails, each is written on its own
as any other job, so that only the one at fault is refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
import threading
import time
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, TypeVar

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import InterfaceError, OperationalError

from splash.server import storage
from splash.server.leases import LeaseLostError

if TYPE_CHECKING:
    from splash.server.metrics import Metrics

log = logging.getLogger("splash.server")
T = TypeVar("T")

MAX_BATCH: Final = 2000
"""The most jobs in one transaction."""

Job = Callable[[Connection], Any]
"""A write: it runs in the writer's transaction, and must not commit or roll back."""

Fence = Callable[[Connection, Collection[str]], set[str]]
"""Of some rooms, those whose lease this process holds, checked in the writer's transaction."""


RETRY_S: Final = 4.0
"""With a fence, how long a transaction that could not reach the database is tried again
(the self-fence's 4 s: by then a process cut off serves nothing)."""
RETRY_PAUSE_S: Final = 0.1
"""The pause before each new try."""


STALL_ENV: Final = "SPLASH_FAULT_WRITER_STALL"
"""A fault hook for the tests, off unless this environment variable is set to a count N:
the writer's N-th fenced transaction stalls for good right after its fence (holding its
locks), once it wrote :data:`STALL_LINE` to the standard error."""
STALL_LINE: Final = "fault: the writer stalls after the fence"


def stall_from_env() -> int | None:
    """The count of :data:`STALL_ENV`, when set (``None`` otherwise)."""
    value = os.environ.get(STALL_ENV)
    return int(value) if value else None


class WriterClosedError(RuntimeError):
    """The server is stopping: the writer takes no more jobs."""


@dataclass
class _Pending:
    job: Job
    done: asyncio.Future[Any]
    actions: Sequence[storage.NewAction] | None = None
    """The actions that ``job`` stores, when it is a :meth:`Writer.write_actions`."""
    room: str | None = None
    """The room whose actions ``job`` stores (fenced), when it is a
    :meth:`Writer.write_actions`."""


@dataclass
class WriterStats:
    """What the writer did: transactions committed and jobs stored."""

    transactions: int = 0
    jobs: int = 0
    retried_batches: int = 0
    largest_batch: int = field(default=0)
    commit_s: float = 0.0
    """The time spent in transactions, retries included."""
    longest_commit_s: float = 0.0

    def reset(self) -> None:
        """Count from zero again."""
        self.transactions = self.jobs = self.retried_batches = self.largest_batch = 0
        self.commit_s = self.longest_commit_s = 0.0


class Writer:
    """The process's one writer to ``engine``; :meth:`start` it, :meth:`write` through it,
    :meth:`close` it (what was handed to it is committed first).  With ``metrics``, it
    times its transactions and the wait of the actions handed to it."""

    def __init__(
        self,
        engine: Engine,
        *,
        fence: Fence | None = None,
        serving: Callable[[], bool] | None = None,
        metrics: Metrics | None = None,
        stall_after: int | None = None,
    ) -> None:
        self.engine = engine
        self.fence = fence
        self.serving = serving
        self.stall_after = stall_after
        self._fences = 0
        self.metrics = metrics
        self.stats = WriterStats()
        self._queue: asyncio.Queue[_Pending | None] = asyncio.Queue()
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="splash-writer")
        self._task: asyncio.Task[None] | None = None
        self._closing = False

    def start(self) -> None:
        """Start the writer task (in the running event loop)."""
        self._task = asyncio.create_task(self._run(), name="writer")

    @property
    def running(self) -> bool:
        """Whether jobs are taken and committed."""
        return self._task is not None and not self._task.done() and not self._closing

    async def write(self, job: Callable[[Connection], T]) -> T:
        """Run ``job`` in the next transaction; returns its result once that is committed.

        Raises what ``job`` raised (nothing of it is stored then), or
        :class:`WriterClosedError` once the server is stopping.
        """
        if not self.running:
            raise WriterClosedError("the writer is stopped")
        done: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Pending(job, done))
        return await asyncio.shield(done)

    async def write_actions(self, entries: Sequence[storage.NewAction]) -> None:
        """Store ``entries`` (:func:`~splash.server.storage.write_actions`) in the next
        transaction, with the actions the other rooms handed over meanwhile; returns once
        that is committed.

        Raises :class:`~splash.server.storage.StorageConflictError` (or what the database
        raised) when ``entries`` cannot be stored: nothing of them is stored then.
        """
        if not self.running:
            raise WriterClosedError("the writer is stopped")
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        entries = list(entries)

        def job(conn: Connection) -> None:
            storage.write_actions(conn, entries)

        room = entries[0].room_id if entries else None
        started = time.perf_counter()
        self._queue.put_nowait(_Pending(job, done, entries, room))
        await asyncio.shield(done)
        if self.metrics is not None:
            self.metrics.commit_seconds.observe(time.perf_counter() - started)

    async def close(self) -> None:
        """Commit every job handed over so far, then stop."""
        self._closing = True
        if self._task is not None:
            self._queue.put_nowait(None)
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._thread.shutdown(wait=True)

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            first = await self._queue.get()
            batch = [] if first is None else [first]
            stop = first is None
            while len(batch) < MAX_BATCH and not self._queue.empty():
                item = self._queue.get_nowait()
                if item is None:
                    stop = True
                else:
                    batch.append(item)
            if batch:
                outcomes = await loop.run_in_executor(self._thread, self._timed_commit, batch)
                for pending, (ok, value) in zip(batch, outcomes, strict=True):
                    if pending.done.done():
                        continue
                    if ok:
                        pending.done.set_result(value)
                    else:
                        pending.done.set_exception(value)
            if stop:
                return

    def _timed_commit(self, batch: list[_Pending]) -> list[tuple[bool, Any]]:
        started = time.perf_counter()
        try:
            return self._commit(batch)
        finally:
            took = time.perf_counter() - started
            self.stats.commit_s += took
            self.stats.longest_commit_s = max(self.stats.longest_commit_s, took)
            if self.metrics is not None:
                self.metrics.transaction_seconds.observe(took)

    def _commit(self, batch: list[_Pending]) -> list[tuple[bool, Any]]:
        """Every job of ``batch`` in one transaction, the actions of all of them in one
        statement; when that fails, :meth:`_commit_each`."""
        merged = [p.actions for p in batch if p.actions is not None]
        if len(merged) < 2:
            return self._commit_each(batch)
        outcomes: list[tuple[bool, Any]] = [(False, None)] * len(batch)
        try:
            with self.engine.begin() as conn:
                live = self._fenced(conn, batch, range(len(batch)), outcomes)
                results: dict[int, Any] = {}
                for i in live:
                    if batch[i].actions is None:
                        results[i] = batch[i].job(conn)
                storage.write_actions(conn, [e for i in live for e in batch[i].actions or ()])
        except Exception:
            self.stats.retried_batches += 1
            return self._commit_each(batch)
        self._count(len(live))
        for i in live:
            outcomes[i] = (True, results.get(i))
        return outcomes

    def _fenced(
        self,
        conn: Connection,
        batch: list[_Pending],
        indices: Collection[int],
        outcomes: list[tuple[bool, Any]],
    ) -> list[int]:
        """Of the jobs ``indices`` of ``batch``, those that may be written: all without a
        fence; with one, those whose room's lease this process holds (the others' outcome
        is :class:`~splash.server.leases.LeaseLostError`); none while not ``serving``."""
        if self.serving is not None and not self.serving():
            for i in indices:
                outcomes[i] = (False, LeaseLostError(batch[i].room or ""))
            return []
        if self.fence is None:
            return list(indices)
        rooms = {room for i in indices if (room := batch[i].room) is not None}
        held = self.fence(conn, rooms) if rooms else set()
        if rooms:
            self._fences += 1
            if self._fences == self.stall_after:
                print(STALL_LINE, file=sys.stderr, flush=True)
                threading.Event().wait()
        live = []
        for i in indices:
            room = batch[i].room
            if room is None or room in held:
                live.append(i)
            else:
                outcomes[i] = (False, LeaseLostError(room))
        return live

    def _try_again(self, error: Exception, since: float) -> bool:
        """Whether a transaction that failed with ``error`` is tried again: with a fence,
        when the database could not be reached, for :data:`RETRY_S` after ``since`` and
        while this process serves."""
        if self.fence is None or not isinstance(error, OperationalError | InterfaceError):
            return False
        return time.monotonic() - since <= RETRY_S and (self.serving is None or self.serving())

    def _count(self, jobs: int) -> None:
        self.stats.transactions += 1
        self.stats.jobs += jobs
        self.stats.largest_batch = max(self.stats.largest_batch, jobs)

    def _commit_each(self, batch: list[_Pending]) -> list[tuple[bool, Any]]:
        """Every job of ``batch`` in one transaction.  A job that raises is refused and the
        others are run again without it; when the commit itself fails, each job is run
        again in a transaction of its own."""
        outcomes: list[tuple[bool, Any]] = [(False, None)] * len(batch)
        remaining = list(range(len(batch)))
        since, retrying = time.monotonic(), False
        while remaining:
            failed: tuple[int, Exception] | None = None
            try:
                with self.engine.begin() as conn:
                    results: dict[int, Any] = {}
                    remaining = self._fenced(conn, batch, remaining, outcomes)
                    for i in remaining:
                        try:
                            results[i] = batch[i].job(conn)
                        except Exception as error:
                            failed = (i, error)
                            raise
            except Exception as error:
                self.stats.retried_batches += 1
                if self._try_again(error, since):
                    if not retrying:
                        name = type(error).__name__
                        log.warning("a write could not reach the database (%s): trying again", name)
                    retrying = True
                    time.sleep(RETRY_PAUSE_S)
                    continue
                if failed is not None:
                    outcomes[failed[0]] = (False, failed[1])
                    remaining.remove(failed[0])
                    continue
                if len(remaining) == 1:
                    outcomes[remaining[0]] = (False, error)
                    return outcomes
                for i in remaining:
                    outcomes[i] = self._commit_each([batch[i]])[0]
                return outcomes
            self._count(len(remaining))
            for i in remaining:
                outcomes[i] = (True, results[i])
            return outcomes
        return outcomes


__all__ = [
    "MAX_BATCH",
    "RETRY_PAUSE_S",
    "RETRY_S",
    "STALL_ENV",
    "STALL_LINE",
    "Job",
    "Writer",
    "WriterClosedError",
    "WriterStats",
    "stall_from_env",
]
