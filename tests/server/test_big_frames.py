"""The door of ``splash serve``: frames longer than the protocol's limit are refused by
uvicorn before they are read, so ten tokenless 16 MiB frames at once cost the server no
memory worth the name, and it keeps answering its health route."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.server.conversation import SMALL_BASH
from tests.server.process import free_port, server, splash_serve

FRAME = b"x" * (16 * 1024 * 1024)
GROWTH_LIMIT_MB = 50


async def send_big_frame(port: int, room: str) -> int | None:
    """One connection to ``room``, no join, one 16 MiB frame; the close code it got."""
    try:
        async with connect(f"ws://127.0.0.1:{port}/ws/rooms/{room}", max_size=None) as ws:
            await ws.send(FRAME)
            await ws.recv()
    except (ConnectionClosed, OSError) as closed:
        received = getattr(closed, "rcvd", None)
        return None if received is None else int(received.code)
    return None


def memory_kb(pid: int, field: str) -> int:
    """``VmRSS`` (now) or ``VmHWM`` (the peak) of process ``pid``, in KiB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise LookupError(field)


def test_ten_16_mib_frames_at_once_cost_under_50_mb_and_health_answers(tmp_path: Path) -> None:
    port = free_port()
    with splash_serve(f"sqlite:///{tmp_path / 'door.db'}", port) as server:
        body = {"game": "bash", "settings": SMALL_BASH}
        created = httpx.post(f"http://127.0.0.1:{port}/api/rooms", json=body, timeout=10)
        room = created.json()["room"]["id"]
        # "5" resets the peak to the resident size now (proc(5), clear_refs).
        Path(f"/proc/{server.pid}/clear_refs").write_text("5")
        start = memory_kb(server.pid, "VmRSS")

        async def attack() -> list[int | None]:
            return list(await asyncio.gather(*(send_big_frame(port, room) for _ in range(10))))

        codes = asyncio.run(attack())
        health = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=5)
        peak = memory_kb(server.pid, "VmHWM")
        assert health.status_code == 200
        # 1009: message too big, from the WebSocket layer, before the frame is read.
        assert set(codes) <= {1009, None} and 1009 in codes, codes
        growth_mb = (peak - start) / 1024
        assert growth_mb < GROWTH_LIMIT_MB, f"peak RSS grew by {growth_mb:.0f} MB"


def test_the_server_of_the_restart_tests_has_the_door_of_splash_serve(tmp_path: Path) -> None:
    port = free_port()
    with server(f"sqlite:///{tmp_path / 'door.db'}", port):
        body = {"game": "bash", "settings": SMALL_BASH}
        created = httpx.post(f"http://127.0.0.1:{port}/api/rooms", json=body, timeout=10)
        room = created.json()["room"]["id"]
        codes = asyncio.run(send_big_frame(port, room))
    assert codes == 1009  # refused by the WebSocket layer: uvicorn has the 64 KiB limit
