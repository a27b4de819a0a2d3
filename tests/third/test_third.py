"""Third, declared outside ``splash``, plays wherever a game plays: ``splash simulate`` in
worker processes, a WebSocket room with a bot, and PettingZoo's API test (the conformance
suite plays its variants too)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import httpx
import numpy as np
import pytest

from splash.envs.aec import game_env
from splash.games.registry import GameDeclaration
from tests.envs.pettingzoo_warnings import expected_warnings
from tests.server.conversation import create_room, join, msg, take_seat
from tests.server.harness import ServerClient
from tests.third.conftest import REFERENCE
from tests.third.game import CARDS

ROOT = Path(__file__).resolve().parents[2]


def test_splash_simulate_plays_it_in_two_workers(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "SPLASH_GAMES": REFERENCE,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    out = tmp_path / "results"
    command = [sys.executable, "-c", "from splash.cli.main import main; main()"]
    args = ["simulate", "third", "--games", "6", "--workers", "2", "--out", str(out)]
    done = subprocess.run(
        [*command, *args],
        check=False,
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "Wins of seat 0 (random)" in done.stdout
    assert "Decisions per game" in done.stdout


def test_pettingzoo_api_test_passes(registered: GameDeclaration) -> None:
    with expected_warnings():
        from pettingzoo.test import api_test

        api_test(game_env(registered.id), num_cycles=200)


def _frames(ws: object, seat: int | None, rng: np.random.Generator) -> list[str]:
    """Every frame a connection receives up to the end of the game, the seat (if any)
    playing random legal actions."""
    from starlette.testclient import WebSocketTestSession

    assert isinstance(ws, WebSocketTestSession)
    frames: list[str] = []
    while True:
        raw = ws.receive_text()
        frames.append(raw)
        doc = json.loads(raw)
        if doc["type"] == "update" and doc.get("status") == "over":
            return frames
        view = doc.get("view") or {}
        if seat is not None and doc["type"] in ("welcome", "update") and view["to_act"] == seat:
            legal = view["legal_actions"]
            index = doc["index"] + (1 if doc["type"] == "update" else 0)
            choice = legal[int(rng.integers(len(legal)))]
            ws.send_json(msg("act", action=choice, expect=index))


@pytest.mark.parametrize("game_number", range(3))
def test_a_room_with_a_bot_plays_to_the_end_hiding_the_bots_card(
    registered: GameDeclaration, client: ServerClient, game_number: int
) -> None:
    created = create_room(client, game=registered.id, bots=[None, "random"])
    room = created["room"]["id"]
    token = str(take_seat(client, room, 0))
    rng = np.random.default_rng(game_number)
    with client.websocket_connect(f"/ws/rooms/{room}") as spectator:
        join(spectator)
        with client.websocket_connect(f"/ws/rooms/{room}") as ws:
            ws.send_json(msg("join", token=token))
            mine = _frames(ws, 0, rng)
        public = _frames(spectator, None, rng)
    replay = client.get(f"/api/rooms/{room}/replay").json()
    dealt = [a["card"] for a in replay["actions"] if a["kind"] == "deal"]
    assert len(dealt) == 2 and set(dealt) <= set(CARDS)
    own, bots = dealt
    assert any(own in frame for frame in mine)
    for frame in mine:
        assert bots not in frame
    for frame in public:
        assert bots not in frame and own not in frame
    for frames in (mine, public):
        last = json.loads(frames[-1])
        assert set(last["view"]["summary"]) == {"scores", "places"}


def test_a_server_in_another_process_serves_and_plays_it(tmp_path: Path) -> None:
    from websockets.sync.client import connect

    from tests.server.process import TEST_LIMITS, free_port, server

    port = free_port()
    settings = {
        **TEST_LIMITS,
        "SPLASH_GAMES": REFERENCE,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    base = f"http://127.0.0.1:{port}"
    with server(f"sqlite:///{tmp_path / 'rooms.db'}", port, settings):
        games = httpx.get(f"{base}/api/games").json()
        third = next(game for game in games if game["id"] == "third")
        assert third["page"] is None
        created = httpx.post(f"{base}/api/rooms", json={"game": "third", "bots": [None, "random"]})
        assert created.status_code == 201, created.text
        room = created.json()["room"]["id"]
        seat = httpx.post(f"{base}/api/rooms/{room}/seats/0", json={"name": "p"})
        assert seat.status_code == 201, seat.text
        rng = np.random.default_rng(7)
        with connect(f"ws://127.0.0.1:{port}/ws/rooms/{room}") as ws:
            ws.send(json.dumps(msg("join", token=seat.json()["token"])))
            while True:
                doc = json.loads(ws.recv(timeout=30))
                if doc["type"] == "update" and doc.get("status") == "over":
                    break
                view = doc.get("view") or {}
                if doc["type"] in ("welcome", "update") and view["to_act"] == 0:
                    legal = view["legal_actions"]
                    index = doc["index"] + (1 if doc["type"] == "update" else 0)
                    choice = legal[int(rng.integers(len(legal)))]
                    ws.send(json.dumps(msg("act", action=choice, expect=index)))
        assert set(doc["view"]["summary"]) == {"scores", "places"}
