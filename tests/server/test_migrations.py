"""The store's schema revisions: stores frozen from the last version without revisions (an
SQLite file and a PostgreSQL script, with ended, playing, open, closed and refereed rooms)
upgrade and replay every game; an empty store gets exactly the schema the code declares; a
store newer than this version is refused, by ``splash serve`` too."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from sqlalchemy import Engine, text
from typer.testing import CliRunner

from splash.cli.main import app
from splash.server import storage
from splash.server.leases import libpq_url
from splash.server.migrate import (
    BASELINE_REVISION,
    VERSION_TABLE,
    StoreNewerError,
    head_revision,
    schema_drift,
    store_revision,
    upgrade_store,
)
from splash.server.store_check import check_store
from tests.server.conftest import fresh_postgres
from tests.server.harness import Serve

STORES = Path(__file__).parent / "stores"
FROZEN_SQLITE = STORES / "pre-revisions.sqlite"
FROZEN_POSTGRESQL = STORES / "pre-revisions.postgresql.sql"


@pytest.fixture(params=["sqlite", "postgresql"])
def frozen_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A copy of the store frozen from the last version without revisions, of each kind."""
    if request.param == "sqlite":
        shutil.copy(FROZEN_SQLITE, tmp_path / "old.db")
        yield f"sqlite:///{tmp_path / 'old.db'}"
        return
    with fresh_postgres() as url:
        with psycopg.connect(libpq_url(url), autocommit=True) as conn:
            conn.execute(FROZEN_POSTGRESQL.read_text())
        yield url


def _counts(engine: Engine) -> tuple[dict[str, str], int]:
    with engine.connect() as conn:
        statuses = {
            str(r[0]): str(r[1]) for r in conn.execute(text("SELECT name, status FROM rooms"))
        }
        actions = int(conn.execute(text("SELECT count(*) FROM actions")).scalar_one())
    return statuses, actions


def test_a_frozen_store_upgrades_and_every_game_in_it_replays(frozen_store: str) -> None:
    engine = storage.make_engine(frozen_store)
    try:
        statuses, actions = _counts(engine)
        assert statuses == {
            "bots": "over",
            "tower": "over",
            "person": "playing",
            "open": "open",
            "closed": "closed",
            "table": "playing",
        }
        done = upgrade_store(engine)
        assert done.legacy and done.before is None and done.columns_added == ()
        assert done.after == head_revision() != BASELINE_REVISION
        assert [step.split()[0] for step in done.applied] == ["0002", "0003"]
        with engine.connect() as conn:
            assert store_revision(conn) == head_revision()
            assert schema_drift(conn, storage.metadata) == []
        report = check_store(engine)
        assert report.findings == []
        assert (report.rooms, report.replayed, report.ended, report.actions) == (6, 6, 2, actions)
        again = upgrade_store(engine)
        assert again.applied == () and not again.legacy and again.before == head_revision()
        assert _counts(engine) == (statuses, actions)
    finally:
        engine.dispose()


def test_the_server_starts_on_a_frozen_store_and_serves_its_rooms(
    tmp_path: Path, serve: Serve
) -> None:
    shutil.copy(FROZEN_SQLITE, tmp_path / "old.db")
    with serve(database_url=f"sqlite:///{tmp_path / 'old.db'}") as client:
        listed = {room["name"]: room for room in client.get("/api/rooms").json()}
        assert set(listed) == {"bots", "tower", "person", "open", "table"}  # closed: not listed
        person = client.get(f"/api/rooms/{listed['person']['id']}").json()
        assert person["status"] == "playing" and person["actions"] > 0
        replay = client.get(f"/api/rooms/{listed['bots']['id']}/replay").json()
        assert len(replay["actions"]) > 100


def test_an_empty_store_gets_the_schema_the_code_declares(database_url: str) -> None:
    engine = storage.make_engine(database_url)
    try:
        done = upgrade_store(engine)
        assert done.before is None and not done.legacy
        assert [step.split()[0] for step in done.applied] == ["0001", "0002", "0003"]
        assert done.describe().startswith("upgraded an empty store to revision 0003")
        with engine.connect() as conn:
            assert schema_drift(conn, storage.metadata) == []
    finally:
        engine.dispose()


def test_a_store_newer_than_this_version_is_refused(database_url: str) -> None:
    engine = storage.make_engine(database_url)
    try:
        upgrade_store(engine)
        with engine.begin() as conn:
            conn.execute(text(f"UPDATE {VERSION_TABLE} SET version_num = '0999'"))
        with pytest.raises(StoreNewerError, match="revision 0999, newer than") as refused:
            upgrade_store(engine)
        assert refused.value.revision == "0999" and refused.value.head == head_revision()
    finally:
        engine.dispose()
    runner = CliRunner(env={"COLUMNS": "120", "LANG": "en_GB.UTF-8"})
    result = runner.invoke(app, ["serve", "--db", database_url, "--port", "1"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "revision 0999" in " ".join(result.output.replace("│", " ").split())
