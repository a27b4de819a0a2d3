"""Durable storage of rooms, seats and action logs (SQLAlchemy Core; SQLite or PostgreSQL).

Every function is keyword-only and runs in its own transaction, committed before it returns:
an action stored by :func:`append_action` survives a crash of the process the moment the call
returns.  The functions are blocking; the server calls them from a worker thread.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    event,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from splash.core.actions import Json
from splash.server.migrate import Upgrade, upgrade_store

metadata = MetaData()

rooms = Table(
    "rooms",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(100), nullable=False),
    Column("game", String(16), nullable=False),
    Column("mode", String(16), nullable=False),
    Column("settings", Text, nullable=False),
    Column("options", Text, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("referee_token", String(64)),
    Column("status", String(16), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("host_token", String(64)),
    Column("last_activity_at", Float),
    Column("closed_by", String(8)),
    Column("rematch", String(32)),
    Column("secret", String(64)),
)

OPEN_STATUSES = ("open", "playing")
"""The statuses of a room whose game has not ended (``over``) nor been ``closed``."""

seats = Table(
    "seats",
    metadata,
    Column("room_id", String(32), ForeignKey("rooms.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("name", String(100)),
    Column("bot", String(200)),
    Column("token", String(64)),
    Column("connections", Integer),
    Column("client_seed", String(64)),
)
"""One row a seat; ``connections``: how many connections the seat has open on the process
that serves the room (``NULL``: none), which every process's lobby shows."""

actions = Table(
    "actions",
    metadata,
    Column("room_id", String(32), ForeignKey("rooms.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("action", Text, nullable=False),
    Column("actor", Integer, nullable=False),
    Column("source", String(16), nullable=False),
    Column("created_at", Float, nullable=False),
)


room_leases = Table(
    "room_leases",
    metadata,
    Column("room_id", String(32), primary_key=True),
    Column("owner", String(200), nullable=False),
    Column("expires_at", Float, nullable=False),
)
"""Which server process owns each room, until when (:mod:`splash.server.leases`; used only
when several processes share a PostgreSQL database)."""


class StorageConflictError(RuntimeError):
    """A write lost a race: the action index or the seat was taken meanwhile."""


@dataclass(frozen=True)
class RoomRow:
    """A stored room (``settings``: the ``--set`` assignments; ``options``: room options)."""

    id: str
    name: str
    game: str
    mode: str
    settings: list[str]
    options: dict[str, Any]
    seed: int
    referee_token: str | None
    status: str
    created_at: float
    host_token: str | None = None
    """The hash of the creator's secret token (``None`` for rooms of older databases)."""
    last_activity_at: float | None = None
    """When the room last saw activity (``None``: its creation, ``created_at``)."""
    closed_by: str | None = None
    """Why a ``closed`` room was closed: ``host`` or ``idle`` (``None`` otherwise)."""
    rematch: str | None = None
    """The id of the room of this game's rematch, once one was asked for."""
    secret: str | None = None
    """The room's secret, in hex (:mod:`splash.core.fairness`); ``None``: a room that draws
    from its ``seed`` alone (a referee room without digital events, or a room stored before
    rooms had secrets)."""

    @property
    def last_activity(self) -> float:
        """When the room last saw activity, its creation for rooms of older databases."""
        return self.created_at if self.last_activity_at is None else self.last_activity_at


@dataclass(frozen=True)
class SeatRow:
    """A stored seat: ``kind`` is ``open``, ``human`` or ``bot``; ``token`` is a hash."""

    seat: int
    kind: str
    name: str | None = None
    bot: str | None = None
    token: str | None = None
    connections: int = 0
    """The connections the seat has open on the process that serves the room."""
    client_seed: str | None = None
    """The seed the person who took the seat added to the room's chance."""


@dataclass(frozen=True)
class ActionRow:
    """One stored action: its index in the log, its JSON form, who played it and how."""

    index: int
    action: Json
    actor: int
    source: str


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


CONNECT_TIMEOUT_S = 5
"""How long a PostgreSQL connection may take to open (libpq's ``connect_timeout``)."""
TCP_USER_TIMEOUT_MS = 5000
"""How long data sent on a PostgreSQL connection may stay unacknowledged by the other end
before the kernel drops the connection (``tcp_user_timeout``, both ends): a lease's length."""
KEEPALIVES_IDLE_S = 5
"""After this long without traffic, a PostgreSQL connection is probed (both ends)..."""
KEEPALIVES_INTERVAL_S = 1
"""... every second ..."""
KEEPALIVES_COUNT = 3
"""... and dropped after three probes unanswered: a silent peer is found within 8 s."""


def postgres_params(
    *,
    connect_timeout: float | None = CONNECT_TIMEOUT_S,
    idle_in_transaction_s: float | None = None,
    lock_timeout_s: float | None = None,
) -> dict[str, Any]:
    """The libpq parameters of every PostgreSQL connection of the server: ``connect_timeout``
    (``None``: wait forever), ``tcp_user_timeout`` and keepalives for this end, and the
    matching session settings for the server's end (``options``), so that PostgreSQL drops
    the sessions of a process cut off from it, with their locks.  ``idle_in_transaction_s``
    and ``lock_timeout_s`` bound a session's open transaction and its waits on locks."""
    settings = {
        "tcp_keepalives_idle": KEEPALIVES_IDLE_S,
        "tcp_keepalives_interval": KEEPALIVES_INTERVAL_S,
        "tcp_keepalives_count": KEEPALIVES_COUNT,
        "tcp_user_timeout": TCP_USER_TIMEOUT_MS,
    }
    if idle_in_transaction_s is not None:
        settings["idle_in_transaction_session_timeout"] = round(idle_in_transaction_s * 1000)
    if lock_timeout_s is not None:
        settings["lock_timeout"] = round(lock_timeout_s * 1000)
    params: dict[str, Any] = {
        "keepalives": 1,
        "keepalives_idle": KEEPALIVES_IDLE_S,
        "keepalives_interval": KEEPALIVES_INTERVAL_S,
        "keepalives_count": KEEPALIVES_COUNT,
        "tcp_user_timeout": TCP_USER_TIMEOUT_MS,
        "options": " ".join(f"-c {name}={value}" for name, value in settings.items()),
    }
    if connect_timeout is not None:
        # libpq counts whole seconds, and takes fewer than 2 as 2.
        params["connect_timeout"] = max(2, round(connect_timeout))
    return params


def make_engine(
    url: str,
    *,
    connect_timeout: float | None = CONNECT_TIMEOUT_S,
    idle_in_transaction_s: float | None = None,
    lock_timeout_s: float | None = None,
) -> Engine:
    """An engine for ``url``; SQLite gets a write-ahead log, full syncs and a busy timeout;
    a PostgreSQL connection gets :func:`postgres_params`: it gives up after
    ``connect_timeout`` seconds (``None``: never), drops a silent peer, and its session
    bounds an idle transaction and a wait on a lock when given."""
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 10})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    args = postgres_params(
        connect_timeout=connect_timeout,
        idle_in_transaction_s=idle_in_transaction_s,
        lock_timeout_s=lock_timeout_s,
    )
    return create_engine(url, pool_pre_ping=True, connect_args=args)


