"""Keeping connections: the server's WebSocket pings drop a client cut off within the bound
of the page's own heartbeat, a process fenced off refuses a new socket before the upgrade,
and the nginx configuration of docs/server.md (what ``bench/server_faults.py`` runs) loads
in nginx."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse

from splash.cli.serve import uvicorn_options
from splash.server.app import create_app
from splash.server.hub import RoomHub
from splash.server.settings import ServerSettings
from tests.server.drill import CLIENT_JS, Heartbeat
from tests.server.nginx import SERVER_DOC, nginx_block, nginx_check, nginx_config, nginx_program

ROOT = Path(__file__).resolve().parents[2]


def test_uvicorn_drops_a_silent_client_within_the_pages_bound() -> None:
    page = Heartbeat(CLIENT_JS.read_text())
    options = uvicorn_options(ServerSettings())
    assert page.pong_within <= page.ping_every
    assert options["ws_ping_interval"] + options["ws_ping_timeout"] <= (
        page.ping_every + page.pong_within
    )


def test_a_fenced_process_refuses_a_socket_with_503_before_the_upgrade(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = ServerSettings(database_url=f"sqlite:///{tmp_path / 'fenced.db'}")
    with TestClient(create_app(settings)) as client:
        room = client.post("/api/rooms", json={"game": "bash", "bots": [None, "random"]})
        room_id = room.json()["room"]["id"]
        monkeypatch.setattr(RoomHub, "fenced", property(lambda _hub: True))
        with (
            pytest.raises(WebSocketDenialResponse) as refused,
            client.websocket_connect(f"/ws/rooms/{room_id}"),
        ):
            pass
        assert refused.value.status_code == 503
        assert refused.value.headers["retry-after"] == "1"
        assert refused.value.json()["detail"]["code"] == "room_moved"


def test_the_docs_nginx_block_loads_with_the_drills_ports(tmp_path: Path) -> None:
    block = nginx_block(SERVER_DOC.read_text())
    config = nginx_config(block, 18080, [18001, 18002, 18003], tmp_path)
    assert "listen 18080;" in config and "127.0.0.1:18003 " in config
    program = nginx_program()
    if program is None:
        pytest.skip("nginx is not installed (make system-deps)")
    (tmp_path / "nginx.conf").write_text(config)
    assert nginx_check(program, tmp_path / "nginx.conf") == ""
