"""The rooms of a running server: created, loaded from storage on demand, resumed at start.

A room's state is never stored: it is rebuilt by replaying the line of play of the stored
action log (chance outcomes included, takebacks applied: :mod:`splash.server.line`), so a
restarted server goes on exactly where the log ends.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from sqlalchemy import Connection

from splash.core.actions import Json
from splash.core.errors import OptionError
from splash.core.fairness import new_secret
from splash.core.i18n import message
from splash.core.protocol import Game
from splash.core.record import GameRecord
from splash.server import storage
from splash.server.leases import LEASE_S, SELF_FENCE_S, Leases, Notice
from splash.server.line import line_of_play
from splash.server.logs import about
from splash.server.options import Member, RoomOptions, Seat
from splash.server.protocol import ProtocolError, room_closed
from splash.server.reveal import reveal
from splash.server.room import Room, Runtime, replay_recent
from splash.server.rules import build_game, check_bot, game_summary
from splash.server.storage import RoomRow, SeatRow

log = logging.getLogger("splash.server")


GAMES_KEPT = 64
"""How many built games (one per game, settings and mode) the hub keeps at hand."""

ENDED_ROOMS_KEPT = 64
"""How many rooms whose game is over, with no connection open, the hub keeps in memory (the
most recently used); an older one is loaded from storage again when it is asked for."""


class RoomNotFoundError(LookupError):
    """No room has this id."""


class RoomMovedError(LookupError):
    """Another live server process owns the room (``owner``); it was asked to hand it over,
    so that a new try here usually finds it free."""

    def __init__(self, room_id: str, owner: str) -> None:
        super().__init__(room_id)
        self.room_id = room_id
        self.owner = owner


HANDOVER_WAIT_S = 3.0
"""How long a request that changes a room another process owns waits for its hand-over."""


class SeatTakenError(LookupError):
    """The seat is not open (or does not exist)."""


class GameRunningError(LookupError):
    """The replay of a game that has not ended is refused (it would show hidden cards)."""


class RoomClosedError(LookupError):
    """The room was closed (``reason``: by its ``host``, or ``idle``): nobody may take a
    seat, join it or close it again."""

    def __init__(self, room_id: str, reason: str | None) -> None:
        super().__init__(room_id)
        self.reason = reason or "host"


class HostTokenError(PermissionError):
    """The token is not the room's host token (or the room has none: an older room)."""


class TooManyRoomsError(RuntimeError):
    """The server already has its most rooms open (``max_open_rooms``)."""

    def __init__(self, limit: int) -> None:
        super().__init__(limit)
        self.limit = limit


def _who(member: Member) -> str:
    """A connection in a log line: its role, and its seat (never its token)."""
    return f"seat {member.seat}" if member.role == "seat" else str(member.role)


def token_hash(token: str) -> str:
    """What the database keeps of a secret token (a seat's, the referee's, the host's)."""
    return hashlib.sha256(token.encode()).hexdigest()


