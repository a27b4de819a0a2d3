"""``splash db backup`` and ``splash db restore`` of an SQLite store, and the lock by which a
running server keeps a restore off its store.

A backup is SQLite's online backup (:meth:`sqlite3.Connection.backup`): a consistent copy
of the store as of one moment, taken while a server writes to it.  A restore refuses a file
that is no splash store or one newer than this version, and a store a server holds
(:func:`hold_store`); it keeps the store it replaces beside it, and removes the replaced
store's ``-wal`` and ``-shm`` files, which belong to it alone.  A PostgreSQL store is backed
up and restored with PostgreSQL's own tools (:func:`postgresql_commands`).
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import URL, make_url

from splash.core.errors import SplashError
from splash.core.i18n import message
from splash.server.migrate import VERSION_TABLE, head_revision, scripts


class StoreFileError(SplashError):
    """A backup or restore that cannot be done; ``path`` is the file at fault."""

    def __init__(self, path: str, problem: str) -> None:
        self.path = path
        self.problem = problem
        super().__init__(message("{path}: {problem}", path=path, problem=problem))


def sqlite_path(database_url: str) -> Path | None:
    """The file of an SQLite store's URL (``None``: not SQLite, or in memory)."""
    url = make_url(database_url)
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return None
    return Path(url.database).expanduser()


@contextmanager
def hold_store(database_url: str) -> Iterator[None]:
    """Hold the SQLite store of ``database_url`` (a shared lock on its file, which every
    server process of the store holds) for the body: :func:`restore` refuses it meanwhile.
    Nothing for other stores."""
    path = sqlite_path(database_url)
    if path is None:
        yield
        return
    with open(path, "ab") as handle:
        fcntl.flock(handle, fcntl.LOCK_SH)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def store_in_use(path: Path) -> bool:
    """Whether a server holds the store ``path`` (:func:`hold_store`)."""
    if not path.exists():
        return False
    with open(path, "rb") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(handle, fcntl.LOCK_UN)
    return False


@dataclass(frozen=True)
class Copied:
    """A store copied: where to, its size, its rooms and stored actions, how long it took."""

    path: Path
    bytes: int
    rooms: int
    actions: int
    seconds: float

    def describe(self) -> str:
        """One line for a person."""
        return (
            f"{self.path}: {self.rooms} rooms, {self.actions} stored actions,"
            f" {self.bytes / 1e6:.2f} MB, in {self.seconds:.2f} s"
        )


def _counts(conn: sqlite3.Connection) -> tuple[int, int]:
    rooms = conn.execute("SELECT count(*) FROM rooms").fetchone()[0]
    actions = conn.execute("SELECT count(*) FROM actions").fetchone()[0]
    return int(rooms), int(actions)


def _revision(conn: sqlite3.Connection, path: Path) -> str | None:
    """The schema revision of the splash store ``conn`` (``None``: a store of a version
    before revisions); :class:`StoreFileError` for a database that is no splash store."""
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if "rooms" not in tables:
        raise StoreFileError(str(path), "this is not a splash store (it has no rooms table)")
    if VERSION_TABLE not in tables:
        return None
    row = conn.execute(f"SELECT version_num FROM {VERSION_TABLE}").fetchone()
    return None if row is None else str(row[0])