def create_schema(*, engine: Engine) -> Upgrade:
    """Bring the store to this version's schema (:func:`~splash.server.migrate.upgrade_store`:
    an empty store gets every table, an older one its migrations, a newer one is refused)."""
    return upgrade_store(engine)


def insert_room(*, engine: Engine, room: RoomRow, seat_rows: Sequence[SeatRow]) -> None:
    """Store a new room and its seats in one transaction."""
    with engine.begin() as conn:
        write_room(conn, room, seat_rows)


_INSERT_ROOM = insert(rooms)
_INSERT_SEATS = insert(seats)
_FILL_SEAT = (
    update(seats)
    .where(
        seats.c.room_id == bindparam("b_room"),
        seats.c.seat == bindparam("b_seat"),
        seats.c.kind == "open",
    )
    .values(
        kind=bindparam("b_kind"),
        name=bindparam("b_name"),
        bot=bindparam("b_bot"),
        token=bindparam("b_token"),
        client_seed=bindparam("b_client_seed"),
    )
)
_LATER_ACTIVITY = (
    update(rooms)
    .where(
        rooms.c.id == bindparam("b_room"),
        or_(rooms.c.last_activity_at.is_(None), rooms.c.last_activity_at < bindparam("b_at")),
    )
    .values(last_activity_at=bindparam("b_at"))
)
_SET_STATUS = (
    update(rooms).where(rooms.c.id == bindparam("b_room")).values(status=bindparam("b_status"))
)
_COUNT_ROOMS = (
    select(func.count())
    .select_from(rooms)
    .where(rooms.c.status.in_(bindparam("b_statuses", expanding=True)))
)
"""The statements of the writes a room's creation and a seat make, built once."""