def rematch_token(token: str, room_id: str) -> str:
    """The secret token, in rematch room ``room_id``, of the person who joined the room it
    follows with ``token``: the same at each request, and only theirs (derived from their
    own secret, never stored)."""
    digest = hmac.new(token.encode(), f"rematch:{room_id}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


class RoomHub:
    """Every room this process serves, keyed by id.

    A room is kept in memory once loaded while its game is not over, or while a connection
    is open on it.  Of the rooms whose game is over and that nobody is connected to, only
    the ``ended_rooms_kept`` used last stay (the others are loaded from storage again when
    asked for); a closed room is read from storage for each request and never kept.
    ``idle_room_close_s`` (``0``: never) is how long a room without connections may go
    without activity before :meth:`expire_idle` closes it.

    With ``leases`` (several processes on one PostgreSQL database), a room is served only
    while this process holds its lease: :meth:`get` takes the lease first, or raises
    :class:`RoomMovedError` after asking the owner to hand the room over; :meth:`keep`
    renews the leases, lets go of the rooms lost, and takes over the rooms in play whose
    owner died.
    """

    def __init__(
        self,
        runtime: Runtime,
        *,
        max_open_rooms: int | None = None,
        idle_room_close_s: float = 0,
        ended_rooms_kept: int = ENDED_ROOMS_KEPT,
        leases: Leases | None = None,
    ) -> None:
        self.runtime = runtime
        self.leases = leases
        self.max_open_rooms = max_open_rooms
        self.idle_room_close_s = idle_room_close_s
        self.ended_rooms_kept = ended_rooms_kept
        self._rooms: dict[str, Room] = {}
        self._finished: OrderedDict[str, None] = OrderedDict()
        """The ids of the rooms in memory whose game is over and that have no connection,
        the one used last at the end."""
        self._loading = asyncio.Lock()
        self._releases: set[asyncio.Task[None]] = set()
        self._handed: dict[str, float] = {}
        """The rooms this process handed over on request, and when (monotonic): its sweep
        leaves each to the process that asked for a lease's time."""
        self._games: dict[tuple[str, tuple[str, ...], str], Game] = {}

    async def _game(self, game_id: str, settings: Sequence[str], mode: str) -> Game:
        """The game of a room (:func:`~splash.server.rules.build_game`), built in a worker
        thread the first time only: the games are shared by the rooms of equal settings."""
        key = (game_id, tuple(settings), mode)
        game = self._games.get(key)
        if game is None:
            game = await asyncio.to_thread(build_game, game_id, settings, mode)
            if len(self._games) >= GAMES_KEPT:  # settings come from outside: keep a few
                del self._games[next(iter(self._games))]
            self._games[key] = game
        return game

    async def _db(self, fn: Any, **kwargs: Any) -> Any:
        return await asyncio.to_thread(fn, engine=self.runtime.engine, **kwargs)

    # ----- creating and finding rooms ------------------------------------------------------

    async def create(
        self,
        *,
        game_id: str,
        mode: str,
        settings: Sequence[str],
        options: RoomOptions,
        name: str,
        bots: Sequence[str | None] = (),
    ) -> tuple[Room, str, str | None]:
        """A new room (stored), its host's token (to close it), and the referee's token for
        a referee room.

        Raises :class:`~splash.core.errors.OptionError` for a bad setting or bot, and
        :class:`TooManyRoomsError` when ``max_open_rooms`` rooms are open already.
        """
        game = await self._game(game_id, settings, mode)
        check_bot(game_id, options.timer_bot, game)
        if mode == "referee" and any(bots):
            raise OptionError("bots", list(bots), message("a refereed game has no bots"))
        if len(bots) > game.num_seats:
            raise OptionError(
                "bots",
                list(bots),
                message("more bots than seats ({seats})", seats=game.num_seats),
            )
        seats = [Seat(i) for i in range(game.num_seats)]
        for seat, spec in zip(seats, bots, strict=False):
            if spec:
                seat.kind, seat.bot = "bot", check_bot(game_id, spec, game)
        referee_token = secrets.token_urlsafe(24) if mode == "referee" else None
        host_token = secrets.token_urlsafe(24)
        status = "playing" if mode == "referee" or all(s.kind == "bot" for s in seats) else "open"
        now = self.runtime.clock()
        # A room whose chance the server draws commits to it: every play room, and a referee
        # room with digital events; a referee room's people enter their own dice.
        secret = new_secret() if mode != "referee" or options.digital else None
        row = RoomRow(
            id=secrets.token_hex(5),
            name=name,
            game=game_id,
            mode=mode,
            settings=list(settings),
            options=options.model_dump(mode="json"),
            seed=0 if secret is not None else secrets.randbits(62),
            referee_token=token_hash(referee_token) if referee_token else None,
            status=status,
            created_at=now,
            host_token=token_hash(host_token),
            last_activity_at=now,
            secret=secret.hex() if secret is not None else None,
        )
        room = await self._open(row, seats, game)
        return room, host_token, referee_token

    async def _open(
        self, row: RoomRow, seats: list[Seat], game: Game, *, rematch_of: str | None = None
    ) -> Room:
        """Store the new room ``row`` with its ``seats`` (and, for a rematch, the link from
        the room ``rematch_of``, in the same transaction), then hold it and start it.

        Raises :class:`TooManyRoomsError` when ``max_open_rooms`` rooms are open already.
        """
        seat_rows = [SeatRow(s.seat, s.kind, s.name, s.bot, s.token) for s in seats]
        limit = self.max_open_rooms

        def store(conn: Connection) -> bool:
            # In the writer's transaction: the rooms that the same batch created count too.
            if limit is not None and storage.counted_rooms(conn, storage.OPEN_STATUSES) >= limit:
                return False
            storage.write_room(conn, row, seat_rows)
            if self.leases is not None:
                self.leases.claim_new(conn, row.id)
            if rematch_of is not None:
                storage.link_rematch(conn, rematch_of, row.id)
            return True

        if not await self.runtime.writer.write(store):
            raise TooManyRoomsError(limit or 0)
        room = Room(row, seats, game, game.new_initial_state(), self.runtime, on_over=self._park)
        self._rooms[row.id] = room
        log.info(
            "room %s: created (%s, %s, %d seats, %s)",
            row.id,
            row.game,
            row.mode,
            len(seats),
            row.status,
            extra=about(row.id),
        )
        room.restart_timer()  # a rematch may start on a person's turn
        room.kick()
        return room

    async def create_rematch(self, room: Room, held: Mapping[int | None, str]) -> Room:
        """The rematch of ``room``, whose game is over (the caller holds its lock): a new
        room of the same game, mode, settings, options, name and host, the same seats (its
        bots with their specs), a new seed; stored with the link from ``room``.

        ``held`` maps each seat (``None``: the referee) whose person is connected to the
        token they joined with: their new tokens derive from it (:func:`rematch_token`).  A
        person's seat whose person is not connected gets its token when they ask for it
        (:meth:`claim_rematch`).  Raises :class:`TooManyRoomsError`.
        """
        room_id = secrets.token_hex(5)

        def hashed(key: int | None) -> str | None:
            token = held.get(key)
            return token_hash(rematch_token(token, room_id)) if token else None

        seats = [
            Seat(s.seat, s.kind, s.name, s.bot, hashed(s.seat) if s.kind == "human" else None)
            for s in room.seats
        ]
        referee = room.row.mode == "referee"
        now = self.runtime.clock()
        secret = new_secret() if room.row.secret is not None else None
        # A room that commits waits for its people's seeds, sent when they join it: each
        # is given once the new commitment is shown, so the server cannot aim at one.
        waits = secret is not None and any(s.kind == "human" for s in seats)
        filled = all(s.kind != "open" for s in seats)
        row = replace(
            room.row,
            id=room_id,
            settings=list(room.row.settings),
            options=dict(room.row.options),
            seed=0 if secret is not None else secrets.randbits(62),
            referee_token=hashed(None) if referee else None,
            status="playing" if referee or (filled and not waits) else "open",
            created_at=now,
            last_activity_at=now,
            closed_by=None,
            rematch=None,
            secret=secret.hex() if secret is not None else None,
        )
        rematch = await self._open(row, seats, room.game, rematch_of=room.id)
        room.row = replace(room.row, rematch=room_id)
        log.info("room %s: rematch in room %s", room.id, room_id, extra=about(room.id))
        return rematch

    async def claim_rematch(self, rematch_id: str, key: int | None, token: str) -> str:
        """The token of seat ``key`` (``None``: the referee) of rematch room ``rematch_id``
        for the person who joined the room it follows with ``token``; stored first when
        that seat has none yet (its person was not connected when the rematch was made)."""
        new = rematch_token(token, rematch_id)
        digest = token_hash(new)
        room = await self.get_owned(rematch_id)
        async with room.lock:
            if key is None:
                if room.row.referee_token is None and await room.db(
                    storage.give_referee_token, room_id=rematch_id, token=digest
                ):
                    room.row = replace(room.row, referee_token=digest)
            elif 0 <= key < len(room.seats):
                seat = room.seats[key]
                if (
                    seat.kind == "human"
                    and seat.token is None
                    and await room.db(
                        storage.give_seat_token, room_id=rematch_id, seat=key, token=digest
                    )
                ):
                    seat.token = digest
        return new

    async def get(self, room_id: str, *, ask: bool = True) -> Room:
        """The room ``room_id``, loaded from storage (its log replayed) if not in memory; a
        closed room is loaded for the caller only, and not kept.

        With leases, raises :class:`RoomMovedError` when another live process owns the room,
        after asking it (``ask``) to hand the room over."""
        room = self._rooms.get(room_id)
        if room is not None:
            self._touch(room_id)
            return room
        self._refuse_when_fenced(room_id)
        async with self._loading:
            room = self._rooms.get(room_id)
            if room is not None:
                self._touch(room_id)
                return room
            self._refuse_when_fenced(room_id)
            row = await self._db(storage.get_room, room_id=room_id)
            if row is None:
                raise RoomNotFoundError(room_id)
            if row.status != "closed" and self.leases is not None:
                lease = await self.leases.acquire(room_id)
                if not lease.held:
                    if ask:
                        await self.leases.notify(Notice("release", room_id, self.leases.owner))
                    raise RoomMovedError(room_id, lease.owner)
            try:
                room = await self._load(room_id, row)
            except BaseException:
                self._let_go(room_id)
                raise
            if room.status == "closed":
                return room
            self._rooms[room_id] = room
            self._park(room)
        async with room.lock:
            room.restart_timer()
            await room.store_connections()  # a process before this one may have left some
        room.kick()
        return room

    async def get_owned(self, room_id: str, wait: float = HANDOVER_WAIT_S) -> Room:
        """The room ``room_id`` as :meth:`get` gives it, waiting up to ``wait`` seconds for
        another process that owns it to hand it over (:class:`RoomMovedError` after)."""
        deadline = asyncio.get_running_loop().time() + wait
        while True:
            try:
                return await self.get(room_id)
            except RoomMovedError:
                if asyncio.get_running_loop().time() >= deadline:
                    raise
            await asyncio.sleep(0.1)

    async def peek(self, room_id: str) -> Room:
        """The room ``room_id`` to read: the one in memory, else (when another process may
        serve it) loaded from storage for the caller only, with no bots nor timers running."""
        room = self._rooms.get(room_id)
        if room is not None:
            return room
        if self.leases is None:
            return await self.get(room_id)
        return await self._load(room_id)

    async def _load(self, room_id: str, row: RoomRow | None = None) -> Room:
        if row is None:
            row = await self._db(storage.get_room, room_id=room_id)
        if row is None:
            raise RoomNotFoundError(room_id)
        seat_rows = await self._db(storage.list_seats, room_id=room_id)
        seats = [
            Seat(s.seat, s.kind, s.name, s.bot, s.token, s.connections, s.client_seed)
            for s in seat_rows
        ]
        rows = await self._db(storage.load_actions, room_id=room_id)
        line = line_of_play(rows)
        game = await self._game(row.game, row.settings, row.mode)
        placeholder = Room(row, seats, game, game.new_initial_state(), self.runtime)
        state, recent = await placeholder.run(replay_recent, game, line.rows())
        return Room(
            row, seats, game, state, self.runtime, recent=recent, line=line, on_over=self._park
        )

    async def resume_all(self) -> int:
        """Load every room whose game is under way, so that its bots and timers go on (with
        leases: those that no other process holds)."""
        if self.leases is not None:
            return await self.keep()
        await self._db(storage.clear_connections)  # this process serves every room
        rows = await self._db(storage.list_rooms, limit=10_000, status="playing")
        for row in rows:
            await self.get(row.id)
        return len(rows)

    async def count_open(self) -> int:
        """How many rooms of the database have a game that has not ended (open or playing),
        served by this process or not."""
        found: int = await self._db(storage.count_rooms, statuses=storage.OPEN_STATUSES)
        return found

    async def list(self, limit: int) -> list[storage.RoomRow]:
        """The newest rooms that are not closed."""
        rows: list[storage.RoomRow] = await self._db(
            storage.list_rooms, limit=limit, exclude=("closed",)
        )
        return rows

    def cached(self, room_id: str) -> Room | None:
        """The room if this process has it in memory."""
        return self._rooms.get(room_id)

    @property
    def in_memory(self) -> int:
        """How many rooms this process holds in memory."""
        return len(self._rooms)

    def _let_go(self, room_id: str) -> None:
        """Give up the lease of ``room_id``, in the background (only with leases)."""
        if self.leases is not None:
            task = asyncio.get_running_loop().create_task(self._release(room_id))
            self._releases.add(task)
            task.add_done_callback(self._releases.discard)

    async def _release(self, room_id: str) -> None:
        assert self.leases is not None
        try:
            await self.leases.release(room_id)
        except Exception as error:  # it expires by itself
            log.error(
                "room %s: lease not given up (%s)",
                room_id,
                type(error).__name__,
                extra=about(room_id),
            )

    # ----- several processes: leases, hand-overs, take-overs ----------------------------------

    async def on_notice(self, notice: Notice) -> None:
        """Another process asks for a room this one may own: hand it over."""
        if notice.kind == "release":
            await self.hand_over(notice.room)

    async def hand_over(self, room_id: str, *, release: bool = True) -> bool:
        """Stop serving ``room_id`` here: its connections are told ``moved`` (and reconnect),
        its bots and timer stop, it leaves memory, and (``release``) its lease is given up
        so that another process takes it at once.  Whether it was served here."""
        room = self._rooms.get(room_id)
        if room is None:
            return False
        async with room.lock:
            if self._rooms.get(room_id) is not room:
                return False
            await room.move_out()
            del self._rooms[room_id]
            self._finished.pop(room_id, None)
            if release and self.leases is not None:
                # Under the lock: no write of the room is in flight.
                await self._release(room_id)
                self._handed[room_id] = time.monotonic()
        await room.close()
        self.runtime.metrics.handed_over(released=release)
        log.info(
            "room %s: handed over (%s)",
            room_id,
            "released" if release else "lease lost",
            extra=about(room_id),
        )
        return True

    async def keep(self) -> int:
        """Renew the leases (:meth:`renew`), then take over the rooms in play that nobody
        holds (:meth:`take_over`; how many)."""
        await self.renew()
        return await self.take_over()

    async def renew(self) -> None:
        """Renew the leases; let go of the rooms whose lease was lost (this process stalled
        and another took them)."""
        if self.leases is None:
            return
        before = set(self._rooms)  # a room taken during the renewal is held already
        held = await self.leases.renew()
        for room_id in [r for r in before if r not in held]:
            await self.hand_over(room_id, release=False)

    async def take_over(self) -> int:
        """Take over the rooms in play that nobody holds (their owner died or stalled); how
        many.  Nothing while this process is fenced, nor a room it handed over on request
        less than a lease ago (the process that asked takes it)."""
        if self.leases is None or self.fenced:
            return 0
        taken = 0
        now = time.monotonic()
        self._handed = {r: t for r, t in self._handed.items() if now - t < LEASE_S}
        for room_id in await self.leases.orphans():
            if room_id in self._rooms or room_id in self._handed or self.fenced:
                continue
            try:
                await self.get(room_id, ask=False)
            except (RoomMovedError, RoomNotFoundError):
                continue
            taken += 1
            self.runtime.metrics.lease_takeovers.inc()
            log.info("room %s: taken over", room_id, extra=about(room_id))
        return taken

    @property
    def fenced(self) -> bool:
        """Whether this process serves nothing now, its leases lapsed (:meth:`check_fence`)."""
        return self.leases is not None and self.leases.fenced

    def _refuse_when_fenced(self, room_id: str) -> None:
        if self.fenced:
            raise RoomMovedError(room_id, "")

    async def check_fence(self) -> None:
        """Fence this process off when its leases lapsed
        (:attr:`~splash.server.leases.Leases.lapsed`: no renewal got through for too long),
        and serve again once one did.

        Fenced, it writes nothing more (the writer refuses every job), tells every
        connection ``moved`` (4409) and stops every room's bots and timers, without waiting
        for a write in flight (it may wait on the database as long as the cut lasts).  Once
        a renewal got through, it gives up every lease it still has (its rooms are no longer
        in memory; the others, or it, take them from the log) and serves again."""
        leases = self.leases
        if leases is None:
            return
        if leases.lapsed and not leases.fenced:
            leases.fenced = True
            rooms = list(self._rooms.values())
            self._rooms.clear()
            self._finished.clear()
            for room in rooms:
                await room.move_out()
            for room in rooms:
                await room.close()
                self.runtime.metrics.handed_over(released=False)
            log.warning(
                "no lease renewed for %g s: this process fenced itself (%d rooms moved)",
                SELF_FENCE_S,
                len(rooms),
            )
        elif leases.fenced and not leases.lapsed:
            try:
                await leases.release_all()
            except Exception as error:
                log.error("the leases could not be given up (%s)", type(error).__name__)
                return
            leases.fenced = False
            log.warning("a lease renewal got through: this process serves again")

    def _touch(self, room_id: str) -> None:
        if room_id in self._finished:
            self._finished.move_to_end(room_id)

    def _park(self, room: Room) -> None:
        """Count ``room`` among the ended rooms kept when its game is over and nobody is
        connected; drop the ones used longest ago beyond ``ended_rooms_kept``."""
        if room.status != "over" or room.members or self._rooms.get(room.id) is not room:
            return
        self._finished[room.id] = None
        self._finished.move_to_end(room.id)
        while len(self._finished) > self.ended_rooms_kept:
            dropped, _ = self._finished.popitem(last=False)
            self._rooms.pop(dropped, None)
            self._let_go(dropped)

    @contextlib.asynccontextmanager
    async def _held(self, room: Room) -> AsyncIterator[Room]:
        """The lock of ``room``, or of the room that replaced it in memory: an ended room
        dropped from memory meanwhile (:meth:`_park`) is loaded again, so that every
        connection of a room shares one object.  A closed room is held as it is."""
        fresh = False
        while True:
            async with room.lock:
                kept = self._rooms.get(room.id)
                if kept is None and fresh and room.status != "closed":
                    self._rooms[room.id] = kept = room
                if kept is room or room.status == "closed":
                    try:
                        yield room
                    finally:
                        self._park(room)
                    return
            room, fresh = await self.get(room.id), True

    # ----- seats ---------------------------------------------------------------------------

    async def take_seat(
        self,
        room_id: str,
        seat: int,
        *,
        name: str | None,
        bot: str | None,
        client_seed: str | None = None,
    ) -> str | None:
        """Fill open seat ``seat`` with a person (returns the secret token; ``client_seed``:
        their seed for the room's chance) or a bot."""
        room = await self.get_owned(room_id)
        if room.status == "closed":
            raise RoomClosedError(room_id, room.closed_by)
        if bot is not None:
            check_bot(room.row.game, bot, room.state.game)
            if room.row.mode == "referee":
                raise OptionError("bot", bot, message("a refereed game has no bots"))
        async with room.lock:
            if room.status == "closed":
                raise RoomClosedError(room_id, room.closed_by)
            if not 0 <= seat < len(room.seats) or room.seats[seat].kind != "open":
                raise SeatTakenError(seat)
            token = None if bot is not None else secrets.token_urlsafe(24)
            new = Seat(
                seat,
                "bot" if bot is not None else "human",
                name,
                bot,
                token_hash(token) if token else None,
                client_seed=client_seed if bot is None else None,
            )
            row = SeatRow(
                new.seat, new.kind, new.name, new.bot, new.token, client_seed=new.client_seed
            )
            filled = all(s.kind != "open" for s in room.seats if s.seat != seat)
            starts = room.status == "open" and filled
            now = room.runtime.clock()
            try:
                # The seat, the room's activity and its start: one write, with the others'.
                await room.runtime.writer.write(
                    lambda conn: storage.write_seat(
                        conn, room_id, row, at=now, status="playing" if starts else None
                    )
                )
            except storage.StorageConflictError:
                raise SeatTakenError(seat) from None
            room.seats[seat] = new
            room.last_activity = max(room.last_activity, now)
            log.info(
                "room %s: seat %d taken by %s",
                room_id,
                seat,
                "a bot" if bot is not None else "a person",
                extra=about(room_id, seat),
            )
            if starts:
                room.status = "playing"
                room.restart_timer()  # before the state, which carries the time left
                await room.broadcast_state()
            else:
                await room.broadcast_seats()
        room.kick()
        return token

    async def join(
        self, found: Room, member: Member, token: str | None, client_seed: str | None = None
    ) -> Room:
        """Admit a connection: a seat's token, the referee's token, or none (a spectator).
        A person's ``client_seed`` is stored for their seat when it has none yet and the
        room has not started; the room starts when it was waiting for that seed alone (a
        rematch: :meth:`create_rematch`).  It receives its ``welcome``, then the pending
        takeback request's ``undo_asked`` (with the seconds left) when one waits.  Returns
        the room it joined (``found``, or the object that replaced it in memory)."""
        async with self._held(found) as room:
            if room.status == "closed":
                raise room_closed(room.id, room.closed_by)
            if token is not None:
                digest = token_hash(token)
                if room.row.referee_token is not None and secrets.compare_digest(
                    digest, room.row.referee_token
                ):
                    member.role, member.seat = "referee", None
                else:
                    seats = [
                        s for s in room.seats if s.token and secrets.compare_digest(digest, s.token)
                    ]
                    if not seats:
                        raise ProtocolError("bad_token")
                    member.role, member.seat = "seat", seats[0].seat
                member.token = token
            if member.seat is not None and client_seed is not None:
                await self._add_seed(room, member.seat, client_seed)
            room.members.append(member)
            self._finished.pop(room.id, None)
            log.info(
                "room %s: %s connected",
                room.id,
                _who(member),
                extra=about(room.id, member.seat),
            )
            # In memory only: an open connection keeps the room anyway, and its end is stored.
            room.mark_active()
            if member.role == "seat":
                await room.store_connections()
            await room.send(member, room.state_message(member, "welcome"))
            asked = room.undo_asked()
            if asked is not None:  # a request waits: its prompt, again, with the time left
                await room.send(member, asked)
            if member.role == "seat":
                await room.broadcast_seats(skip=member)
        return room

    async def _add_seed(self, room: Room, seat: int, seed: str) -> None:
        """Store ``seed`` for person's ``seat`` of ``room`` (whose lock the caller holds)
        when the seat has none and the room has a secret and has not started; start the
        room when its seats are filled and every person's seed is in."""
        held = room.seats[seat]
        if room.row.secret is None or room.status != "open" or held.client_seed is not None:
            return
        seeded = [
            s.client_seed is not None or s.seat == seat for s in room.seats if s.kind == "human"
        ]
        starts = all(s.kind != "open" for s in room.seats) and all(seeded)
        if not await room.runtime.writer.write(
            lambda conn: storage.give_client_seed(
                conn, room.id, seat, seed, status="playing" if starts else None
            )
        ):
            return
        held.client_seed = seed
        log.info("room %s: seat %d added its seed", room.id, seat, extra=about(room.id, seat))
        if starts:
            room.status = "playing"
            room.restart_timer()  # before the state, which carries the time left
            await room.broadcast_state()
            room.kick()
        else:
            await room.broadcast_seats()

    async def leave(self, room: Room, member: Member) -> None:
        """Forget a connection that closed (its end counts as activity)."""
        async with room.lock:
            gone = member in room.members
            if gone:
                room.members.remove(member)
                when = room.mark_active()
                if member.role == "seat":
                    await room.broadcast_seats()
                log.info(
                    "room %s: %s disconnected",
                    room.id,
                    _who(member),
                    extra=about(room.id, member.seat),
                )
                if member.role == "seat":
                    await room.store_connections()
            self._park(room)  # its last connection may have been dropped by a failed send
        if gone and room.status != "closed":
            await room.store_activity(when)

    # ----- closing ---------------------------------------------------------------------------

    async def close_room(self, room_id: str, token: str) -> Room:
        """Close room ``room_id`` for good, with its host's ``token``: a running game ends
        without a winner, every connection is told and closed, the room leaves memory.

        Raises :class:`RoomNotFoundError`, :class:`HostTokenError` (not the host's token)
        or :class:`RoomClosedError` (closed already).
        """
        found = await self.get_owned(room_id)
        expected = found.row.host_token
        if expected is None or not secrets.compare_digest(token_hash(token), expected):
            raise HostTokenError(room_id)
        async with self._held(found) as room:
            if room.status == "closed":
                raise RoomClosedError(room_id, room.closed_by)
            await room.shut("host")
        await self._forget(room)
        return room

    async def expire_idle(self) -> Sequence[str]:
        """Close, as their host would (reason ``idle``), the rooms whose game has not ended,
        with no connection open, whose last activity is older than ``idle_room_close_s``;
        their ids.  A room that is only in storage is closed there, without being loaded."""
        if not self.idle_room_close_s or self.fenced:
            return []
        before = self.runtime.clock() - self.idle_room_close_s
        candidates = await self._db(storage.idle_rooms, before=before)
        expired = [room_id for room_id in candidates if await self._expire(room_id, before)]
        if expired:
            log.info(
                "%d rooms closed after %g s without activity", len(expired), self.idle_room_close_s
            )
        return expired

    async def _expire(self, room_id: str, before: float) -> bool:
        async with self._loading:
            room = self._rooms.get(room_id)
            if room is None:
                if self.leases is not None and not (await self.leases.acquire(room_id)).held:
                    return False  # another process serves it, and expires it itself
                try:
                    done: bool = await self._db(
                        storage.close_if_idle, room_id=room_id, before=before
                    )
                finally:
                    if self.leases is not None:
                        await self._release(room_id)
                if done:
                    log.info("room %s: closed (idle), in storage", room_id, extra=about(room_id))
                return done
        async with room.lock:
            if (
                room.status not in storage.OPEN_STATUSES
                or room.members
                or room.last_activity >= before
            ):
                return False
            await room.shut("idle")
        await self._forget(room)
        return True

    async def _forget(self, room: Room) -> None:
        """Stop a room just shut (its bots, its timer) and drop it from memory."""
        await room.close()
        if self._rooms.get(room.id) is room:
            del self._rooms[room.id]
            self._let_go(room.id)
        self._finished.pop(room.id, None)

    # ----- replays -------------------------------------------------------------------------

    async def record(self, room_id: str) -> GameRecord:
        """The whole action log of a game that has ended: over, or closed."""
        return (await self._ended(room_id))[1]

    async def _ended(self, room_id: str) -> tuple[Room, GameRecord]:
        room = await self.peek(room_id)
        if room.status not in ("over", "closed"):
            raise GameRunningError(room_id)
        rows = await room.db(storage.load_actions, room_id=room_id)
        line = line_of_play(rows)
        meta: dict[str, Json] = {"room": room.id, "sources": [e.source for e in line.entries]}
        if line.takebacks:
            meta["takebacks"] = [t.to_json() for t in line.takebacks]
        if line.chat:
            meta["chat"] = [c.to_json() for c in line.chat]
        meta["fairness"] = reveal(room.row, room.seats, room.options).to_json()
        return room, GameRecord(room.game.id, room.game.config(), line.actions, meta)

    async def step(self, room_id: str, index: int) -> dict[str, Json]:
        """The state of an ended game after its first ``index`` actions, with every view."""
        room, record = await self._ended(room_id)
        if not 0 <= index <= len(record.actions):
            raise IndexError(index)
        state = await room.run(record.replay, room.game, index)
        return {
            "room": room.id,
            "index": index,
            "length": len(record.actions),
            "action": record.actions[index - 1] if index else None,
            "to_act": state.to_act(),
            "state": state.to_json(),
            "views": [state.view(seat) for seat in range(room.game.num_seats)],
            "summary": game_summary(state) if state.is_terminal() else None,
        }

    async def close(self) -> None:
        """Stop every room's tasks."""
        for room in list(self._rooms.values()):
            await room.close()
        self._rooms.clear()
        self._finished.clear()


__all__ = [
    "ENDED_ROOMS_KEPT",
    "HANDOVER_WAIT_S",
    "GameRunningError",
    "HostTokenError",
    "RoomClosedError",
    "RoomHub",
    "RoomMovedError",
    "RoomNotFoundError",
    "SeatTakenError",
    "TooManyRoomsError",
    "rematch_token",
    "token_hash",
]
