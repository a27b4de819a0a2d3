"""The store's schema versions: Alembic's migrations, shipped in the package
(:mod:`splash.server.migrations`), and how a store of any earlier version reaches this one.

A store written before the schema had versions holds the tables of :data:`BASELINE` less
some of its columns (:data:`LEGACY_COLUMNS`), and no version table: it is completed the way
those versions completed it (``ALTER TABLE … ADD COLUMN``), stamped with the baseline's
revision, then upgraded like any other store.  A store of a newer schema than this version
knows is refused (:class:`StoreNewerError`).  The schema version is kept in the table
:data:`VERSION_TABLE`, apart from ``alembic_version``, which another tool sharing the
database (Optuna's storage) may own.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
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
    inspect,
    text,
)
from sqlalchemy.engine import Connection

from splash.core.errors import SplashError
from splash.core.i18n import message

VERSION_TABLE: Final = "splash_schema_version"
"""The table that holds the store's schema revision."""

BASELINE_REVISION: Final = "0001"
"""The first revision: the schema of the last version without revisions."""

SCHEMA_LOCK: Final = "splash schema"
"""The PostgreSQL advisory lock under which the processes that start together on one
database bring it to their schema one after the other."""

LEGACY_COLUMNS: Final = {
    "host_token": "VARCHAR(64)",
    "last_activity_at": "FLOAT",
    "closed_by": "VARCHAR(8)",
    "rematch": "VARCHAR(32)",
}
"""The nullable columns of ``rooms`` that versions before the baseline added one by one,
with their SQL types: a store of those versions may lack any of them."""


def baseline_metadata() -> MetaData:
    """The tables of revision :data:`BASELINE_REVISION`, frozen: later revisions change the
    schema by migrations, never here."""
    metadata = MetaData()
    Table(
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
    )
    Table(
        "seats",
        metadata,
        Column("room_id", String(32), ForeignKey("rooms.id"), primary_key=True),
        Column("seat", Integer, primary_key=True),
        Column("kind", String(8), nullable=False),
        Column("name", String(100)),
        Column("bot", String(200)),
        Column("token", String(64)),
    )
    Table(
        "actions",
        metadata,
        Column("room_id", String(32), ForeignKey("rooms.id"), primary_key=True),
        Column("idx", Integer, primary_key=True),
        Column("action", Text, nullable=False),
        Column("actor", Integer, nullable=False),
        Column("source", String(16), nullable=False),
        Column("created_at", Float, nullable=False),
    )
    Table(
        "room_leases",
        metadata,
        Column("room_id", String(32), primary_key=True),
        Column("owner", String(200), nullable=False),
        Column("expires_at", Float, nullable=False),
    )
    return metadata


class StoreSchemaError(SplashError):
    """A store whose schema this version cannot use."""


class StoreNewerError(StoreSchemaError):
    """A store written by a newer version of the server: its schema revision is unknown."""

    def __init__(self, revision: str, head: str) -> None:
        self.revision = revision
        self.head = head
        super().__init__(
            message(
                "the store's schema is revision {revision}, newer than this version of splash"
                " knows (up to {head}): run a newer splash on it, or restore a backup made"
                " for this version",
                revision=revision,
                head=head,
            )
        )


@dataclass(frozen=True)
class Upgrade:
    """What :func:`upgrade_store` did to a store."""

    before: str | None
    """The revision the store had (``None``: none, an empty or a pre-revision store)."""
    after: str
    """The revision it has now, this version's head."""
    legacy: bool
    """Whether it was a store of a version before revisions, stamped with the baseline."""
    columns_added: tuple[str, ...]
    """The columns a pre-revision store lacked and got (``rooms``' :data:`LEGACY_COLUMNS`)."""
    tables_created: tuple[str, ...]
    """The baseline's tables a pre-revision store lacked and got."""
    applied: tuple[str, ...]
    """The revisions applied, oldest first, each as ``id (message)``."""

    def describe(self) -> str:
        """One line for a person: from what, to what, and how."""
        if not self.applied and not self.legacy:
            return f"the store is at revision {self.after}, this version's: nothing to do"
        start = "an empty store" if self.before is None and not self.legacy else None
        if self.legacy:
            done = []
            if self.columns_added:
                done.append("added the columns " + ", ".join(self.columns_added))
            if self.tables_created:
                done.append("created the tables " + ", ".join(self.tables_created))
            start = (
                "a store of a version before revisions ("
                + ("; ".join(done) or "complete")
                + f"; stamped {BASELINE_REVISION})"
            )
        elif start is None:
            start = f"revision {self.before}"
        steps = ", ".join(self.applied) if self.applied else "none"
        return f"upgraded {start} to revision {self.after}: applied {steps}"