def write_room(conn: Connection, room: RoomRow, seat_rows: Sequence[SeatRow]) -> None:
    """Store a new room and its seats in the transaction of ``conn``."""
    conn.execute(
        _INSERT_ROOM,
        {
            "id": room.id,
            "name": room.name,
            "game": room.game,
            "mode": room.mode,
            "settings": json.dumps(room.settings),
            "options": json.dumps(room.options),
            "seed": room.seed,
            "referee_token": room.referee_token,
            "status": room.status,
            "created_at": room.created_at,
            "host_token": room.host_token,
            "last_activity_at": room.last_activity_at,
            "secret": room.secret,
        },
    )
    conn.execute(
        _INSERT_SEATS,
        [
            {
                "room_id": room.id,
                "seat": s.seat,
                "kind": s.kind,
                "name": s.name,
                "bot": s.bot,
                "token": s.token,
                "client_seed": s.client_seed,
            }
            for s in seat_rows
        ],
    )


def _room(row: Any) -> RoomRow:
    return RoomRow(
        id=row.id,
        name=row.name,
        game=row.game,
        mode=row.mode,
        settings=json.loads(row.settings),
        options=json.loads(row.options),
        seed=int(row.seed),
        referee_token=row.referee_token,
        status=row.status,
        created_at=float(row.created_at),
        host_token=row.host_token,
        last_activity_at=None if row.last_activity_at is None else float(row.last_activity_at),
        closed_by=row.closed_by,
        rematch=row.rematch,
        secret=row.secret,
    )


def get_room(*, engine: Engine, room_id: str) -> RoomRow | None:
    """The room ``room_id``, or ``None``."""
    with engine.connect() as conn:
        row = conn.execute(select(rooms).where(rooms.c.id == room_id)).first()
    return None if row is None else _room(row)


def list_rooms(
    *, engine: Engine, limit: int, status: str | None = None, exclude: Sequence[str] = ()
) -> list[RoomRow]:
    """The newest rooms first (only those of ``status`` when given, none of ``exclude``)."""
    query = select(rooms).order_by(rooms.c.created_at.desc()).limit(limit)
    if status is not None:
        query = query.where(rooms.c.status == status)
    if exclude:
        query = query.where(rooms.c.status.not_in(list(exclude)))
    with engine.connect() as conn:
        return [_room(row) for row in conn.execute(query)]


def count_rooms(*, engine: Engine, statuses: Sequence[str]) -> int:
    """How many rooms have one of ``statuses``."""
    with engine.connect() as conn:
        return counted_rooms(conn, statuses)


def counted_rooms(conn: Connection, statuses: Sequence[str]) -> int:
    """How many rooms have one of ``statuses``, as the transaction of ``conn`` sees them."""
    return int(conn.execute(_COUNT_ROOMS, {"b_statuses": list(statuses)}).scalar_one())


def list_seats(*, engine: Engine, room_id: str) -> list[SeatRow]:
    """The seats of ``room_id``, in seat order."""
    query = select(seats).where(seats.c.room_id == room_id).order_by(seats.c.seat)
    with engine.connect() as conn:
        return [
            SeatRow(r.seat, r.kind, r.name, r.bot, r.token, r.connections or 0, r.client_seed)
            for r in conn.execute(query)
        ]


def seats_of(*, engine: Engine, room_ids: Sequence[str]) -> dict[str, list[SeatRow]]:
    """The seats of each of ``room_ids`` (in seat order), in one query."""
    found: dict[str, list[SeatRow]] = {room_id: [] for room_id in room_ids}
    if not room_ids:
        return found
    query = (
        select(seats)
        .where(seats.c.room_id.in_(list(room_ids)))
        .order_by(seats.c.room_id, seats.c.seat)
    )
    with engine.connect() as conn:
        for r in conn.execute(query):
            found[r.room_id].append(
                SeatRow(r.seat, r.kind, r.name, r.bot, r.token, r.connections or 0, r.client_seed)
            )
    return found


def set_connections(conn: Connection, room_id: str, counts: dict[int, int]) -> None:
    """Record how many connections each seat of ``room_id`` has open (``counts``: by seat)
    in the transaction of ``conn``."""
    for seat, count in counts.items():
        conn.execute(
            update(seats)
            .where(seats.c.room_id == room_id, seats.c.seat == seat)
            .values(connections=count or None)
        )


def clear_connections(*, engine: Engine) -> None:
    """Forget every seat's connections (a process that serves every room of the store
    starts with none)."""
    with engine.begin() as conn:
        conn.execute(update(seats).where(seats.c.connections.is_not(None)).values(connections=None))


