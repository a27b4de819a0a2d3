"""A room in memory: its game state, seats, connections, and the one path every action takes.

Every action — a person's, a bot's, a chance outcome, a referee's entry — goes through
:meth:`Room.commit`: the rules engine applies it (refusing it changes nothing), the log
stores it (with the light automatic moves that follow it) and commits, and only then is it
acknowledged and sent, to each connection as that connection may see it.  The room's lock
orders all of this; bots think and the physics rules on the state itself, the lock held.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any, TypeVar

import orjson
from sqlalchemy import Engine
from sqlalchemy.engine import Connection

from splash.core.actions import Action, Json
from splash.core.errors import ActionError
from splash.core.fairness import commitment, room_key
from splash.core.protocol import CHANCE, Game, State
from splash.core.record import GameRecord
from splash.games.registry import Conceal
from splash.server import storage
from splash.server.hold import HeldPass, Window, lone_pass, open_window
from splash.server.leases import LeaseLostError
from splash.server.line import (
    CHAT_SOURCE,
    UNDO_SOURCE,
    ChatLine,
    Line,
    chat_actor,
    line_of_play,
    undo_action,
)
from splash.server.logs import about, withheld
from splash.server.metrics import Metrics
from splash.server.options import PLAY, REFEREE, Member, RoomOptions, Seat
from splash.server.protocol import (
    CLOSE_MOVED,
    CLOSE_ROOM_CLOSED,
    ProtocolError,
    encode,
    envelope,
    problem,
    room_closed,
)
from splash.server.rules import (
    action_for,
    audience,
    bot_action,
    chance_action,
    concealer,
    game_summary,
    public_chance,
    public_view,
    referee_automatic,
    request_handler,
    runs_inline,
    seat_view,
    uses_physics,
)
from splash.server.storage import RoomRow
from splash.server.writer import Writer

log = logging.getLogger("splash.server")
T = TypeVar("T")

RECENT_ENTRIES = 50
"""How many of the log's last entries a ``welcome`` carries, so that a reloaded page shows
what happened before it joined."""

RECENT_CHAT = 50
"""How many of the chat's last messages a ``welcome`` carries."""


def kind_only(action: Action) -> dict[str, Json]:
    """An action shown by its kind alone: how a log entry made without its game's
    :attr:`~splash.games.registry.Screens.conceal` shows it outside its audience."""
    return {"kind": action.kind}


@dataclass(frozen=True)
class LogEntry:
    """One action of the log as the room keeps it for the ``welcome``: who played it, how,
    which seats may see it whole (:func:`~splash.server.rules.audience`), and how the others
    see it (``conceal``: the game's)."""

    index: int
    actor: int
    source: str
    action: Action
    audience: frozenset[int] | None
    conceal: Conceal = field(default=kind_only, compare=False)

    def for_recipient(self, recipient: int | None) -> dict[str, Json]:
        """The entry as ``recipient`` (a seat, ``None`` for a public screen) may see it."""
        return {
            "index": self.index,
            "actor": self.actor,
            "source": self.source,
            "action": action_for(self.action, self.audience, recipient, self.conceal),
        }


def replay_recent(game: Game, rows: Sequence[storage.ActionRow]) -> tuple[State, deque[LogEntry]]:
    """The state after the stored ``rows`` and the last :data:`RECENT_ENTRIES` of them as
    log entries, each with the audience it had when it was played."""
    start = max(0, len(rows) - RECENT_ENTRIES)
    record = GameRecord(game.id, game.config(), [row.action for row in rows[:start]])
    state = record.replay(game)
    recent: deque[LogEntry] = deque(maxlen=RECENT_ENTRIES)
    conceal = concealer(game.id)
    for row in rows[start:]:
        action = state.game.parse_action(row.action)
        seats = audience(state, action)
        state.apply(action)
        recent.append(LogEntry(row.index, row.actor, row.source, action, seats, conceal))
    return state, recent


def chance_key(row: RoomRow, seeds: Sequence[str | None]) -> int:
    """What the draws and bots of room ``row`` come from: the key of its secret and its
    seats' client ``seeds`` (:func:`~splash.core.fairness.room_key`), or the seed of a room
    without a secret."""
    if row.secret is None:
        return row.seed
    return room_key(bytes.fromhex(row.secret), seeds)


MAX_FOLLOWING = 64
"""The most light automatic moves stored in the write of the action they follow (a game
of bots alone goes on in the next write)."""


