"""``make run`` starts the play server with its SQLite store; the home page loads."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from tests.server.process import free_port

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_run_serves_the_home_page(tmp_path: Path) -> None:
    port = free_port()
    database = tmp_path / "splash.db"
    process = subprocess.Popen(
        ["make", "--no-print-directory", "run", f"PORT={port}", f"DB=sqlite:///{database}"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        page = None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and process.poll() is None:
            try:
                page = httpx.get(f"http://127.0.0.1:{port}/", timeout=2)
                break
            except httpx.TransportError:
                time.sleep(0.2)
        assert page is not None, "the server did not answer within 60 s"
        assert page.status_code == 200
        assert "/static/js/lobby.js" in page.text
        rooms = httpx.get(f"http://127.0.0.1:{port}/api/rooms", timeout=5)
        assert rooms.status_code == 200
        assert database.exists()
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
