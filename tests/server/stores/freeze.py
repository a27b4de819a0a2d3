"""Make the frozen stores of ``tests/server/test_migrations.py``: a store written by the
code on ``PYTHONPATH`` (``splash serve`` run from it), with ended, playing, open, refereed
and closed rooms in it, a chat line and a takeback.

Run from a checkout of the version to freeze::

    PYTHONPATH=<checkout>/src python tests/server/stores/freeze.py sqlite:///pre-revisions.db
    PYTHONPATH=<checkout>/src python tests/server/stores/freeze.py <postgresql-url> \\
        --sql pre-revisions.postgresql.sql

With ``--sql`` the PostgreSQL store is written out as a script of DDL and ``INSERT``
statements (the tables as that version created them, reflected, then their rows).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import MetaData, create_engine, insert, select
from sqlalchemy.dialects import postgresql
from sqlalchemy.schema import CreateTable
from websockets.sync.client import ClientConnection, connect

from tests.server.process import free_port

SMALL_BASH = [
    "options.teams=2",
    "board.laps=1",
    "board.lanes.outer=12",
    "board.lanes.centre=10",
    "board.lanes.high_tide=8",
]
FORMAT = "splash/ws/1"


def send(ws: ClientConnection, kind: str, **fields: Any) -> None:
    ws.send(json.dumps({"format": FORMAT, "type": kind, **fields}))


def play(ws: ClientConnection, token: str, *, moves: int, referee: bool = False) -> int:
    """Join with ``token`` and enter ``moves`` actions (the first legal one each time; a
    referee also enters the last outcome of each roll); how many were acknowledged."""
    send(ws, "join", token=token)
    acked = 0
    while acked < moves:
        try:
            doc = json.loads(ws.recv(timeout=10))
        except TimeoutError:
            return acked  # a referee's turn to reveal a hand: enough for a store
        if doc["type"] == "ack":
            acked += 1
            continue
        view = doc.get("view")
        if (
            doc.get("status") == "over"
            or not view
            or doc["type"] not in ("welcome", "update", "state")
        ):
            continue
        expect = doc["index"] + (1 if doc["type"] == "update" else 0)
        if referee and view["to_act"] == -1:
            pending = view.get("pending_chance")
            if pending and pending["event"]["kind"] == "roll":
                send(ws, "outcome", action=pending["outcomes"][-1], expect=expect)
        elif view["legal_actions"] and (referee or view["to_act"] == 0):
            fields = {"seat": view["to_act"]} if referee else {}
            send(ws, "act", action=view["legal_actions"][0], expect=expect, **fields)
    return acked


def fill(base: str) -> None:
    """The rooms of a frozen store."""
    http = httpx.Client(base_url=base, timeout=30)

    def create(**body: Any) -> dict[str, Any]:
        response = http.post("/api/rooms", json=body)
        response.raise_for_status()
        created: dict[str, Any] = response.json()
        return created

    ended = [
        create(game="bash", settings=SMALL_BASH, bots=["greedy", "random"], name="bots")["room"][
            "id"
        ],
        create(game="tower", settings=["options.players=3"], bots=["random"] * 3, name="tower")[
            "room"
        ]["id"],
    ]
    playing = create(game="bash", settings=SMALL_BASH, bots=[None, "random"], name="person")
    room = playing["room"]["id"]
    token = http.post(f"/api/rooms/{room}/seats/0", json={"name": "Ann"}).json()["token"]
    port = base.rsplit(":", 1)[1]
    with connect(f"ws://127.0.0.1:{port}/ws/rooms/{room}") as ws:
        play(ws, token, moves=6)
        send(ws, "chat", text="good luck")
        send(ws, "undo")
        time.sleep(1)
    create(game="bash", settings=SMALL_BASH, bots=[None, "greedy"], name="open")
    closed = create(game="tower", settings=["options.players=3"], name="closed")
    http.delete(
        f"/api/rooms/{closed['room']['id']}",
        headers={"Authorization": f"Bearer {closed['host_token']}"},
    ).raise_for_status()
    refereed = create(game="bash", mode="referee", settings=SMALL_BASH, name="table")
    with connect(f"ws://127.0.0.1:{port}/ws/rooms/{refereed['room']['id']}") as ws:
        play(ws, refereed["referee_token"], moves=8, referee=True)
    deadline = time.monotonic() + 120
    while any(http.get(f"/api/rooms/{r}").json()["status"] != "over" for r in ended):
        if time.monotonic() > deadline:
            raise SystemExit("the bots' games did not end")
        time.sleep(0.5)


def dump_sql(url: str, out: Path) -> None:
    """The PostgreSQL store of ``url`` as DDL and ``INSERT`` statements."""
    engine = create_engine(url)
    meta = MetaData()
    meta.reflect(engine)
    dialect = postgresql.dialect()  # type: ignore[no-untyped-call]
    lines = ["-- A store frozen by tests/server/stores/freeze.py.", ""]
    with engine.connect() as conn:
        for table in meta.sorted_tables:
            lines.append(str(CreateTable(table).compile(dialect=dialect)).strip() + ";")
        for table in meta.sorted_tables:
            key = [column for column in table.primary_key.columns]
            for row in conn.execute(select(table).order_by(*key)).mappings():
                statement = insert(table).values(**row)
                lines.append(
                    str(statement.compile(dialect=dialect, compile_kwargs={"literal_binds": True}))
                    + ";"
                )
    engine.dispose()
    out.write_text("\n".join(lines) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("url")
    parser.add_argument("--sql", type=Path)
    args = parser.parse_args()
    port = free_port()
    command = [sys.executable, "-c", "from splash.cli.main import main; main()", "serve"]
    command += ["--db", args.url, "--port", str(port), "--log-level", "warning"]
    process = subprocess.Popen(command)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/health/ready").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("the server did not start")
            time.sleep(0.2)
        fill(f"http://127.0.0.1:{port}")
    finally:
        process.terminate()
        process.wait(timeout=30)
    if args.sql:
        dump_sql(args.url, args.sql)


if __name__ == "__main__":
    main()
