"""The settings of the play server (database, address, turn timer defaults, limits)."""

from __future__ import annotations

import os
import socket
from pathlib import Path
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

ENV_PREFIX = "SPLASH_SERVER_"
"""Environment variables read by :meth:`ServerSettings.from_env` start with this."""


def openable_database(url: str) -> str:
    """``url`` if the server can open a database there; else a ``ValueError`` that names it
    (its password hidden) and what is wrong: not a URL, a kind of database or a driver this
    server lacks, or an SQLite file in a folder that does not exist."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        raise ValueError(
            f"{url.rsplit('@', maxsplit=1)[-1]!r} is not a database URL"
            " (sqlite:///splash.db, or postgresql+psycopg://user:password@host/database)"
        ) from None
    shown = parsed.render_as_string(hide_password=True)
    try:
        parsed.get_dialect().import_dbapi()
    except (NoSuchModuleError, ImportError):
        raise ValueError(
            f"{shown}: this server cannot open {parsed.drivername!r} databases"
            " (it opens sqlite and postgresql+psycopg)"
        ) from None
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        folder = Path(parsed.database).expanduser().resolve().parent
        if not folder.is_dir():
            raise ValueError(f"{shown}: the folder {str(folder)!r} does not exist")
    return url


class ServerSettings(BaseModel):
    """Everything the server is configured with; immutable once built."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    database_url: Annotated[str, AfterValidator(openable_database)] = "sqlite:///splash.db"
    """An SQLAlchemy URL: ``sqlite:///file.db`` or ``postgresql+psycopg://user:pw@host/db``."""
    host: str = "127.0.0.1"
    """The address the runner listens on (``0.0.0.0`` exposes the server to the network)."""
    port: Annotated[int, Field(ge=0, le=65535)] = 8000
    turn_timer_s: Annotated[float | None, Field(gt=0)] = None
    """The default turn timer of a new room (``None``: no timer unless the room sets one)."""
    timer_bot: str = "random"
    """The default bot that plays a turn whose timer ran out."""
    max_message_bytes: Annotated[int, Field(ge=256)] = 65536
    """Longer WebSocket messages are refused with ``too_large``; ``splash serve`` also
    makes uvicorn refuse longer frames before reading them."""
    send_queue_messages: Annotated[int, Field(ge=8)] = 256
    """The most messages waiting to be sent to one connection; a client that lets more pile
    up (it does not read) is dropped."""
    workers: Annotated[int, Field(ge=1, le=64)] = 4
    """Threads for bots and chance draws (the physics has one thread of its own)."""
    max_rooms_listed: Annotated[int, Field(ge=1)] = 200
    """The most rooms ``GET /api/rooms`` lists (the newest)."""
    max_open_rooms: Annotated[int, Field(ge=1)] = 500
    """The most rooms whose game has not ended at once (status ``open`` or ``playing``);
    creating one more is refused with 503 ``too_many_rooms``."""
    room_creations_per_minute: Annotated[int, Field(ge=1)] = 20
    """The most rooms one client address may create in any 60 seconds; one more is refused
    with 429 ``too_many_creations`` and a ``Retry-After`` header."""
    idle_room_close_s: Annotated[float, Field(ge=0)] = 86400
    """A room whose game has not ended and that saw no activity (an action, a seat taken, a
    connection opened or closed) for this many seconds, with no connection open, is closed
    by the server as its host would close it; ``0`` never closes a room."""

    cluster: bool = False
    """Whether several server processes share the (PostgreSQL) database: each room is then
    served by one process at a time, through leases (:mod:`splash.server.leases`)."""
    instance: Annotated[str, Field(min_length=1, max_length=200, pattern=r"^[^\s]+$")] | None = None
    """This process's name among those of the database (with ``cluster``); by default the
    host name and the port.  Two live processes may not share one."""

    @model_validator(mode="after")
    def _cluster_needs_postgresql(self) -> ServerSettings:
        if self.cluster and not self.database_url.startswith("postgresql"):
            raise ValueError(
                "cluster mode (several processes) needs a PostgreSQL database,"
                f" not {self.database_url.split(':', 1)[0]!r}"
            )
        return self

    def instance_name(self) -> str:
        """This process's name among the processes of the database."""
        return self.instance or f"{socket.gethostname()}:{self.port}"

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> ServerSettings:
        """Settings from ``SPLASH_SERVER_DATABASE_URL``, ``SPLASH_SERVER_PORT``, ... ."""
        env = dict(os.environ if environ is None else environ)
        values: dict[str, str] = {}
        for name in cls.model_fields:
            key = ENV_PREFIX + name.upper()
            if key in env:
                values[name] = env[key]
        return cls.model_validate(values, strict=False)
