"""``splash serve --log-format json`` (or ``SPLASH_LOG_FORMAT=json``): every line the process
writes, uvicorn's and the tracebacks included, is one JSON object; at debug level no line
quotes a WebSocket frame (a join carries its token)."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import tempfile
import time
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner
from websockets.sync.client import connect

import splash.cli.serve
from splash.server import storage
from splash.server.logs import JsonFormatter, NoFrames, TextFormatter, log_config, withheld
from tests.server.conversation import SMALL_BASH, msg
from tests.server.process import SERVE, free_port
from tests.server.test_serve_command import command

INSTANCE = "json-log"


def broken_store(url: str) -> str:
    """A store holding one room whose log does not replay (its first action is no action of
    the game): loading it fails with a traceback.  Its id."""
    engine = storage.make_engine(url)
    try:
        storage.create_schema(engine=engine)
        now = time.time()
        row = storage.RoomRow(
            "b0b0b0b0b0", "broken", "bash", "play", SMALL_BASH, {}, 1, None, "open", now
        )
        seats = [storage.SeatRow(0, "open"), storage.SeatRow(1, "open")]
        storage.insert_room(engine=engine, room=row, seat_rows=seats)
        storage.append_action(
            engine=engine,
            room_id=row.id,
            index=0,
            action={"kind": "nonsense"},
            actor=0,
            source="human",
        )
    finally:
        engine.dispose()
    return row.id


@pytest.mark.slow
def test_every_line_of_a_json_log_is_an_object_uvicorn_s_and_tracebacks_included(
    sqlite_url: str,
) -> None:
    broken = broken_store(sqlite_url)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    options = ["--db", sqlite_url, "--port", str(port), "--instance", INSTANCE]
    env = {**os.environ, "SPLASH_LOG_FORMAT": "json", "PYTHONUNBUFFERED": "1"}
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            [*SERVE, *options, "--log-level", "debug"],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
        )
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    if httpx.get(f"{base}/api/health").status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                assert process.poll() is None and time.monotonic() < deadline, "no server"
                time.sleep(0.1)
            body = {"game": "bash", "settings": SMALL_BASH, "bots": [None, "random"]}
            room = httpx.post(f"{base}/api/rooms", json=body).json()["room"]["id"]
            token = httpx.post(f"{base}/api/rooms/{room}/seats/0", json={}).json()["token"]
            with connect(f"ws://127.0.0.1:{port}/ws/rooms/{room}") as ws:
                ws.send(json.dumps(msg("join", token=token)))
                assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
            with connect(f"ws://127.0.0.1:{port}/ws/rooms/{broken}") as ws:
                assert json.loads(ws.recv(timeout=10))["code"] == "internal"
        finally:
            process.terminate()
            process.wait(timeout=20)
        log.seek(0)
        text = log.read().decode()
    lines: list[dict[str, Any]] = [json.loads(line) for line in text.splitlines() if line]
    assert {line["instance"] for line in lines} == {INSTANCE}
    loggers = {line["logger"] for line in lines}
    assert {"splash.server", "uvicorn.error", "uvicorn.access"} <= loggers
    assert any("GET /api/health" in line["event"] for line in lines)
    failed = [line for line in lines if "traceback" in line]
    assert failed and failed[0]["room"] == broken
    assert failed[0]["traceback"].startswith("Traceback (most recent call last):")
    assert any(line["event"] == f"room {room}: seat 0 connected" for line in lines)
    # A frame's line would show the start and end of the join's text: the token's end.
    assert token[:12] not in text and token[-12:] not in text
    assert "TEXT '" not in text


def test_the_option_and_the_variable_choose_the_format(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[dict[str, Any]] = []
    monkeypatch.setattr(
        splash.cli.serve, "run_uvicorn", lambda _app, **options: seen.append(options)
    )
    runner = CliRunner()
    assert runner.invoke(command(), ["serve", "--log-format", "json"]).exit_code == 0
    assert runner.invoke(command(), ["serve"], env={"SPLASH_LOG_FORMAT": "json"}).exit_code == 0
    assert runner.invoke(command(), ["serve"], env={"SPLASH_LOG_FORMAT": ""}).exit_code == 0
    kinds = [options["log_config"]["formatters"]["splash"]["()"] for options in seen]
    assert kinds == [JsonFormatter, JsonFormatter, TextFormatter]
    refused = runner.invoke(command(), ["serve", "--log-format", "xml"])
    assert refused.exit_code != 0 and "xml" in refused.output and len(seen) == 3
    with pytest.raises(ValueError, match="xml"):
        log_config("xml", "info")


def test_a_json_line_holds_the_room_the_seat_and_a_traceback_without_its_message() -> None:
    hidden = f"shove-{os.getpid()}"  # as a card named in an error's message
    try:
        raise KeyError(hidden)
    except KeyError as error:
        record = logging.makeLogRecord(
            {
                "msg": "room %s: failed",
                "args": ("r1",),
                "levelno": logging.ERROR,
                "levelname": "ERROR",
            }
        )
        record.__dict__.update({"room": "r1", "seat": 2, **withheld(error)})
    line = json.loads(JsonFormatter("a").format(record))
    assert (line["event"], line["room"], line["seat"], line["instance"]) == (
        "room r1: failed",
        "r1",
        2,
        "a",
    )
    assert line["traceback"].endswith("KeyError: (message withheld)")
    assert hidden not in json.dumps(line)
    plain = json.loads(JsonFormatter().format(logging.makeLogRecord({"msg": "hello"})))
    assert (plain["room"], plain["seat"], plain["instance"]) == (None, None, None)


def test_the_websockets_frames_are_not_logged_at_debug_level() -> None:
    frame = logging.makeLogRecord(
        {
            "msg": "< %s",
            "levelno": logging.DEBUG,
            "pathname": "/x/site-packages/websockets/protocol.py",
        }
    )
    ours = logging.makeLogRecord(
        {"msg": "debug", "levelno": logging.DEBUG, "pathname": "/x/room.py"}
    )
    closed = logging.makeLogRecord(
        {"msg": "closed", "levelno": logging.INFO, "pathname": "/x/websockets/protocol.py"}
    )
    assert [NoFrames().filter(r) for r in (frame, ours, closed)] == [False, True, True]
