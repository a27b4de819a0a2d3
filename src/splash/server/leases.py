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
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any, Final

import psycopg
from sqlalchemy import Connection, Engine, text
from sqlalchemy.engine import make_url

log = logging.getLogger("splash.server")

LEASE_S: Final = 5.0
"""How long a lease lasts without being renewed."""
RENEW_S: Final = 1.0
"""How often an owner renews its leases (and looks for rooms whose owner died)."""
CHANNEL: Final = "splash_rooms"
"""The ``NOTIFY`` channel of the processes of one database."""

_NOW: Final = "extract(epoch from clock_timestamp())::float8"

_ACQUIRE = text(
    f"""
    INSERT INTO room_leases (room_id, owner, expires_at)
    VALUES (:room, :owner, {_NOW} + :lease)
    ON CONFLICT (room_id) DO UPDATE
        SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at
        WHERE room_leases.owner = EXCLUDED.owner OR room_leases.expires_at < {_NOW}
    RETURNING owner
    """
)
_OWNER = text(f"SELECT owner, expires_at - {_NOW} FROM room_leases WHERE room_id = :room")
_RENEW = text(
    f"UPDATE room_leases SET expires_at = {_NOW} + :lease WHERE owner = :owner RETURNING room_id"
)
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

    # ----- the process's name and its notices ----------------------------------------------

    async def start(self, on_notice: Callable[[Notice], Awaitable[None]]) -> None:
        """Hold the instance name (:class:`InstanceTakenError` when a live process holds it)
        and call ``on_notice`` for each notice another process sends."""
        conn = await self._connect()
        self._listening = asyncio.create_task(self._listen(conn, on_notice), name="leases-listen")

    async def _connect(self) -> psycopg.AsyncConnection[Any]:
        """A connection that holds the instance name and listens to :data:`CHANNEL`."""
        conn = await psycopg.AsyncConnection.connect(
            libpq_url(self.engine.url.render_as_string(hide_password=False)), autocommit=True
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
        with self.engine.begin() as conn:
            taken = conn.execute(
                _ACQUIRE, {"room": room_id, "owner": self.owner, "lease": LEASE_S}
            ).first()
            if taken is not None:
                return Lease(True, self.owner)
            holder = conn.execute(_OWNER, {"room": room_id}).first()
        return Lease(False, str(holder[0]) if holder is not None else "")

    async def renew(self) -> set[str]:
        """Renew every lease this process holds; the rooms it still holds."""
        rows = await asyncio.to_thread(self._execute, _RENEW, owner=self.owner, lease=LEASE_S)
        return {str(row[0]) for row in rows}

    async def release(self, room_id: str) -> None:
        """Give up the lease of ``room_id`` (another process may take the room at once)."""
        await asyncio.to_thread(self._execute, _RELEASE, room=room_id, owner=self.owner)

    async def release_all(self) -> None:
        """Give up every lease of this process (it stops)."""
        await asyncio.to_thread(self._execute, _RELEASE_ALL, owner=self.owner)

    def claim_new(self, conn: Connection, room_id: str) -> None:
        """Hold the lease of the room ``room_id`` being created, in the creating transaction."""
        conn.execute(_CLAIM_NEW, {"room": room_id, "owner": self.owner, "lease": LEASE_S})

    def fence(self, conn: Connection, room_ids: Collection[str]) -> set[str]:
        """Of ``room_ids``, the rooms whose lease this process holds, unexpired, in the
        transaction of ``conn``: their lease rows stay locked (shared) until it ends, so
        nobody takes them over meanwhile."""
        if not room_ids:
            return set()
        rows = conn.execute(_FENCE, {"owner": self.owner, "rooms": sorted(set(room_ids))})
        return {str(row[0]) for row in rows}

    async def orphans(self, limit: int = 50) -> Sequence[str]:
        """Rooms in play that nobody holds (their owner died or gave them up), in random
        order so that the living processes share them."""
        rows = await asyncio.to_thread(self._execute, _ORPHANS, limit=limit)
        return [str(row[0]) for row in rows]


__all__ = [
    "CHANNEL",
    "LEASE_S",
    "NOTICE_KINDS",
    "RENEW_S",
    "InstanceTakenError",
    "Lease",
    "LeaseLostError",
    "Leases",
    "Notice",
    "libpq_url",
]