@dataclass(frozen=True)
class _Played:
    """An action applied, not yet stored: its entry of the log and its ``update`` message
    for each kind of connection (:func:`_audience_key`), encoded."""

    index: int
    action: Action
    audience: frozenset[int] | None
    source: str
    entry: storage.NewAction
    frames: dict[tuple[str, int | None], str]


def _audience_key(member: Member) -> tuple[str, int | None]:
    """What a connection's messages depend on: a seat's connections see that seat's view,
    every spectator the same public one, a referee the public one and the chance."""
    if member.role == "seat":
        return ("seat", member.seat)
    return (member.role, None)


@dataclass(frozen=True)
class Runtime:
    """What every room shares: the database and its one writer (group commit), the threads
    that run blocking work, the process's metrics, and the clock (seconds since the epoch)
    that dates rooms, actions and activity."""

    engine: Engine
    executor: Executor
    physics: Executor
    writer: Writer
    metrics: Metrics
    clock: Callable[[], float] = time.time


class Room:
    """One room: its stored row, its game and state, its seats and its connections."""

    def __init__(
        self,
        row: RoomRow,
        seats: list[Seat],
        game: Game,
        state: State,
        runtime: Runtime,
        *,
        recent: Sequence[LogEntry] = (),
        line: Line | None = None,
        on_over: Callable[[Room], None] | None = None,
    ) -> None:
        self.row = row
        self.id = row.id
        self.options = RoomOptions.model_validate(row.options)
        self.seats = seats
        self.game = game
        self.state = state
        self.status = row.status
        self.closed_by = row.closed_by
        self.last_activity = row.last_activity
        """When the room last saw activity: an action, a seat taken, a connection opened or
        closed (seconds since the epoch, from the runtime's clock)."""
        self.runtime = runtime
        self.lock = asyncio.Lock()
        self.members: list[Member] = []
        self.stored_connections: dict[int, int] = {s.seat: s.connections for s in seats}
        """The seats' connections as the store has them (:meth:`store_connections`)."""
        self.revealed: set[int] = set()
        self.recent: deque[LogEntry] = deque(recent, maxlen=RECENT_ENTRIES)
        """The log's last entries, for the ``welcome`` of a connection that joins."""
        self.line_sources: list[tuple[int, str]] = (
            [] if line is None else [(e.actor, e.source) for e in line.entries]
        )
        """Who played each action of the line of play (its ``actor``) and how (``source``)."""
        self.offset = 0 if line is None else line.stored - len(line.entries)
        """How many stored rows are not in the line of play (taken back, and the takebacks'
        own entries): action ``index`` is row ``index + offset`` of the stored log."""
        self.chat: deque[ChatLine] = deque([] if line is None else line.chat, maxlen=RECENT_CHAT)
        """The chat's last messages, for the ``welcome`` of a connection that joins."""
        self.undo_request: UndoRequest | None = None
        """The takeback asked among people, waiting for their answers (one at a time)."""
        self._driver: asyncio.Task[None] | None = None
        self._timer: asyncio.Task[None] | None = None
        self._timer_due: tuple[int, float] | None = None
        self._timer_left: tuple[int, float] | None = None
        self.window: Window | None = None
        """The reaction window of a person's seat held open now (:mod:`splash.server.hold`)."""
        self._window_task: asyncio.Task[None] | None = None
        self._uses_physics = uses_physics(row.game, row.mode)
        self.conceal = concealer(row.game)
        """How a seat outside an action's audience sees it (the game's)."""
        self.on_over = on_over
        """Called, the lock held, once an action has ended the game and been sent."""
        self._summary: tuple[int, dict[str, Json]] | None = None
        self._answers: dict[tuple[str, int | None, str], Json] = {}
        self._answers_at = -1
        self.moved = False
        """Whether another server process serves the room now (:meth:`move_out`)."""

    # ----- blocking work off the event loop ------------------------------------------------

    async def run(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``fn(*args, **kwargs)`` in a worker thread (the physics thread for Splash! play)."""
        pool = self.runtime.physics if self.uses_physics else self.runtime.executor
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(pool, lambda: fn(*args, **kwargs))

    def _light(self, step: tuple[str, str | None]) -> bool:
        """Whether ``step`` is light work, done on the event loop itself
        (:func:`~splash.server.rules.runs_inline`): a chance draw without the physics, or a
        light bot; a bot that may think long and a physics ruling run in a worker thread."""
        return runs_inline(step, physics=self.uses_physics)

    async def run_light(self, step: tuple[str, str | None], fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` for ``step``: on the event loop when it is light (:meth:`_light`),
        in a worker thread otherwise."""
        if self._light(step):
            return fn(*args)
        return await self.run(fn, *args)

    async def db(self, fn: Callable[..., T], **kwargs: Any) -> T:
        """A storage call in a worker thread."""
        return await asyncio.to_thread(fn, engine=self.runtime.engine, **kwargs)

    def mark_active(self) -> float:
        """Note activity now, in memory; returns the time, for :meth:`store_activity`."""
        self.last_activity = self.runtime.clock()
        return self.last_activity

    async def store_activity(self, at: float) -> None:
        """Store ``at`` as the room's last activity unless a later one is stored (a failed
        write is only logged: the memory keeps the room alive until the next write)."""
        try:
            await self.db(storage.touch_room, room_id=self.id, at=at)
        except Exception as error:
            log.error(
                "room %s: activity not stored (%s)",
                self.id,
                type(error).__name__,
                extra=about(self.id),
            )

    async def touch(self) -> None:
        """Note activity now, in memory and in storage."""
        await self.store_activity(self.mark_active())

    @property
    def uses_physics(self) -> bool:
        """Whether chance events are ruled by the physics (Splash! placements in play mode)."""
        return self._uses_physics

    @property
    def index(self) -> int:
        """How many actions the line of play holds (the index the next action gets)."""
        return len(self.state.history)

    async def answer(self, kind: str, seat: int | None, body: Mapping[str, Any]) -> Json:
        """The answer of the room's game to the extra request ``kind`` asked by ``seat``
        (``None``: a public screen) with ``body``, for the state as it stands: computed once
        per log index, seat and body, then kept until the log moves (the caller holds the
        lock).  Raises :class:`OptionError` for a kind the room does not answer and the
        game's :class:`SplashError` for a request it refuses."""
        answer = request_handler(self.row.game, kind, self.row.mode)
        self.runtime.metrics.request_answered(kind)
        if self._answers_at != self.index:
            self._answers, self._answers_at = {}, self.index
        key = (kind, seat, orjson.dumps(dict(body), option=orjson.OPT_SORT_KEYS).decode())
        if key not in self._answers:
            if self.uses_physics:
                found = await self.run(answer, self.state, seat, body)
            else:
                found = answer(self.state, seat, body)
            self._answers[key] = found
        return self._answers[key]

    # ----- what each connection sees --------------------------------------------------------

    def connected(self, seat: int) -> bool:
        """Whether a person holds a connection to ``seat``."""
        return any(m.role == "seat" and m.seat == seat for m in self.members)

    def seats_public(self) -> list[Json]:
        """Every seat as everyone may see it."""
        return [s.public(self.connected(s.seat)) for s in self.seats]

    def chance_key(self) -> int:
        """What the room's draws and bots come from (:func:`chance_key`)."""
        return chance_key(self.row, [s.client_seed for s in self.seats])

    @property
    def commitment(self) -> str | None:
        """The commitment to the room's secret, shown from its creation (``None``: none)."""
        return commitment(bytes.fromhex(self.row.secret)) if self.row.secret else None

    def connections(self) -> dict[int, int]:
        """How many connections each seat has open here."""
        counts = {s.seat: 0 for s in self.seats}
        for member in self.members:
            if member.role == "seat" and member.seat in counts:
                counts[member.seat] += 1
        return counts

    async def store_connections(self) -> None:
        """Record the seats' connections in the store when they changed since last recorded,
        so that the lobby of every process can mark who is there (a failure is logged: the
        marks are a courtesy, the game does not depend on them)."""
        counts = self.connections()
        if counts == self.stored_connections:
            return
        room_id = self.id

        def job(conn: Connection) -> None:
            storage.set_connections(conn, room_id, counts)

        try:
            await self.runtime.writer.write(job)
        except Exception as error:
            log.warning(
                "room %s: the seats' connections not recorded (%s)",
                self.id,
                type(error).__name__,
                extra=about(self.id),
            )
            return
        self.stored_connections = counts

    def view_for(self, member: Member) -> dict[str, Json]:
        """The view ``member`` may see: its seat's, or the public one; once the game is
        over, with the game's ``summary``."""
        if member.role == "seat" and member.seat is not None:
            view = seat_view(self.state, member.seat)
        else:
            view = public_view(self.state, sorted(self.revealed))
        if self.state.is_terminal():
            view["summary"] = self.summary()
        return view

    def summary(self) -> dict[str, Json]:
        """The summary of the game as it stands (computed once per length of the log)."""
        if self._summary is None or self._summary[0] != self.index:
            self._summary = (self.index, game_summary(self.state))
        return self._summary[1]

    def state_message(self, member: Member, kind: str = "state") -> dict[str, Json]:
        """A ``welcome`` or ``state`` message: everything ``member`` needs to draw the game."""
        doc = envelope(
            kind,
            room=self.id,
            game=self.row.game,
            mode=self.row.mode,
            role=member.role,
            seat=member.seat,
            index=self.index,
            status=self.status,
            seats=self.seats_public(),
            view=self.view_for(member),
            timer=self.options.turn_timer_s,
            timer_left_s=self.timer_left(),
        )
        if member.role == "referee":
            doc["chance"] = public_chance(self.state)
        if kind == "welcome":
            key = member.seat if member.role == "seat" else None
            doc["log"] = [entry.for_recipient(key) for entry in self.recent]
            doc["chat"] = [line.to_json() for line in self.chat]
            doc["rematch"] = self.row.rematch
            doc["commitment"] = self.commitment
        return doc

    async def send(self, member: Member, doc: dict[str, Json] | str) -> None:
        """Send ``doc`` (or its JSON text, :func:`~splash.server.protocol.encode`) to
        ``member``; a connection that is gone is dropped."""
        try:
            await member.send(doc)
        except Exception:  # a closed socket raises whatever its transport raises
            if member in self.members:
                self.members.remove(member)

    async def broadcast_state(self, *, public_only: bool = False) -> None:
        """Send every connection (or every public screen) the current state."""
        frames: dict[tuple[str, int | None], str] = {}
        for member in list(self.members):
            if not public_only or member.role != "seat":
                key = _audience_key(member)
                if key not in frames:
                    frames[key] = encode(self.state_message(member))
                await self.send(member, frames[key])

    async def broadcast_seats(self, *, skip: Member | None = None) -> None:
        """Tell every connection (but ``skip``) who sits where and who is connected."""
        doc = encode(envelope("seats", room=self.id, status=self.status, seats=self.seats_public()))
        for member in list(self.members):
            if member is not skip:
                await self.send(member, doc)

    async def post_chat(self, line: ChatLine) -> None:
        """Store the chat message ``line`` (committed) in the log, then send it to every
        connection; the caller holds the lock.  Raises :class:`ProtocolError` (``storage``,
        nothing sent) when it cannot be stored."""
        stored = self.index + self.offset
        entry = storage.NewAction(
            self.id, stored, line.to_json(), chat_actor(line), CHAT_SOURCE, line.at
        )
        try:
            await self.runtime.writer.write_actions([entry])
        except Exception as error:
            log.error(
                "room %s: chat not stored (%s)", self.id, type(error).__name__, extra=about(self.id)
            )
            raise ProtocolError("storage") from None
        self.offset += 1
        self.last_activity = max(self.last_activity, line.at)
        self.chat.append(line)
        frame = encode(envelope("chat", room=self.id, **line.to_json()))
        for member in list(self.members):
            await self.send(member, frame)

    # ----- the one path of every action -----------------------------------------------------

    async def commit(
        self,
        action: Action | Json,
        *,
        actor: int,
        source: str,
        ack: Callable[[int], Awaitable[None]] | None = None,
    ) -> int:
        """Apply, store (committed), acknowledge, then send ``action``; the caller holds the
        lock.  Raises :class:`ProtocolError` (and changes nothing) when it is refused.

        The light automatic moves that follow it (chance draws without the physics, the
        ``random`` bot: :meth:`_light`) are applied at once and stored in the same write,
        so that a person waits one commit for the moves before their next decision, not
        one per move; every move is still sent only once committed, each with the view
        after it.
        """
        if self.status == "closed":
            raise room_closed(self.id, self.closed_by, action)
        if self.moved:
            raise ProtocolError("moved", action, room=self.id)
        index = self.index
        state = self.state
        try:
            parsed = action if isinstance(action, Action) else state.game.parse_action(action)
        except ActionError as error:
            raise ProtocolError("malformed_action", action, **problem(error.text)) from None
        seats = audience(state, parsed)
        try:
            if self.uses_physics:
                await self.run(state.apply, parsed)
            else:  # the rules alone are cheap: no trip to a worker thread
                state.apply(parsed)
        except ActionError as error:
            raise ProtocolError("illegal_action", action, **problem(error.text)) from None
        except Exception as error:
            log.error(
                "room %s: the rules failed on action %d (%s)",
                self.id,
                index,
                type(error).__name__,
                extra=about(self.id, actor) | withheld(error),
            )
            self.state = await self.run(self.rebuild)
            raise ProtocolError("internal") from None
        now = self.runtime.clock()
        played = [self._played(index, parsed, seats, actor=actor, source=source, at=now)]
        played += self._follow(played, now)
        try:
            await self.runtime.writer.write_actions([p.entry for p in played])
        except Exception as error:
            # The driver's message may quote the stored action (a card): name its type only.
            log.error(
                "room %s: action %d not stored (%s)",
                self.id,
                index,
                type(error).__name__,
                extra=about(self.id, actor),
            )
            self.state = await self.run(self.rebuild)
            if isinstance(error, LeaseLostError):
                raise ProtocolError("moved", action, room=self.id) from None
            raise ProtocolError("storage") from None
        self.last_activity = now
        if self.state.is_terminal():
            self.status = "over"
        self.runtime.metrics.actions_committed.inc(len(played))
        for p in played:
            # The kind alone: the action itself may name a card only its team may see.
            log.info(
                "room %s: action %d (%s) by %s",
                self.id,
                p.index,
                p.action.kind,
                p.source,
                extra=about(self.id, p.entry.actor),
            )
            self.line_sources.append((p.entry.actor, p.source))
            self.revealed.discard(p.entry.actor)
            self.recent.append(
                LogEntry(p.index, p.entry.actor, p.source, p.action, p.audience, self.conceal)
            )
        if ack is not None:
            await ack(index)
        for p in played:
            await self._send_update(p)
        self.restart_timer()
        if self.status == "over" and self.on_over is not None:
            self.on_over(self)
        return index

    def _played(
        self,
        index: int,
        action: Action,
        seats: frozenset[int] | None,
        *,
        actor: int,
        source: str,
        at: float,
    ) -> _Played:
        """Action ``index``, just applied: what to store, and its ``update`` message for
        each kind of connection (built now: the state moves on before they are sent)."""
        over = self.state.is_terminal()
        status = "over" if over else self.status
        timer_left = self._turn_time(status)  # the timer restarts for the next turn
        chance = None
        frames: dict[tuple[str, int | None], str] = {}
        for member in self.members:
            key = _audience_key(member)
            if key in frames:
                continue
            doc = envelope(
                "update",
                room=self.id,
                index=index,
                actor=actor,
                source=source,
                action=action_for(action, seats, key[1], self.conceal),
                status=status,
                view=self.view_for(member),
                timer_left_s=timer_left,
            )
            if member.role == "referee":
                chance = public_chance(self.state) if chance is None else chance
                doc["chance"] = chance
            frames[key] = encode(doc)
        entry = storage.NewAction(
            self.id, index + self.offset, action.to_json(), actor, source, at, over=over
        )
        return _Played(index, action, seats, source, entry, frames)

    def _follow(self, played: list[_Played], at: float) -> list[_Played]:
        """The light automatic moves after ``played``, applied one after the other (at
        most :data:`MAX_FOLLOWING`); a move that fails is logged and ends the run."""
        following: list[_Played] = []
        while len(following) < MAX_FOLLOWING:
            step = self._automatic()
            if step is None or not self._light(step):
                break
            index, actor, state = self.index, self.state.to_act(), self.state
            try:
                action = self._decide(step, state, index)
                seats = audience(state, action)
            except Exception as error:
                self._failed("no automatic move at %d", index, error)
                break
            try:
                state.apply(action)
            except Exception as error:
                self._failed("the rules failed on automatic move %d", index, error)
                self.state = self.rebuild([p.entry.action for p in played + following])
                break
            following.append(self._played(index, action, seats, actor=actor, source=step[0], at=at))
        return following

    async def _send_update(self, played: _Played) -> None:
        for member in list(self.members):
            frame = played.frames.get(_audience_key(member))
            if frame is not None:  # none for a connection that joined after the move
                await self.send(member, frame)

    def rebuild(self, pending: Sequence[Json] = ()) -> State:
        """The state replayed from the stored log (after a failed write), and ``pending``
        actions after it."""
        rows = storage.load_actions(engine=self.runtime.engine, room_id=self.id)
        actions = line_of_play(rows).actions + list(pending)
        return GameRecord(self.game.id, self.game.config(), actions).replay(self.game)

    # ----- automatic moves: chance, bots, the turn timer ------------------------------------

    def kick(self) -> None:
        """Make sure the automatic moves (chance draws, bots) are being played."""
        if self.status == "playing" and (self._driver is None or self._driver.done()):
            self._driver = asyncio.create_task(self._drive(), name=f"room-{self.id}")

    def _automatic(self) -> tuple[str, str | None] | None:
        """What the server plays next by itself: ``("chance", None)``, ``("bot", spec)``,
        ``("auto", None)`` (a referee room's placement), or ``None``."""
        if (
            self.status != "playing"
            or self.moved
            or self.state.is_terminal()
            or self.undo_request is not None
        ):
            return None
        to_act = self.state.to_act()
        if to_act == CHANCE:
            event = self.state.chance_event()
            kind = event.kind if event is not None else ""
            if self.row.mode == PLAY or kind in self.options.digital:
                return ("chance", None)
            return None
        if self.row.mode == REFEREE:
            if referee_automatic(self.state) is not None:
                return ("auto", None)
            return None
        seat = self.seats[to_act]
        if seat.kind == "bot" and seat.bot is not None:
            return ("bot", seat.bot)
        return None

    async def _drive(self) -> None:
        # The move is decided on the state itself, in a worker thread, the lock held:
        # nothing else may change the state meanwhile, so no copy of it is needed.
        while True:
            async with self.lock:
                step = self._automatic()
                if step is None:
                    return
                index, actor = self.index, self.state.to_act()
                try:
                    action = await self.run_light(step, self._decide, step, self.state, index)
                except Exception as error:
                    self._failed("no automatic move at %d", index, error)
                    return
                try:
                    await self.commit(action, actor=actor, source=step[0])
                except ProtocolError as error:
                    log.error(
                        "room %s: automatic move refused: %s",
                        self.id,
                        error.code,
                        extra=about(self.id, actor),
                    )
                    return

    def _failed(self, what: str, index: int, error: Exception) -> None:
        """Log ``error``, raised while the server played move ``index`` by itself: ``what``
        went wrong, with the traceback but without the error's message (it may quote the
        state, hands included)."""
        log.error(
            "room %s: %s (%s)",
            self.id,
            what % index,
            type(error).__name__,
            extra=about(self.id) | withheld(error),
        )

    def _decide(self, step: tuple[str, str | None], state: State, index: int) -> Action:
        kind, spec = step
        if kind == "chance":
            return chance_action(
                state, seed=self.chance_key(), index=index, settings=self.row.settings
            )
        if kind == "auto":
            automatic = referee_automatic(state)
            if automatic is None:  # _automatic saw one, the lock held: the state moved on
                raise RuntimeError(f"no decision to play by itself in {state.describe()}")
            return automatic
        assert spec is not None
        started = time.perf_counter()
        action = bot_action(spec, state, seed=self.chance_key(), index=index)
        self.runtime.metrics.bot_decided(spec, time.perf_counter() - started)
        return action

    def restart_timer(self, left: float | None = None) -> None:
        """Start the turn timer of the person to act (and stop the previous one), for the
        whole turn or the ``left`` seconds that a pause left it."""
        current = asyncio.current_task()
        if self._timer is not None and self._timer is not current:
            self._timer.cancel()
        self._timer, self._timer_due, self._timer_left = None, None, None
        self._arm_window()
        timeout = self._turn_time(self.status)
        if timeout is None:
            return
        wait = timeout if left is None else left
        if self.window is not None:  # the timer bot's pass would be held till then anyway
            wait = max(wait, self.window.due - self.runtime.clock())
        self._timer_due = (self.index, self.runtime.clock() + wait)
        self._timer = asyncio.create_task(self._expire(self.index, wait))

    # ----- reaction windows held open (splash.server.hold) ---------------------------------

    def _arm_window(self) -> None:
        """Open the window of the decision now, unless it is the one open already."""
        if self.window is not None and self.window.index == self.index:
            if self._window_task is None or self._window_task.done():  # after a pause
                self._window_task = asyncio.create_task(self._close_when_due(self.window))
            return
        self.window = None
        if self.status != "playing" or self.row.mode != PLAY or self.state.is_terminal():
            return
        to_act = self.state.to_act()
        self.window = open_window(
            self.state,
            index=self.index,
            person=to_act >= 0 and self.seats[to_act].kind == "human",
            hold_s=self.options.pass_hold_s,
            now=self.runtime.clock(),
        )
        if self.window is not None:
            self._window_task = asyncio.create_task(self._close_when_due(self.window))

    async def _close_when_due(self, window: Window) -> None:
        while self.window is window and self.runtime.clock() < window.due:
            await asyncio.sleep(max(0.01, window.due - self.runtime.clock()))
        if self.window is window:
            async with self.lock:
                await self.close_window()

    def holds(self, action: Action, seat: int) -> bool:
        """Whether ``seat``'s ``action`` is a pass to hold until its window's time is up."""
        window = self.window
        return (
            window is not None
            and window.index == self.index
            and window.seat == seat
            and action == window.pass_action
            and self.runtime.clock() < window.due
        )

    def held(self, seat: int) -> bool:
        """Whether ``seat`` has a pass held in the window open now."""
        window = self.window
        return (
            window is not None
            and window.index == self.index
            and window.seat == seat
            and (window.held is not None)
        )

    def hold(self, action: Action, ack: Callable[[int], Awaitable[None]] | None) -> None:
        """Keep the pass ``action`` (:meth:`holds` said so) until its window's time is up."""
        assert self.window is not None
        self.window.held = HeldPass(action, ack)

    def asks_always(self, seat: int) -> bool:
        """Whether a person connected to ``seat`` wants to be asked even to pass alone."""
        return any(m.seat == seat and m.role == "seat" and m.ask_always for m in self.members)

    async def close_window(self) -> None:
        """Play what the window open now waits for, if its time is up: the pass held, or the
        pass of a seat that may do nothing else; the caller holds the lock."""
        window = self.window
        if (
            window is None
            or window.index != self.index
            or self.status != "playing"
            or self.moved
            or self.undo_request is not None
            or self.runtime.clock() < window.due
        ):
            return
        if window.held is not None:
            action, ack = window.held.action, window.held.ack
        elif not self.asks_always(window.seat) and lone_pass(self.state, window):
            action, ack = window.pass_action, None
        else:
            return
        with contextlib.suppress(ProtocolError):
            await self.commit(action, actor=window.seat, source="human", ack=ack)
        self.kick()

    def _turn_time(self, status: str) -> float | None:
        """The seconds of a whole turn on the timer for the state as it is now (with the
        room's ``status``), or ``None`` when no timer runs for it: no timer set, not play
        mode, nobody playing, or a chance event or a bot to act."""
        timeout = self.options.turn_timer_s
        if timeout is None or status != "playing" or self.row.mode != PLAY:
            return None
        to_act = self.state.to_act()
        if to_act < 0 or self.seats[to_act].kind != "human":
            return None
        return timeout

    def timer_left(self) -> float | None:
        """The seconds really left on the turn timer now; ``None`` when none runs (no timer,
        nobody to time, or paused while a takeback request waits)."""
        if self._timer_due is None:
            return None
        return max(0.0, self._timer_due[1] - self.runtime.clock())

    def pause_timer(self) -> None:
        """Stop the turn timer, keeping the time it had left (:meth:`resume_timer`)."""
        if self._timer is not None:
            self._timer.cancel()
        self._timer = None
        if self._timer_due is not None:
            index, due = self._timer_due
            self._timer_left = (index, max(0.0, due - self.runtime.clock()))
        self._timer_due = None

    def resume_timer(self) -> None:
        """Start again the turn timer that :meth:`pause_timer` stopped, with the time it had
        left when the line of play is where it was, for a whole turn otherwise."""
        paused, self._timer_left = self._timer_left, None
        if paused is not None and paused[0] == self.index:
            self.restart_timer(paused[1])
        else:
            self.restart_timer()

    async def _expire(self, index: int, timeout: float) -> None:
        await asyncio.sleep(timeout)
        async with self.lock:
            if (
                self.index != index
                or self.state.is_terminal()
                or self.status != "playing"
                or self.undo_request is not None
            ):
                return
            step, actor = ("bot", self.options.timer_bot), self.state.to_act()
            try:
                action = await self.run(self._decide, step, self.state, index)
            except Exception as error:
                self._failed("the timer bot found no move at %d", index, error)
                return
            with contextlib.suppress(ProtocolError):
                await self.commit(action, actor=actor, source="timer")
        self.kick()

    async def shut(self, reason: str = "host") -> None:
        """Close the room for good, because its host closed it (``reason`` ``host``) or it
        saw no activity for too long (``idle``); the caller holds the lock.

        The status ``closed`` is stored first, so that no action is applied after it and a
        restarted server does not resume the game; then every connection receives a
        ``closed`` message and is closed with :data:`CLOSE_ROOM_CLOSED`.
        """
        await self.db(storage.close_room, room_id=self.id, by=reason)
        self.status, self.closed_by = "closed", reason
        self.revealed.clear()
        if self._timer is not None:
            self._timer.cancel()
        self.drop_undo_request()
        doc = envelope(
            "closed",
            room=self.id,
            status=self.status,
            index=self.index,
            by="host" if reason == "host" else "server",
            reason=reason,
        )
        members, self.members = self.members, []
        for member in members:
            await self.send(member, doc)
            with contextlib.suppress(Exception):  # the socket may be gone already
                await member.disconnect(CLOSE_ROOM_CLOSED)
        log.info(
            "room %s: closed (%s) at action %d", self.id, reason, self.index, extra=about(self.id)
        )

    async def move_out(self) -> None:
        """Stop serving the room here, because another server process takes it over (this
        one handed it over, or lost its lease); the caller holds the lock.  Nothing is
        stored: the room goes on from its log.  Every connection receives a ``moved``
        message and is closed with :data:`CLOSE_MOVED`, to connect again."""
        self.moved = True
        if self._timer is not None:
            self._timer.cancel()
        self.drop_undo_request()
        doc = envelope("moved", room=self.id, index=self.index)
        members, self.members = self.members, []
        for member in members:
            await self.send(member, doc)
            with contextlib.suppress(Exception):  # the socket may be gone already
                await member.disconnect(CLOSE_MOVED)

    async def close(self) -> None:
        """Stop the room's tasks (the server shuts down, or the room was closed)."""
        self.drop_undo_request()
        for task in (self._driver, self._timer, self._window_task):
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    # ----- takebacks ----------------------------------------------------------------------

    async def take_back(self, to: int, *, actor: int) -> None:
        """Take the line of play back to its first ``to`` actions, for ``actor`` (a seat, or
        :data:`~splash.server.line.REFEREE`); the caller holds the lock and checked that it
        may.  The takeback's entry is appended to the stored log and committed first
        (nothing is deleted); then the state is rebuilt by replaying the line's first ``to``
        actions, and every connection receives an ``undone`` message with its own view.

        The actions taken back are not shown to anyone: a card drawn returns to the deck
        as an unseen one.  Raises :class:`ProtocolError` (``storage``, nothing changed) when
        the entry cannot be stored.
        """
        before = self.index
        now = self.runtime.clock()
        entry = storage.NewAction(
            self.id, before + self.offset, undo_action(to), actor, UNDO_SOURCE, now
        )
        try:
            await self.runtime.writer.write_actions([entry])
        except Exception as error:
            log.error(
                "room %s: takeback to %d not stored (%s)",
                self.id,
                to,
                type(error).__name__,
                extra=about(self.id, actor),
            )
            raise ProtocolError("storage") from None
        rows = [
            storage.ActionRow(i, action.to_json(), who, source)
            for i, (action, (who, source)) in enumerate(
                zip(self.state.history[:to], self.line_sources[:to], strict=True)
            )
        ]
        self.state, recent = await self.run(replay_recent, self.game, rows)
        self.recent = deque(recent, maxlen=RECENT_ENTRIES)
        del self.line_sources[to:]
        self.offset += before - to + 1
        self.last_activity = now
        self.revealed.clear()
        log.info(
            "room %s: actions %d to %d taken back by %d",
            self.id,
            to,
            before - 1,
            actor,
            extra=about(self.id, actor),
        )
        self.restart_timer()  # before the messages, which carry the time left
        frames: dict[tuple[str, int | None], str] = {}
        for member in list(self.members):
            key = _audience_key(member)
            if key not in frames:
                doc = self.state_message(member, "undone")
                doc["by"], doc["taken"] = actor, before - to
                frames[key] = encode(doc)
            await self.send(member, frames[key])

    def undo_asked(self) -> dict[str, Json] | None:
        """The ``undo_asked`` message of the pending takeback request (``None`` when none
        waits): the seats whose answer is awaited, and the seconds left to answer."""
        pending = self.undo_request
        if pending is None:
            return None
        return envelope(
            "undo_asked",
            room=self.id,
            by=pending.by,
            to=pending.to,
            index=pending.index,
            waiting=list[Json](sorted(pending.waiting)),
            timeout=pending.left(self.runtime.clock()),
        )

    def drop_undo_request(self) -> None:
        """Forget the takeback asked among people, and stop its clock."""
        request, self.undo_request = self.undo_request, None
        if request is not None and request.clock is not None:
            current = asyncio.current_task()
            if request.clock is not current:
                request.clock.cancel()


@dataclass
class UndoRequest:
    """A takeback that seat ``by`` asked for: back to ``to`` actions, asked when the line
    held ``index``; ``waiting``: the seats held by people that have not accepted yet."""

    by: int
    to: int
    index: int
    waiting: set[int]
    asked_at: float
    """When it was asked (seconds since the epoch, from the runtime's clock)."""
    timeout: float
    """How long the people asked have to answer, in seconds from ``asked_at``."""
    clock: asyncio.Task[None] | None = None
    """The task that cancels the request when the time to answer runs out."""

    def left(self, now: float) -> float:
        """The seconds left to answer at ``now`` (none once the time is up)."""
        return max(0.0, self.timeout - (now - self.asked_at))