def _config(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    config.attributes["connection"] = connection
    config.attributes["version_table"] = VERSION_TABLE
    return config


def scripts() -> ScriptDirectory:
    """The migrations shipped with this version."""
    return ScriptDirectory.from_config(_config())


def head_revision() -> str:
    """The newest revision this version knows."""
    head = scripts().get_current_head()
    assert head is not None
    return head


def store_revision(conn: Connection) -> str | None:
    """The revision the store of ``conn`` is stamped with (``None``: none)."""
    context = MigrationContext.configure(conn, opts={"version_table": VERSION_TABLE})
    return context.get_current_revision()


def _complete_legacy(conn: Connection) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Bring a pre-revision store to the baseline as those versions did; the columns added
    and the tables created."""
    baseline = baseline_metadata()
    present_tables = set(inspect(conn).get_table_names())
    created = tuple(name for name in baseline.tables if name not in present_tables)
    baseline.create_all(conn)
    present = {column["name"] for column in inspect(conn).get_columns("rooms")}
    added = tuple(name for name in LEGACY_COLUMNS if name not in present)
    for name in added:
        conn.execute(text(f"ALTER TABLE rooms ADD COLUMN {name} {LEGACY_COLUMNS[name]}"))
    if "last_activity_at" in added:
        conn.execute(
            text("UPDATE rooms SET last_activity_at = created_at WHERE last_activity_at IS NULL")
        )
    return added, created


@contextmanager
def _schema_transaction(engine: Engine) -> Iterator[Connection]:
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            conn.execute(
                text("SELECT pg_advisory_xact_lock(hashtext(:name))"), {"name": SCHEMA_LOCK}
            )
        yield conn


def upgrade_store(engine: Engine) -> Upgrade:
    """Bring the store of ``engine`` to this version's schema, in one transaction (on
    PostgreSQL under :data:`SCHEMA_LOCK`); refuse a newer one (:class:`StoreNewerError`)."""
    directory = scripts()
    head = head_revision()
    with _schema_transaction(engine) as conn:
        before = store_revision(conn)
        if before is not None and before not in {s.revision for s in directory.walk_revisions()}:
            raise StoreNewerError(before, head)
        legacy = before is None and inspect(conn).has_table("rooms")
        added: tuple[str, ...] = ()
        created: tuple[str, ...] = ()
        if legacy:
            added, created = _complete_legacy(conn)
            command.stamp(_config(conn), BASELINE_REVISION)
        start = BASELINE_REVISION if legacy else before
        pending = (
            [
                f"{script.revision} ({script.doc.splitlines()[0].rstrip('.:')})"
                for script in reversed(list(directory.iterate_revisions(head, start)))
            ]
            if start != head
            else []
        )
        command.upgrade(_config(conn), "head")
        after = store_revision(conn)
    assert after == head
    return Upgrade(before, head, legacy, added, created, tuple(pending))


def schema_drift(conn: Connection, metadata: MetaData) -> list[Any]:
    """How the store of ``conn`` differs from the tables ``metadata`` declares, as Alembic's
    comparison lists it (empty: none)."""
    from alembic.autogenerate import compare_metadata

    context = MigrationContext.configure(conn, opts={"version_table": VERSION_TABLE})
    return list(compare_metadata(context, metadata))


def check_revision(engine: Engine) -> str | None:
    """The store's revision, after refusing one newer than this version knows."""
    with engine.connect() as conn:
        revision = store_revision(conn)
    if revision is not None and revision not in {s.revision for s in scripts().walk_revisions()}:
        raise StoreNewerError(revision, head_revision())
    return revision
