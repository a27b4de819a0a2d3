"""The play server running in the test process, and a client of it that reaches what the
server's start-up opened: its rooms, its database and its creation throttle."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import AbstractContextManager
from typing import Protocol, TypedDict, TypeVar, TypeVarTuple, Unpack

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine

from splash.server import storage
from splash.server.hub import RoomHub
from splash.server.room import Room, chance_key
from splash.server.throttle import CreationThrottle

T = TypeVar("T")
Args = TypeVarTuple("Args")


class FakeClock:
    """A clock (seconds since the epoch) that moves only when a test moves it."""

    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        """Move the clock ``seconds`` on."""
        self.now += seconds


class ServerClient(TestClient):
    """A client of ``app``; inside its ``with`` block the application has started."""

    def __init__(self, app: FastAPI) -> None:
        super().__init__(app)
        self.application = app

    @property
    def hub(self) -> RoomHub:
        """Every room the server holds."""
        hub: RoomHub = self.application.state.hub
        return hub

    @property
    def engine(self) -> Engine:
        """The server's database."""
        engine: Engine = self.application.state.engine
        return engine

    @property
    def throttle(self) -> CreationThrottle:
        """The server's count of room creations per client address."""
        throttle: CreationThrottle = self.application.state.throttle
        return throttle

    def room(self, room_id: str) -> Room:
        """Room ``room_id`` as the server holds it in memory (the test expects it there)."""
        room = self.hub.cached(room_id)
        assert room is not None, f"room {room_id} is not in the memory of the server"
        return room

    def stored(self, room_id: str) -> storage.RoomRow:
        """Room ``room_id`` as the database holds it (the test expects it there)."""
        row = storage.get_room(engine=self.engine, room_id=room_id)
        assert row is not None, f"room {room_id} is not in the database"
        return row

    def chance_key(self, room_id: str) -> int:
        """What room ``room_id``'s draws and bots come from, as its stored secret and seeds
        say (:func:`~splash.server.room.chance_key`)."""
        seats = storage.list_seats(engine=self.engine, room_id=room_id)
        return chance_key(self.stored(room_id), [seat.client_seed for seat in seats])

    def call(self, func: Callable[[*Args], Awaitable[T]], *args: *Args) -> T:
        """``await func(*args)`` in the application's event loop."""
        if self.portal is None:
            raise RuntimeError("the application runs only inside the client's with block")
        return self.portal.call(func, *args)


class SettingsOverrides(TypedDict, total=False):
    """The ``ServerSettings`` a test sets, each one by its name."""

    database_url: str
    host: str
    port: int
    turn_timer_s: float | None
    timer_bot: str
    max_message_bytes: int
    send_queue_messages: int
    workers: int
    max_rooms_listed: int
    max_open_rooms: int
    room_creations_per_minute: int
    idle_room_close_s: float
    cluster: bool
    instance: str | None


class Serve(Protocol):
    """``with serve(**settings) as client`` runs the application for the ``with`` block;
    ``clock=`` replaces its clock."""

    def __call__(
        self, clock: Callable[[], float] = ..., **overrides: Unpack[SettingsOverrides]
    ) -> AbstractContextManager[ServerClient]: ...