def held_rooms(*, engine: Engine, room_ids: Sequence[str]) -> set[str]:
    """Those of ``room_ids`` whose lease (:data:`room_leases`) has not run out by the
    database's clock, as the leases are dated: a live process serves them."""
    if not room_ids:
        return set()
    now: Any = (
        text("extract(epoch from clock_timestamp())::float8")
        if engine.dialect.name == "postgresql"
        else time.time()
    )
    query = select(room_leases.c.room_id).where(
        room_leases.c.room_id.in_(list(room_ids)), room_leases.c.expires_at > now
    )
    with engine.connect() as conn:
        return set(conn.execute(query).scalars())


def claim_seat(*, engine: Engine, room_id: str, seat: SeatRow) -> None:
    """Fill an open seat; :class:`StorageConflictError` when it is not open any more."""
    with engine.begin() as conn:
        write_seat(conn, room_id, seat)


def write_seat(
    conn: Connection,
    room_id: str,
    seat: SeatRow,
    *,
    at: float | None = None,
    status: str | None = None,
) -> None:
    """Fill an open seat in the transaction of ``conn``, and store ``at`` as the room's
    last activity (unless a later one is stored) and its new ``status`` when given; :class:`StorageConflictError` when
    the seat is not open any more."""
    result = conn.execute(
        _FILL_SEAT,
        {
            "b_room": room_id,
            "b_seat": seat.seat,
            "b_kind": seat.kind,
            "b_name": seat.name,
            "b_bot": seat.bot,
            "b_token": seat.token,
            "b_client_seed": seat.client_seed,
        },
    )
    if result.rowcount != 1:
        raise StorageConflictError(f"seat {seat.seat} of room {room_id} is not open")
    if at is not None:
        conn.execute(_LATER_ACTIVITY, {"b_room": room_id, "b_at": at})
    if status is not None:
        conn.execute(_SET_STATUS, {"b_room": room_id, "b_status": status})


def give_client_seed(
    conn: Connection, room_id: str, seat: int, seed: str, *, status: str | None = None
) -> bool:
    """Store, in the transaction of ``conn``, ``seed`` as the client seed of a person's seat
    that has none yet (and the room's new ``status`` when given and the seed was stored);
    whether it was stored."""
    result = conn.execute(
        update(seats)
        .where(
            seats.c.room_id == room_id,
            seats.c.seat == seat,
            seats.c.kind == "human",
            seats.c.client_seed.is_(None),
        )
        .values(client_seed=seed)
    )
    stored = bool(result.rowcount == 1)
    if stored and status is not None:
        conn.execute(_SET_STATUS, {"b_room": room_id, "b_status": status})
    return stored


def link_rematch(conn: Connection, room_id: str, rematch_id: str) -> None:
    """Store, in the transaction of ``conn``, that room ``rematch_id`` is the rematch of room
    ``room_id``; :class:`StorageConflictError` when it has one already."""
    result = conn.execute(
        update(rooms)
        .where(rooms.c.id == room_id, rooms.c.rematch.is_(None))
        .values(rematch=rematch_id)
    )
    if result.rowcount != 1:
        raise StorageConflictError(f"room {room_id} has a rematch already")


def give_seat_token(*, engine: Engine, room_id: str, seat: int, token: str) -> bool:
    """Store ``token`` (a hash) as the token of a person's seat that has none yet (a
    rematch's seat whose person was not connected when it was made); whether it did."""
    with engine.begin() as conn:
        result = conn.execute(
            update(seats)
            .where(
                seats.c.room_id == room_id,
                seats.c.seat == seat,
                seats.c.kind == "human",
                seats.c.token.is_(None),
            )
            .values(token=token)
        )
        return bool(result.rowcount == 1)


def give_referee_token(*, engine: Engine, room_id: str, token: str) -> bool:
    """Store ``token`` (a hash) as the referee token of a referee room that has none yet;
    whether it did."""
    with engine.begin() as conn:
        result = conn.execute(
            update(rooms)
            .where(
                rooms.c.id == room_id, rooms.c.mode == "referee", rooms.c.referee_token.is_(None)
            )
            .values(referee_token=token)
        )
        return bool(result.rowcount == 1)


def set_status(*, engine: Engine, room_id: str, status: str) -> None:
    """Change a room's status (``open``, ``playing``, ``over``, ``closed``)."""
    with engine.begin() as conn:
        conn.execute(update(rooms).where(rooms.c.id == room_id).values(status=status))


def close_room(*, engine: Engine, room_id: str, by: str) -> None:
    """Store that a room is ``closed``, ``by`` its ``host`` or for being ``idle``."""
    with engine.begin() as conn:
        conn.execute(
            update(rooms).where(rooms.c.id == room_id).values(status="closed", closed_by=by)
        )


