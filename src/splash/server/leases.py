"""Room ownership among several server processes sharing one PostgreSQL database.

Each room that is not closed is served by one process at a time, its *owner*, named by a
row of ``room_leases``: the lease lasts :data:`LEASE_S` seconds and its owner renews it
every :data:`RENEW_S`.  Times are the database's own clock, so that the processes need not
agree on theirs.

- A process takes a room it does not hold (:meth:`Leases.acquire`) when the room has no
  lease, or its lease expired: the owner died, or gave the room up.
- Every write of actions checks, in its own transaction, that the lease is still held and
  not expired (:meth:`Leases.fence`, a shared row lock until the commit): a process that
  stalled past its lease writes nothing more, and a process taking the room over waits for
  a write in flight to commit before it reads the log.  No action index can thus be written
  by two owners.
- Processes talk through ``LISTEN``/``NOTIFY`` on :data:`CHANNEL`, with tiny payloads
  (:class:`Notice`): a process that got a connection for a room another owns asks that
  owner to hand the room over (``release``); the receiver reads what it needs from the
  database.
- A process's name (``instance``) is held by a session advisory lock for its lifetime, so
  that two live processes never share one; a process killed loses it with its connection.
- No wait is unbounded: a take-over waits at most :data:`ACQUIRE_LOCK_TIMEOUT_S` on a lock,
  the writer's sessions :data:`LOCK_TIMEOUT_S`, and PostgreSQL ends a session idle in a
  transaction after :data:`IDLE_IN_TRANSACTION_S` (a stalled writer's locks go with it).
  The renewal has a connection and a thread of its own.
- A process whose last successful renewal was *sent* more than :data:`SELF_FENCE_S` ago (by
  its own monotonic clock) is :attr:`Leases.lapsed`: it serves nothing until a renewal
  goes through again (:meth:`splash.server.hub.RoomHub.check_fence`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Collection, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Final

import psycopg
from sqlalchemy import Connection, Engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from splash.server.storage import postgres_params

log = logging.getLogger("splash.server")

LEASE_S: Final = 5.0
"""How long a lease lasts without being renewed."""
RENEW_S: Final = 1.0
"""How often an owner renews its leases (and looks for rooms whose owner died)."""
SELF_FENCE_S: Final = LEASE_S - RENEW_S
"""A process whose last successful renewal was sent longer ago than this treats every lease
as lost: a renewal sent just after that could not have reached the database in time."""
LOCK_TIMEOUT_S: Final = 1.0
"""The longest wait of a statement of the server's sessions (the writer's fence, the
renewal) on a lock; the statement then fails, and nothing of its transaction is stored."""
ACQUIRE_LOCK_TIMEOUT_S: Final = 0.2
"""The longest wait of a take-over (:meth:`Leases.acquire`) on a lock another process holds:
the room is then not taken, and tried again later."""
IDLE_IN_TRANSACTION_S: Final = 2.0
"""PostgreSQL ends a session of the server that stays this long in a transaction without a
statement (its process stalled or was cut off), with its locks: less than a lease."""
CHANNEL: Final = "splash_rooms"
"""The ``NOTIFY`` channel of the processes of one database."""

_NOW: Final = "extract(epoch from clock_timestamp())::float8"

# The expiry of a row taken over is the database's clock once its lock is held, not
# EXCLUDED's (read before a wait on the lock).
_ACQUIRE = text(
    f"""
    INSERT INTO room_leases (room_id, owner, expires_at)
    VALUES (:room, :owner, {_NOW} + :lease)
    ON CONFLICT (room_id) DO UPDATE
        SET owner = EXCLUDED.owner, expires_at = {_NOW} + :lease
        WHERE room_leases.owner = EXCLUDED.owner OR room_leases.expires_at < {_NOW}
    RETURNING owner
    """
)
_ACQUIRE_WAIT = text(f"SET LOCAL lock_timeout = {round(ACQUIRE_LOCK_TIMEOUT_S * 1000)}")
_OWNER = text(f"SELECT owner, expires_at - {_NOW} FROM room_leases WHERE room_id = :room")
_RENEW: Final = """
    UPDATE room_leases SET expires_at = extract(epoch from clock_timestamp())::float8 + %(lease)s
    WHERE owner = %(owner)s RETURNING room_id
