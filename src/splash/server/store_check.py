"""``splash db check``: what an operator verifies of a store before trusting it.

:func:`check_store` reads every room and reports each problem as one :class:`Finding`:

- the database's own checks (SQLite's ``integrity_check`` and ``foreign_key_check``; on
  both kinds, seats and actions of no room);
- the schema revision (the store must be at this version's, :mod:`splash.server.migrate`);
- every room's stored log numbered 0, 1, 2, … with no gap;
- the log's line of play replayed through the room's game (:func:`replay_line`);
- an ended room's line reaching the end of its game;
- the seats' rows agreeing with the room: one a seat of its game, numbered from 0, each
  of a known kind with what that kind needs, and none open once a game of people started.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from sqlalchemy import Engine, select, text

from splash.core.protocol import Game, State
from splash.core.record import GameRecord
from splash.server import storage
from splash.server.line import line_of_play
from splash.server.migrate import head_revision, schema_drift, store_revision
from splash.server.options import PLAY
from splash.server.rules import build_game

SEAT_KINDS = ("open", "human", "bot")


@dataclass(frozen=True)
class Finding:
    """One problem of a store: the room it concerns (``None``: the whole store) and what."""

    room: str | None
    problem: str

    def line(self) -> str:
        """The one-line verdict ``splash db check`` prints."""
        return f"room {self.room}: {self.problem}" if self.room else f"store: {self.problem}"


@dataclass
class StoreReport:
    """What :func:`check_store` read and found."""

    rooms: int = 0
    actions: int = 0
    replayed: int = 0
    """Rooms whose line of play replayed to its stored length."""
    ended: int = 0
    """Rooms whose game ended (``over``)."""
    findings: list[Finding] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether nothing was found."""
        return not self.findings

    def summary(self) -> str:
        """One line: what was read and the verdict."""
        verdict = "no problem found" if self.ok else f"{len(self.findings)} problem(s)"
        return (
            f"{self.rooms} rooms, {self.actions} stored actions, {self.replayed} replayed,"
            f" {self.ended} ended: {verdict}"
        )


def replay_line(game: Game, rows: Sequence[storage.ActionRow]) -> State:
    """The state after the line of play of the stored log ``rows``."""
    line = line_of_play(rows)
    record = GameRecord(game.id, game.config(), [row.action for row in line.rows()])
    return record.replay(game)


def _database_checks(engine: Engine) -> Iterator[Finding]:
    with engine.connect() as conn:
        if engine.dialect.name == "sqlite":
            verdicts = [str(row[0]) for row in conn.execute(text("PRAGMA integrity_check"))]
            if verdicts != ["ok"]:
                for verdict in verdicts[:20]:
                    yield Finding(None, f"integrity check: {verdict}")
            for row in conn.execute(text("PRAGMA foreign_key_check")):
                yield Finding(
                    None, f"foreign key check: a row of {row[0]} names a missing {row[2]}"
                )
        revision, head = store_revision(conn), head_revision()
        if revision != head:
            yield Finding(
                None,
                f"the schema is at revision {revision or 'none'}, this version's is {head}:"
                " run splash db upgrade",
            )
            return
        for difference in schema_drift(conn, storage.metadata):
            yield Finding(None, f"the schema differs from this version's: {difference}")
        for table in (storage.seats, storage.actions):
            orphans = conn.execute(
                select(table.c.room_id)
                .distinct()
                .where(table.c.room_id.not_in(select(storage.rooms.c.id)))
            ).scalars()
            for room_id in orphans:
                yield Finding(room_id, f"{table.name} rows of a room that does not exist")


def _seat_findings(
    room: storage.RoomRow, game: Game, seats: Sequence[storage.SeatRow]
) -> Iterator[str]:
    numbers = [seat.seat for seat in seats]
    if numbers != list(range(game.num_seats)):
        yield f"its seats are numbered {numbers}, its game has {game.num_seats} seats"
    for seat in seats:
        if seat.kind not in SEAT_KINDS:
            yield f"seat {seat.seat} is of the unknown kind {seat.kind!r}"
        elif seat.kind == "bot" and not seat.bot:
            yield f"seat {seat.seat} is a bot with no bot named"
        elif seat.kind == "human" and not seat.token:
            yield f"seat {seat.seat} is a person's with no token"
        elif seat.kind == "open" and (seat.bot or seat.token):
            yield f"seat {seat.seat} is open but holds a bot or a token"
    if room.mode == PLAY:
        open_seats = [seat.seat for seat in seats if seat.kind == "open"]
        if room.status in ("playing", "over") and open_seats:
            yield f"its game is {room.status} with the seats {open_seats} open"
        if room.status == "open" and not open_seats:
            yield "it waits for players (status open) with no seat open"


def _room_findings(
    room: storage.RoomRow,
    seats: Sequence[storage.SeatRow],
    rows: Sequence[storage.ActionRow],
    game_of: Callable[[storage.RoomRow], Game],
    report: StoreReport,
) -> Iterator[str]:
    indices = [row.index for row in rows]
    if indices != list(range(len(rows))):
        gaps = sorted(set(range(max(indices, default=-1) + 1)) - set(indices))
        yield f"its log is not numbered from 0 without gaps (missing {gaps[:10]})"
        return
    if room.status not in ("open", "playing", "over", "closed"):
        yield f"its status {room.status!r} is unknown"
    try:
        game = game_of(room)
    except Exception as error:
        yield f"its game cannot be built from its settings: {error}"
        return
    yield from _seat_findings(room, game, seats)
    try:
        state = replay_line(game, rows)
    except Exception as error:
        yield f"its log does not replay: {type(error).__name__}: {error}"
        return
    report.replayed += 1
    if room.status == "over" and not state.is_terminal():
        yield "its game is over but its log does not reach the end of the game"
    if room.status in ("open", "playing") and state.is_terminal():
        yield f"its log reaches the end of the game but its status is {room.status}"


def check_store(
    engine: Engine, *, progress: Callable[[int, int], None] | None = None
) -> StoreReport:
    """Check the store of ``engine`` (see the module); ``progress(done, total)`` is called
    after each room."""
    report = StoreReport()
    report.findings.extend(_database_checks(engine))
    if any("revision" in finding.problem for finding in report.findings):
        return report
    games: dict[tuple[str, tuple[str, ...], str], Game] = {}

    def game_of(room: storage.RoomRow) -> Game:
        key = (room.game, tuple(room.settings), room.mode)
        if key not in games:
            games[key] = build_game(room.game, room.settings, room.mode)
        return games[key]

    with engine.connect() as conn:
        ids = list(
            conn.execute(select(storage.rooms.c.id).order_by(storage.rooms.c.created_at)).scalars()
        )
    for done, room_id in enumerate(ids, start=1):
        room = storage.get_room(engine=engine, room_id=room_id)
        assert room is not None
        seats = storage.list_seats(engine=engine, room_id=room_id)
        rows = storage.load_actions(engine=engine, room_id=room_id)
        report.rooms += 1
        report.actions += len(rows)
        report.ended += room.status == "over"
        for problem in _room_findings(room, seats, rows, game_of, report):
            report.findings.append(Finding(room_id, problem))
        if progress is not None:
            progress(done, len(ids))
    return report