def touch_room(*, engine: Engine, room_id: str, at: float) -> None:
    """Store ``at`` as the room's last activity, unless a later one is stored."""
    with engine.begin() as conn:
        conn.execute(
            update(rooms)
            .where(
                rooms.c.id == room_id,
                or_(rooms.c.last_activity_at.is_(None), rooms.c.last_activity_at < at),
            )
            .values(last_activity_at=at)
        )


def _last_activity() -> Any:
    """A room's last activity, its creation for a room stored before activity was kept."""
    return func.coalesce(rooms.c.last_activity_at, rooms.c.created_at)


def idle_rooms(*, engine: Engine, before: float, limit: int = 1000) -> list[str]:
    """The ids of the rooms whose game has not ended and whose last activity is older than
    ``before``, the least recently active first."""
    query = (
        select(rooms.c.id)
        .where(rooms.c.status.in_(list(OPEN_STATUSES)), _last_activity() < before)
        .order_by(_last_activity())
        .limit(limit)
    )
    with engine.connect() as conn:
        return [str(row.id) for row in conn.execute(query)]


def close_if_idle(*, engine: Engine, room_id: str, before: float) -> bool:
    """Close room ``room_id`` (``closed_by`` ``idle``) if its game has not ended and its last
    activity is older than ``before``; whether it did, in one statement."""
    with engine.begin() as conn:
        result = conn.execute(
            update(rooms)
            .where(
                rooms.c.id == room_id,
                rooms.c.status.in_(list(OPEN_STATUSES)),
                _last_activity() < before,
            )
            .values(status="closed", closed_by="idle")
        )
        return bool(result.rowcount == 1)


@dataclass(frozen=True)
class NewAction:
    """An action to store: action ``index`` of room ``room_id``'s log, played at ``at``
    (seconds since the epoch), ``over`` when it ends the game."""

    room_id: str
    index: int
    action: Json
    actor: int
    source: str
    at: float
    over: bool = False


def append_action(
    *,
    engine: Engine,
    room_id: str,
    index: int,
    action: Json,
    actor: int,
    source: str,
    at: float | None = None,
) -> None:
    """Store action ``index`` of a room's log, committed before this returns, and ``at``
    (the time of the action, now by default) as the room's last activity.

    Raises :class:`StorageConflictError` when the index is already stored.
    """
    entry = NewAction(room_id, index, action, actor, source, time.time() if at is None else at)
    with engine.begin() as conn:
        write_actions(conn, [entry])


_INSERT_ACTIONS = insert(actions)
_TOUCH_ROOMS = (
    update(rooms).where(rooms.c.id == bindparam("room")).values(last_activity_at=bindparam("at"))
)
"""The statements of :func:`write_actions`, built once (each call only binds its rows)."""


def write_actions(conn: Connection, entries: Sequence[NewAction]) -> None:
    """Store ``entries`` (of any rooms) in the transaction of ``conn``: the actions, each
    room's last activity (its latest action's time) and the status ``over`` of the rooms
    whose game they end.

    Raises :class:`StorageConflictError` when an index is already stored (the caller rolls
    the transaction back).
    """
    if not entries:
        return
    try:
        conn.execute(
            _INSERT_ACTIONS,
            [
                {
                    "room_id": e.room_id,
                    "idx": e.index,
                    "action": json.dumps(e.action, sort_keys=True),
                    "actor": e.actor,
                    "source": e.source,
                    "created_at": e.at,
                }
                for e in entries
            ],
        )
    except IntegrityError as error:
        raise StorageConflictError(f"{len(entries)} actions: an index exists") from error
    latest: dict[str, float] = {}
    for e in entries:
        latest[e.room_id] = max(e.at, latest.get(e.room_id, e.at))
    conn.execute(_TOUCH_ROOMS, [{"room": room, "at": at} for room, at in latest.items()])
    ended = sorted({e.room_id for e in entries if e.over})
    if ended:
        conn.execute(update(rooms).where(rooms.c.id.in_(ended)).values(status="over"))


def load_actions(*, engine: Engine, room_id: str) -> list[ActionRow]:
    """A room's whole log, in order."""
    query = select(actions).where(actions.c.room_id == room_id).order_by(actions.c.idx)
    with engine.connect() as conn:
        return [
            ActionRow(r.idx, json.loads(r.action), r.actor, r.source) for r in conn.execute(query)
        ]


def count_actions(*, engine: Engine, room_id: str) -> int:
    """How many actions a room's log holds."""
    query = select(func.count()).select_from(actions).where(actions.c.room_id == room_id)
    with engine.connect() as conn:
        return int(conn.execute(query).scalar_one())