"""
_RELEASE = text("DELETE FROM room_leases WHERE room_id = :room AND owner = :owner")
_RELEASE_ALL = text("DELETE FROM room_leases WHERE owner = :owner")
_CLAIM_NEW = text(
    f"INSERT INTO room_leases (room_id, owner, expires_at) VALUES (:room, :owner, {_NOW} + :lease)"
)
_FENCE = text(
    f"""
    SELECT room_id FROM room_leases
    WHERE owner = :owner AND room_id = ANY(:rooms) AND expires_at > {_NOW}
    FOR SHARE
    """
)
_ORPHANS = text(
    f"""
    SELECT r.id FROM rooms r LEFT JOIN room_leases l ON l.room_id = r.id
    WHERE r.status = 'playing' AND (l.room_id IS NULL OR l.expires_at < {_NOW})
    ORDER BY random() LIMIT :limit
    """
)
_NOTIFY = text("SELECT pg_notify(:channel, :payload)")


class LeaseLostError(RuntimeError):
    """A write for a room whose lease this process no longer holds was refused."""

    def __init__(self, room_id: str) -> None:
        super().__init__(room_id)
        self.room_id = room_id


class InstanceTakenError(RuntimeError):
    """Another live process already runs under this instance name."""

    def __init__(self, instance: str) -> None:
        super().__init__(f"another server process runs as instance {instance!r}")
        self.instance = instance


@dataclass(frozen=True)
class Lease:
    """The outcome of :meth:`Leases.acquire`: whether this process holds the room now, and
    who does (``owner``)."""

    held: bool
    owner: str


@dataclass(frozen=True)
class Notice:
    """A message among the processes: ``kind`` ``release`` asks the owner of ``room`` to
    hand it over; ``sender`` is the instance that sent it."""

    kind: str
    room: str
    sender: str

    def payload(self) -> str:
        """The ``NOTIFY`` payload (a few dozen bytes, far below PostgreSQL's 8,000)."""
        return f"{self.kind} {self.room} {self.sender}"

    @classmethod
    def parse(cls, payload: str) -> Notice | None:
        """The notice of ``payload``, or ``None`` for one this version does not know."""
        parts = payload.split(" ")
        if len(parts) != 3 or parts[0] not in NOTICE_KINDS:
            return None
        return cls(parts[0], parts[1], parts[2])


NOTICE_KINDS: Final = ("release",)
"""The kinds of :class:`Notice`."""


def libpq_url(database_url: str) -> str:
    """The ``postgresql://`` URL of an SQLAlchemy ``postgresql+psycopg://`` one, for psycopg."""
    url = make_url(database_url).set(drivername="postgresql")
    return url.render_as_string(hide_password=False)


class Leases:
    """The leases of the process named ``instance`` on the database of ``engine``
    (PostgreSQL).  :meth:`start` holds the name and listens; :meth:`stop` lets go."""

    def __init__(self, engine: Engine, instance: str) -> None:
        if engine.dialect.name != "postgresql":
            raise ValueError("room leases need PostgreSQL")
        self.engine = engine
        self.owner = instance
        self._listener: psycopg.AsyncConnection[Any] | None = None
        self._listening: asyncio.Task[None] | None = None
        self._renewer = ThreadPoolExecutor(1, thread_name_prefix="splash-leases")
        self._renewing: psycopg.Connection[Any] | None = None
        self._renewed = time.monotonic()
        self.fenced = False
        """Set while this process serves nothing because its leases lapsed
        (:meth:`splash.server.hub.RoomHub.check_fence`): every write is refused."""

    @property
    def lapsed(self) -> bool:
        """Whether the last successful renewal was sent more than :data:`SELF_FENCE_S` ago."""
        return time.monotonic() - self._renewed > SELF_FENCE_S

    def serving(self) -> bool:
        """Whether this process may write: neither :attr:`fenced` nor :attr:`lapsed`."""
        return not self.fenced and not self.lapsed

    def _libpq_url(self) -> str:
        return libpq_url(self.engine.url.render_as_string(hide_password=False))

    # ----- the process's name and its notices ----------------------------------------------

    async def start(self, on_notice: Callable[[Notice], Awaitable[None]]) -> None:
        """Hold the instance name (:class:`InstanceTakenError` when a live process holds it)
        and call ``on_notice`` for each notice another process sends."""
        conn = await self._connect()
        self._listening = asyncio.create_task(self._listen(conn, on_notice), name="leases-listen")

    async def _connect(self) -> psycopg.AsyncConnection[Any]:
        """A connection that holds the instance name and listens to :data:`CHANNEL`."""
        conn = await psycopg.AsyncConnection.connect(
            self._libpq_url(), autocommit=True, **postgres_params()
        )
        cursor = await conn.execute("SELECT pg_try_advisory_lock(hashtext(%s))", (self.owner,))
        row = await cursor.fetchone()
        if row is None or not row[0]:
            await conn.close()
            raise InstanceTakenError(self.owner)
        await conn.execute(f"LISTEN {CHANNEL}")
        self._listener = conn
        return conn

    async def _listen(
        self, conn: psycopg.AsyncConnection[Any], on_notice: Callable[[Notice], Awaitable[None]]
    ) -> None:
        while True:
            try:
                async for received in conn.notifies():
                    notice = Notice.parse(received.payload)
                    if notice is None or notice.sender == self.owner:
                        continue
                    try:
                        await on_notice(notice)
                    except Exception:
                        log.exception("notice %r could not be handled", received.payload)
            except psycopg.Error as error:
                log.error("the notices' connection failed (%s)", type(error).__name__)
            # Lost (the database restarted): the leases still fence every write; listen again.
            while True:
                await asyncio.sleep(RENEW_S)
                try:
                    conn = await self._connect()
                    break
                except (psycopg.Error, InstanceTakenError) as error:
                    log.error("the notices' connection is not back (%s)", error)

    async def stop(self) -> None:
        """Stop listening and let the name go (the leases stay: :meth:`release_all`)."""
        if self._listening is not None:
            self._listening.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._listening
        if self._listener is not None:
            with contextlib.suppress(Exception):
                await self._listener.close()
        self._renewer.shutdown(wait=False, cancel_futures=True)
        if self._renewing is not None:
            with contextlib.suppress(Exception):
                self._renewing.close()

    async def notify(self, notice: Notice) -> None:
        """Send ``notice`` to every process of the database."""
        await asyncio.to_thread(self._execute, _NOTIFY, channel=CHANNEL, payload=notice.payload())

    def _execute(self, statement: Any, **params: Any) -> list[Any]:
        with self.engine.begin() as conn:
            result = conn.execute(statement, params)
            return list(result.fetchall()) if result.returns_rows else []

    # ----- leases ----------------------------------------------------------------------------

    async def acquire(self, room_id: str) -> Lease:
        """Take (or renew) the lease of ``room_id`` unless another live process holds it."""
        return await asyncio.to_thread(self._acquire, room_id)

    def _acquire(self, room_id: str) -> Lease:
        try:
            with self.engine.begin() as conn:
                conn.execute(_ACQUIRE_WAIT)
                taken = conn.execute(
                    _ACQUIRE, {"room": room_id, "owner": self.owner, "lease": LEASE_S}
                ).first()
                if taken is not None:
                    return Lease(True, self.owner)
                holder = conn.execute(_OWNER, {"room": room_id}).first()
        except DBAPIError as error:
            if not isinstance(error.orig, psycopg.errors.LockNotAvailable):
                raise
            # Its owner (or a stalled process) holds the row: not now.
            rows = self._execute(_OWNER, room=room_id)
            holder = rows[0] if rows else None
        return Lease(False, str(holder[0]) if holder is not None else "")

    async def renew(self) -> set[str]:
        """Renew every lease this process holds, on a connection and a thread of its own;
        the rooms it still holds.  Once it succeeded, the process is not :attr:`lapsed`
        until :data:`SELF_FENCE_S` after the moment it was sent."""
        sent = time.monotonic()
        loop = asyncio.get_running_loop()
        rooms = await loop.run_in_executor(self._renewer, self._renew)
        self._renewed = max(self._renewed, sent)
        return rooms

    def _renew(self) -> set[str]:
        conn = self._renewing
        try:
            if conn is None or conn.closed:
                conn = self._renewing = psycopg.connect(
                    self._libpq_url(),
                    autocommit=True,
                    **postgres_params(lock_timeout_s=LOCK_TIMEOUT_S),
                )
            rows = conn.execute(_RENEW, {"owner": self.owner, "lease": LEASE_S}).fetchall()
        except psycopg.Error:
            if conn is not None:
                conn.close()
            self._renewing = None
            raise
        return {str(row[0]) for row in rows}

    async def release(self, room_id: str) -> None:
        """Give up the lease of ``room_id`` (another process may take the room at once)."""
        await asyncio.to_thread(self._execute, _RELEASE, room=room_id, owner=self.owner)

    async def release_all(self) -> None:
        """Give up every lease of this process (it stops)."""
        await asyncio.to_thread(self._execute, _RELEASE_ALL, owner=self.owner)

    def claim_new(self, conn: Connection, room_id: str) -> None:
        """Hold the lease of the room ``room_id`` being created, in the creating transaction
        (:class:`LeaseLostError` when this process is not :meth:`serving`)."""
        if not self.serving():
            raise LeaseLostError(room_id)
        conn.execute(_CLAIM_NEW, {"room": room_id, "owner": self.owner, "lease": LEASE_S})

    def fence(self, conn: Connection, room_ids: Collection[str]) -> set[str]:
        """Of ``room_ids``, the rooms whose lease this process holds, unexpired, in the
        transaction of ``conn``: their lease rows stay locked (shared) until it ends, so
        nobody takes them over meanwhile.  None while this process is not :meth:`serving`,
        nor when the rows stay locked by another transaction longer than
        :data:`LOCK_TIMEOUT_S` (a take-over under way)."""
        if not room_ids or not self.serving():
            return set()
        try:
            with conn.begin_nested():
                rows = conn.execute(
                    _FENCE, {"owner": self.owner, "rooms": sorted(set(room_ids))}
                ).fetchall()
        except DBAPIError as error:
            if not isinstance(error.orig, psycopg.errors.LockNotAvailable):
                raise
            return set()
        return {str(row[0]) for row in rows}

    async def orphans(self, limit: int = 50) -> Sequence[str]:
        """Rooms in play that nobody holds (their owner died or gave them up), in random
        order so that the living processes share them."""
        rows = await asyncio.to_thread(self._execute, _ORPHANS, limit=limit)
        return [str(row[0]) for row in rows]


__all__ = [
    "ACQUIRE_LOCK_TIMEOUT_S",
    "CHANNEL",
    "IDLE_IN_TRANSACTION_S",
    "LEASE_S",
    "LOCK_TIMEOUT_S",
    "NOTICE_KINDS",
    "RENEW_S",
    "SELF_FENCE_S",
    "InstanceTakenError",
    "Lease",
    "LeaseLostError",
    "Leases",
    "Notice",
    "libpq_url",
]