def backup(database_url: str, target: Path, *, force: bool = False) -> Copied:
    """Copy the SQLite store of ``database_url`` to ``target`` while servers may write to it:
    the copy is the store as of one moment, checked before it takes ``target``'s name."""
    source = sqlite_path(database_url)
    if source is None:
        raise StoreFileError(database_url, "only an SQLite store is backed up by splash")
    if not source.is_file():
        raise StoreFileError(str(source), "there is no store here to back up")
    if target.exists() and not force:
        raise StoreFileError(str(target), "the file exists: choose another name, or --force")
    if not target.parent.is_dir():
        raise StoreFileError(str(target), "its folder does not exist")
    partial = target.with_name(f".{target.name}.partial")
    start = time.monotonic()
    try:
        with closing(sqlite3.connect(source, timeout=30)) as src:
            _revision(src, source)
            with closing(sqlite3.connect(partial)) as copy:
                src.backup(copy)
                copy.execute("PRAGMA journal_mode=DELETE")
                verdict = copy.execute("PRAGMA integrity_check").fetchone()[0]
                if verdict != "ok":
                    raise StoreFileError(
                        str(target), f"the copy fails its integrity check: {verdict}"
                    )
                rooms, actions = _counts(copy)
        with open(partial, "rb") as handle:
            os.fsync(handle.fileno())
        partial.replace(target)
    except sqlite3.Error as error:
        raise StoreFileError(str(source), f"the copy failed: {error}") from None
    finally:
        partial.unlink(missing_ok=True)
    return Copied(target, target.stat().st_size, rooms, actions, time.monotonic() - start)


@dataclass(frozen=True)
class Restored:
    """A restore: the store it made, and where the store it replaced is kept."""

    copied: Copied
    kept: Path | None

    def describe(self) -> str:
        """One line for a person."""
        kept = f"; the store it replaced is kept as {self.kept}" if self.kept else ""
        return f"restored {self.copied.describe()}{kept}"


def restore(database_url: str, backup_file: Path) -> Restored:
    """Make ``backup_file`` the SQLite store of ``database_url``: refused while a server
    holds the store, and for a file that is not a splash store this version can open."""
    target = sqlite_path(database_url)
    if target is None:
        raise StoreFileError(database_url, "only an SQLite store is restored by splash")
    if not backup_file.is_file():
        raise StoreFileError(str(backup_file), "there is no such file")
    if store_in_use(target):
        raise StoreFileError(str(target), "a server is using this store: stop it before restoring")
    start = time.monotonic()
    partial = target.with_name(f".{target.name}.restoring")
    try:
        with closing(sqlite3.connect(f"file:{backup_file}?mode=ro", uri=True)) as src:
            revision = _revision(src, backup_file)
            known = {script.revision for script in scripts().walk_revisions()}
            if revision is not None and revision not in known:
                raise StoreFileError(
                    str(backup_file),
                    f"its schema is revision {revision}, newer than this version knows"
                    f" (up to {head_revision()})",
                )
            with closing(sqlite3.connect(partial)) as copy:
                src.backup(copy)
                copy.execute("PRAGMA journal_mode=DELETE")
                verdict = copy.execute("PRAGMA integrity_check").fetchone()[0]
                if verdict != "ok":
                    raise StoreFileError(
                        str(backup_file), f"it fails its integrity check: {verdict}"
                    )
                rooms, actions = _counts(copy)
        with open(partial, "rb") as handle:
            os.fsync(handle.fileno())
        kept = None
        if target.exists():
            kept = target.with_name(f"{target.name}.replaced-{time.strftime('%Y%m%d-%H%M%S')}")
            target.replace(kept)
        for suffix in ("-wal", "-shm"):
            stale = target.with_name(target.name + suffix)
            if stale.exists():
                if kept is not None:
                    stale.replace(kept.with_name(kept.name + suffix))
                else:
                    stale.unlink()
        partial.replace(target)
    except sqlite3.Error as error:
        raise StoreFileError(str(backup_file), f"the restore failed: {error}") from None
    finally:
        partial.unlink(missing_ok=True)
    copied = Copied(target, target.stat().st_size, rooms, actions, time.monotonic() - start)
    return Restored(copied, kept)


def postgresql_commands(database_url: str, file: str) -> tuple[str, str]:
    """The ``pg_dump`` and ``pg_restore`` commands that back up and restore a PostgreSQL
    store (its password left out: give it by ``PGPASSWORD`` or ``~/.pgpass``)."""
    url = make_url(database_url)
    bare = URL.create("postgresql", url.username, None, url.host, url.port, url.database)
    target = bare.render_as_string(hide_password=False)
    return (
        f"pg_dump --format=custom --file={file} '{target}'",
        f"pg_restore --clean --if-exists --dbname='{target}' {file}",
    )
