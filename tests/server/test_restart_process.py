"""A real server process killed with SIGKILL loses nothing it acknowledged: restarted on the
same database, it gives the seat its game back where it was."""

from __future__ import annotations

import json
import signal

import httpx
import numpy as np
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from splash.core.protocol import TERMINAL
from splash.core.record import GameRecord
from splash.server.protocol import CLOSE_ROOM_CLOSED
from splash.server.rules import build_game
from tests.server.conversation import SMALL_BASH, msg
from tests.server.messages import ActionDoc, RoomCreateBody, ServerMessage
from tests.server.process import free_port, server


def receive(ws: ClientConnection) -> ServerMessage:
    doc: ServerMessage = json.loads(ws.recv(timeout=20))
    return doc


@pytest.mark.slow
def test_kill_9_then_restart_keeps_every_acknowledged_action(database_url: str) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    rng = np.random.default_rng(5)
    acked: dict[int, ActionDoc] = {}
    with server(database_url, port) as process:
        body: RoomCreateBody = {"game": "bash", "settings": SMALL_BASH, "bots": [None, "random"]}
        room = httpx.post(f"{base}/api/rooms", json=body).json()["room"]["id"]
        token = httpx.post(f"{base}/api/rooms/{room}/seats/0", json={"name": "ann"}).json()["token"]
        with connect(f"ws://127.0.0.1:{port}/ws/rooms/{room}") as ws:
            ws.send(json.dumps(msg("join", token=token)))
            doc = receive(ws)
            sent: dict[int, ActionDoc] = {}
            while len(acked) < 8:
                if doc["type"] in ("welcome", "state", "update"):
                    view = doc["view"]
                    if view["to_act"] == 0 and view["legal_actions"]:
                        index = doc["index"] + (1 if doc["type"] == "update" else 0)
                        legal = view["legal_actions"]
                        choice = legal[int(rng.integers(len(legal)))]
                        sent[index] = choice
                        ws.send(json.dumps(msg("act", action=choice, expect=index)))
                doc = receive(ws)
                if doc["type"] == "ack":
                    acked[doc["index"]] = sent[doc["index"]]
            process.send_signal(signal.SIGKILL)
            process.wait()
    with server(database_url, port):
        with connect(f"ws://127.0.0.1:{port}/ws/rooms/{room}") as ws:
            ws.send(json.dumps(msg("join", token=token)))
            welcome = receive(ws)
        assert welcome["type"] == "welcome" and welcome["seat"] == 0
        record = (
            GameRecord.from_json(httpx.get(f"{base}/api/rooms/{room}/replay").json())
            if welcome["status"] == "over"
            else None
        )
        room_doc = httpx.get(f"{base}/api/rooms/{room}").json()
    assert room_doc["actions"] >= welcome["index"] > max(acked)
    if record is None:
        # The log itself is hidden while the game runs: rebuild it from the database.
        from splash.server import storage

        engine = storage.make_engine(database_url)
        try:
            actions = [row.action for row in storage.load_actions(engine=engine, room_id=room)]
        finally:
            engine.dispose()
    else:
        actions = record.actions
    for index, action in acked.items():
        assert actions[index] == action
    game = build_game("bash", SMALL_BASH, "play")
    state = GameRecord("bash", {}, actions).replay(game, welcome["index"])
    assert welcome["view"] == json.loads(json.dumps(state.view(0)))


@pytest.mark.slow
def test_a_closed_room_stays_closed_after_a_restart_and_its_replay_is_served(
    sqlite_url: str,
) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    body: RoomCreateBody = {"game": "bash", "settings": SMALL_BASH}
    with server(sqlite_url, port) as process:
        created = httpx.post(f"{base}/api/rooms", json=body).json()
        room, host = created["room"]["id"], created["host_token"]
        tokens = [
            httpx.post(f"{base}/api/rooms/{room}/seats/{seat}", json={"name": "p"}).json()["token"]
            for seat in (0, 1)
        ]
        with connect(f"ws://127.0.0.1:{port}/ws/rooms/{room}") as ws:
            ws.send(json.dumps(msg("join", token=tokens[0])))
            welcome = receive(ws)
            assert welcome["type"] == "welcome"
            ws.send(json.dumps(msg("act", action=welcome["view"]["legal_actions"][0], expect=0)))
            while receive(ws)["type"] != "ack":
                pass
            closed = httpx.delete(
                f"{base}/api/rooms/{room}", headers={"Authorization": f"Bearer {host}"}
            )
            assert closed.status_code == 200 and closed.json()["status"] == "closed"
            doc = receive(ws)
            while doc["type"] != "closed":
                doc = receive(ws)
            with pytest.raises(ConnectionClosed) as gone:
                ws.recv(timeout=20)
        assert gone.value.rcvd is not None and gone.value.rcvd.code == CLOSE_ROOM_CLOSED
        length = doc["index"]
        process.send_signal(signal.SIGKILL)
        process.wait()
    with server(sqlite_url, port):
        assert room not in [r["id"] for r in httpx.get(f"{base}/api/rooms").json()]
        with connect(f"ws://127.0.0.1:{port}/ws/rooms/{room}") as ws:
            ws.send(json.dumps(msg("join", token=tokens[1])))
            refused = receive(ws)
        assert refused["type"] == "error" and refused["code"] == "room_closed"
        assert httpx.get(f"{base}/api/rooms/{room}").json()["status"] == "closed"
        record = httpx.get(f"{base}/api/rooms/{room}/replay")
        assert record.status_code == 200 and len(record.json()["actions"]) == length
        last = httpx.get(f"{base}/api/rooms/{room}/replay/{length}").json()
        assert last["to_act"] != TERMINAL


@pytest.mark.slow
def test_kill_9_after_a_takeback_resumes_the_line_of_play(sqlite_url: str) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with server(sqlite_url, port) as process:
        body: RoomCreateBody = {"game": "bash", "settings": SMALL_BASH, "bots": [None, "random"]}
        room = httpx.post(f"{base}/api/rooms", json=body).json()["room"]["id"]
        token = httpx.post(f"{base}/api/rooms/{room}/seats/0", json={"name": "ann"}).json()["token"]
        with connect(f"ws://127.0.0.1:{port}/ws/rooms/{room}") as ws:
            ws.send(json.dumps(msg("join", token=token)))
            doc = receive(ws)
            acted = 0
            while True:
                if doc["type"] == "undone":
                    undone = doc
                    break
                if doc["type"] in ("welcome", "update") and doc["view"]["to_act"] == 0:
                    legal = doc["view"]["legal_actions"]
                    index = doc["index"] + (1 if doc["type"] == "update" else 0)
                    if acted < 3:
                        ws.send(json.dumps(msg("act", action=legal[0], expect=index)))
                        acted += 1
                    else:
                        ws.send(json.dumps(msg("undo", expect=index)))
                doc = receive(ws)
        process.send_signal(signal.SIGKILL)
        process.wait()
    with server(sqlite_url, port), connect(f"ws://127.0.0.1:{port}/ws/rooms/{room}") as ws:
        ws.send(json.dumps(msg("join", token=token)))
        welcome = receive(ws)
    assert welcome["type"] == "welcome"
    assert welcome["index"] == undone["index"]
    assert welcome["view"] == undone["view"]
