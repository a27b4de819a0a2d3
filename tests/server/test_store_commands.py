"""``splash db backup``, ``restore`` and ``check``: a backup taken in the middle of a
20-game load holds every action acknowledged before it began and replays; a restore is
refused while a server uses the store and keeps the store it replaces; the check finds each
kind of damage and says where."""

from __future__ import annotations

import asyncio
import json
import shutil
import time
from pathlib import Path

import pytest
from sqlalchemy import text
from typer.testing import CliRunner, Result

from splash.cli.main import app
from splash.core.actions import Json
from splash.server import storage
from splash.server.backup import StoreFileError, backup, restore, store_in_use
from splash.server.migrate import upgrade_store
from splash.server.store_check import check_store
from tests.server.drill import Cluster, RoomPlay, cluster_of, open_rooms, play_room

FROZEN_SQLITE = Path(__file__).parent / "stores" / "pre-revisions.sqlite"


def splash_db(*args: str) -> Result:
    runner = CliRunner(env={"COLUMNS": "200", "LANG": "en_GB.UTF-8"})
    return runner.invoke(app, ["db", *args])


async def _load_with_backup(
    cluster: Cluster, url: str, copy: Path
) -> tuple[list[RoomPlay], dict[str, dict[int, Json]]]:
    plays = await open_rooms(cluster, 20)
    until = time.monotonic() + 12
    players = [
        asyncio.create_task(play_room(cluster, play, seed=n, until=until, think=(0.01, 0.05)))
        for n, play in enumerate(plays)
    ]
    await asyncio.sleep(4)
    before = {play.room: dict(play.acked) for play in plays}
    await asyncio.to_thread(backup, url, copy)
    await asyncio.gather(*players)
    return plays, before


@pytest.mark.slow
def test_a_backup_during_a_load_holds_every_acknowledged_action_and_restores(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'live.db'}"
    copy = tmp_path / "copy.db"
    with cluster_of(url, 1, cluster=False, log_level="warning") as cluster:
        plays, before = asyncio.run(_load_with_backup(cluster, url, copy))
        assert store_in_use(tmp_path / "live.db")
        with pytest.raises(StoreFileError, match="a server is using this store"):
            restore(url, copy)
        refused = splash_db("restore", str(copy), "--db", url)
        assert refused.exit_code == 2 and "a server is using this store" in refused.output
    acked_before = sum(len(acked) for acked in before.values())
    acked_after = sum(len(play.acked) for play in plays)
    assert acked_before >= 20 and acked_after > acked_before  # the load went on meanwhile
    engine = storage.make_engine(f"sqlite:///{copy}")
    try:
        for room, acked in before.items():
            stored = {
                row.index: row.action for row in storage.load_actions(engine=engine, room_id=room)
            }
            missing = [index for index, action in acked.items() if stored.get(index) != action]
            assert missing == [], (room, missing)
        report = check_store(engine)
        assert report.findings == [] and report.rooms == report.replayed == 20
    finally:
        engine.dispose()
    (tmp_path / "live.db-wal").write_bytes(b"stale")  # a crashed server's leftovers
    restored = splash_db("restore", str(copy), "--db", url)
    assert restored.exit_code == 0, restored.output
    assert "restored" in restored.output and "kept as" in restored.output
    assert not (tmp_path / "live.db-wal").exists()
    kept = list(tmp_path.glob("live.db.replaced-*"))
    assert len(kept) == 2  # the store and its write-ahead log, kept together
    checked = splash_db("check", "--db", url)
    assert (
        checked.exit_code == 0
        and "20 rooms" in checked.output
        and "no problem found" in checked.output
    )


def _damaged_store(tmp_path: Path) -> tuple[str, dict[str, str]]:
    shutil.copy(FROZEN_SQLITE, tmp_path / "store.db")
    url = f"sqlite:///{tmp_path / 'store.db'}"
    engine = storage.make_engine(url)
    upgrade_store(engine)
    with engine.begin() as conn:
        ids = {str(r[0]): str(r[1]) for r in conn.execute(text("SELECT name, id FROM rooms"))}
        conn.execute(
            text("DELETE FROM actions WHERE room_id = :room AND idx = 10"), {"room": ids["bots"]}
        )
        conn.execute(
            text("UPDATE actions SET action = :action WHERE room_id = :room AND idx = 0"),
            {"room": ids["tower"], "action": json.dumps({"kind": "fly"})},
        )
        conn.execute(
            text("UPDATE rooms SET status = 'over' WHERE id = :room"), {"room": ids["person"]}
        )
        conn.execute(
            text("UPDATE seats SET kind = 'ghost' WHERE room_id = :room AND seat = 1"),
            {"room": ids["table"]},
        )
        conn.execute(
            text(
                "UPDATE seats SET kind = 'human', token = NULL WHERE room_id = :room AND seat = 0"
            ),
            {"room": ids["open"]},
        )
    engine.dispose()
    return url, ids


def test_the_check_finds_each_kind_of_damage_and_names_the_room(tmp_path: Path) -> None:
    shutil.copy(FROZEN_SQLITE, tmp_path / "clean.db")
    clean = splash_db("upgrade", "--db", f"sqlite:///{tmp_path / 'clean.db'}")
    assert clean.exit_code == 0 and "applied 0002" in clean.output
    assert splash_db("check", "--db", f"sqlite:///{tmp_path / 'clean.db'}").exit_code == 0
    url, ids = _damaged_store(tmp_path)
    result = splash_db("check", "--db", url)
    assert result.exit_code == 1 and "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.startswith("room ")]
    expected = {
        ids["bots"]: "not numbered from 0 without gaps (missing [10])",
        ids["tower"]: "does not replay",
        ids["person"]: "over but its log does not reach the end",
        ids["table"]: "unknown kind 'ghost'",
        ids["open"]: "a person's with no token",
    }
    for room, words in expected.items():
        assert any(line.startswith(f"room {room}:") and words in line for line in lines), (
            room,
            lines,
        )
    assert f"room {ids['open']}: it waits for players (status open) with no seat open" in lines
    assert len(lines) == len(expected) + 1
    assert "6 problem(s)" in result.output


def test_a_backup_refuses_to_overwrite_and_an_old_schema_is_named(tmp_path: Path) -> None:
    shutil.copy(FROZEN_SQLITE, tmp_path / "old.db")
    url = f"sqlite:///{tmp_path / 'old.db'}"
    unchecked = splash_db("check", "--db", url)
    assert unchecked.exit_code == 1 and "run splash db upgrade" in unchecked.output
    first = splash_db("backup", str(tmp_path / "copy.db"), "--db", url)
    assert first.exit_code == 0 and "6 rooms" in first.output
    second = splash_db("backup", str(tmp_path / "copy.db"), "--db", url)
    assert second.exit_code == 2 and "the file exists" in second.output
    assert splash_db("backup", str(tmp_path / "copy.db"), "--db", url, "--force").exit_code == 0
