"""``splash serve``: its options reach uvicorn and the server's settings."""

from __future__ import annotations

from pathlib import Path

import pytest
import typer
from fastapi import FastAPI
from typer.testing import CliRunner

import splash.cli.serve
from splash.cli.serve import serve_command
from splash.server.settings import ServerSettings


def command() -> typer.Typer:
    app = typer.Typer()
    app.command("serve")(serve_command)
    app.command("other")(lambda: None)
    return app


def test_serve_passes_its_options_to_uvicorn(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)  # the store x.db is made there
    seen: list[tuple[FastAPI, str, int]] = []

    def run(app: FastAPI, *, host: str, port: int, **_options: object) -> None:
        seen.append((app, host, port))

    monkeypatch.setattr(splash.cli.serve, "run_uvicorn", run)
    result = CliRunner().invoke(
        command(), ["serve", "--port", "8123", "--db", "sqlite:///x.db", "--turn-timer", "30"]
    )
    assert result.exit_code == 0, result.output
    app, host, port = seen[-1]
    assert (host, port) == ("127.0.0.1", 8123)
    assert app.title == "splash"


def test_serve_help_says_what_0_0_0_0_does() -> None:
    result = CliRunner(env={"COLUMNS": "200"}).invoke(command(), ["serve", "--help"])
    assert result.exit_code == 0
    assert "0.0.0.0" in result.output and "127.0.0.1" in result.output


def test_serve_passes_the_limits_to_the_server(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import splash.server.app

    monkeypatch.chdir(tmp_path)  # the default store splash.db is made there
    seen: list[ServerSettings] = []
    monkeypatch.setattr(splash.cli.serve, "run_uvicorn", lambda app, **options: None)
    monkeypatch.setattr(splash.server.app, "create_app", seen.append)
    limits = ["--max-open-rooms", "9", "--room-creations-per-minute", "4"]
    result = CliRunner().invoke(command(), ["serve", *limits, "--idle-room-close-s", "0"])
    assert result.exit_code == 0, result.output
    assert (seen[0].max_open_rooms, seen[0].room_creations_per_minute) == (9, 4)
    assert seen[0].idle_room_close_s == 0
    result = CliRunner().invoke(command(), ["serve"])
    assert (seen[1].max_open_rooms, seen[1].room_creations_per_minute) == (500, 20)
    assert seen[1].idle_room_close_s == 86400
    refused = CliRunner().invoke(command(), ["serve", "--idle-room-close-s", "-5"])
    assert refused.exit_code != 0 and len(seen) == 2


def test_serve_refuses_long_frames_in_uvicorn_and_sends_uncompressed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[dict[str, object]] = []

    def run(_app: FastAPI, **options: object) -> None:
        seen.append(options)

    monkeypatch.setattr(splash.cli.serve, "run_uvicorn", run)
    result = CliRunner().invoke(command(), ["serve", "--log-level", "warning"])
    assert result.exit_code == 0, result.output
    assert seen[0]["ws_max_size"] == 64 * 1024
    assert seen[0]["ws_per_message_deflate"] is False
    assert seen[0]["log_level"] == "warning"
    refused = CliRunner().invoke(command(), ["serve", "--log-level", "loud"])
    assert refused.exit_code != 0 and len(seen) == 1
