"""The play server in a process of its own, as users run it: for the tests that need a real
server (restart after ``kill -9``, ``make run``, the browser tests)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

import httpx


def free_port() -> int:
    """A free TCP port of 127.0.0.1."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


FROM_ENV = (
    "from splash.cli.serve import serve; from splash.server.settings import ServerSettings;"
    " serve(ServerSettings.from_env(), 'warning')"
)
"""``splash serve`` with the settings of the ``SPLASH_SERVER_*`` variables (some have no
option of the command)."""

TEST_LIMITS = {"SPLASH_SERVER_ROOM_CREATIONS_PER_MINUTE": "1000"}
"""The tests create rooms from one address faster than people do."""


@contextmanager
def server(
    database_url: str, port: int, settings: Mapping[str, str] = TEST_LIMITS
) -> Iterator[subprocess.Popen[bytes]]:
    """The play server on 127.0.0.1:``port`` with ``database_url`` (and the
    ``SPLASH_SERVER_*`` variables of ``settings``), started as ``splash serve`` starts it
    (its uvicorn options: the frame limit, no compression), once it answers its health
    check; killed at the end."""
    env = {
        **os.environ,
        **settings,
        "SPLASH_SERVER_DATABASE_URL": database_url,
        "SPLASH_SERVER_HOST": "127.0.0.1",
        "SPLASH_SERVER_PORT": str(port),
    }
    command = [sys.executable, "-c", FROM_ENV]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/health").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(
                    process.stderr.read().decode() if process.stderr else "no server"
                )
            time.sleep(0.1)
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()


SERVE = [sys.executable, "-c", "from splash.cli.main import main; main()", "serve"]
"""``splash serve``, run by this interpreter."""


@contextmanager
def splash_serve(database_url: str, port: int, *options: str) -> Iterator[subprocess.Popen[bytes]]:
    """``splash serve`` on 127.0.0.1:``port`` with ``database_url`` and ``options``, once it
    answers its health check; stopped (SIGTERM, then killed) at the end."""
    command = [*SERVE, "--db", database_url, "--port", str(port), "--log-level", "warning"]
    log = tempfile.TemporaryFile()  # noqa: SIM115 (closed below, after the process)
    process = subprocess.Popen([*command, *options], stdout=log, stderr=subprocess.STDOUT)
    try:
        try:
            wait_healthy(process, port)
        except RuntimeError:
            log.seek(0)
            raise RuntimeError(log.read().decode()) from None
        yield process
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
        process.wait()
        log.close()


def wait_healthy(process: subprocess.Popen[bytes], port: int) -> None:
    """Until the server ``process`` answers its health check on ``port`` (a
    :class:`RuntimeError` with its standard error when it ends or takes 30 s)."""
    deadline = time.monotonic() + 30
    while True:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health").status_code == 200:
                return
        except httpx.TransportError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(process.stderr.read().decode() if process.stderr else "no server")
        time.sleep(0.1)
