"""The root command: version, language, and errors of settings and save files (exit code 2)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import Result

from splash.cli import main

Splash = Callable[..., Result]


def test_version(splash: Splash) -> None:
    result = splash("--version")
    assert result.exit_code == 0
    assert result.output.startswith("splash ")


def test_lang_option_sets_the_locale(splash: Splash, monkeypatch: pytest.MonkeyPatch) -> None:
    chosen: list[str] = []
    monkeypatch.setattr(main, "set_locale", chosen.append)
    result = splash("--lang", "fr", "bash", "simulate", "--games", "1")
    assert result.exit_code == 0
    assert chosen == ["fr"]


def test_lang_defaults_to_the_lang_variable(
    splash: Splash, monkeypatch: pytest.MonkeyPatch
) -> None:
    chosen: list[str] = []
    monkeypatch.setattr(main, "set_locale", chosen.append)
    splash("bash", "simulate", "--games", "1")
    assert chosen == ["en_GB.UTF-8"]


def test_unknown_lang_is_refused(splash: Splash) -> None:
    assert splash("--lang", "de", "bash", "simulate", "--games", "1").exit_code == 2


@pytest.mark.parametrize("command", ["play", "referee", "simulate"])
def test_set_teams_out_of_range_exits_2_with_the_error(splash: Splash, command: str) -> None:
    result = splash("bash", command, "--set", "options.teams=9")
    assert result.exit_code == 2
    assert "error: options.teams=9" in result.output
    assert "less than or equal to 4" in result.output
    assert "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("assignment", "expected"),
    [
        ("options.teams", "expected KEY=VALUE"),
        ("options.nothing=1", "unknown key 'nothing'"),
        ("board.lanes.outer=2", "board.toml (with --set)"),
        ("decks.low_tide.breeze=-1", "low_tide.toml (with --set)"),
    ],
)
def test_bad_settings_exit_2(splash: Splash, assignment: str, expected: str) -> None:
    result = splash("bash", "simulate", "--games", "1", "--set", assignment)
    assert result.exit_code == 2
    assert expected in result.output


def test_teams_option_is_a_setting(splash: Splash) -> None:
    result = splash("bash", "simulate", "--games", "1", "--teams", "5")
    assert result.exit_code == 2
    assert "options.teams=5" in result.output


def test_missing_data_folder_exits_2(splash: Splash, tmp_path: Path) -> None:
    result = splash("bash", "simulate", "--games", "1", "--data", str(tmp_path / "none"))
    assert result.exit_code == 2
    flat = " ".join(result.output.replace("│", " ").split())  # the usage box wraps lines
    assert "--data" in flat and "does not exist" in flat


def test_missing_save_file_exits_2(splash: Splash, tmp_path: Path) -> None:
    result = splash("bash", "play", "--resume", str(tmp_path / "absent.json"))
    assert result.exit_code == 2
    assert "cannot read" in result.output


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("{not json", "is not JSON"),
        ("[" * 100_000, "nested too deeply"),
        ("1" * 5_000, "cannot be read"),
        (json.dumps({"format": "splash/record/1", "game": 5}), "game must be a string, not 5"),
        (
            json.dumps({"format": "splash/record/1", "game": "bash", "config": {}, "actions": {}}),
            "actions must be a list",
        ),
        (json.dumps({"format": "splash/other/1"}), "unsupported document format"),
        (
            json.dumps({"format": "splash/record/1", "game": "tower", "config": {}, "actions": []}),
            "not bash",
        ),
        (
            json.dumps({"format": "splash/record/1", "game": "bash", "config": {}, "actions": []}),
            "error:",
        ),
    ],
)
@pytest.mark.parametrize("command", ["play", "referee"])
def test_corrupt_save_file_exits_2(
    splash: Splash, tmp_path: Path, content: str, expected: str, command: str
) -> None:
    path = tmp_path / "save.json"
    path.write_text(content, encoding="utf-8")
    result = splash("bash", command, "--resume", str(path))
    assert result.exit_code == 2
    assert expected in result.output
    assert "Traceback" not in result.output


def test_resume_refuses_new_settings(splash: Splash, tmp_path: Path) -> None:
    path = tmp_path / "save.json"
    path.write_text("{}", encoding="utf-8")
    result = splash("bash", "play", "--resume", str(path), "--set", "options.teams=3")
    assert result.exit_code == 2
    assert "keeps its saved settings" in result.output


def test_unknown_bot_exits_2_listing_the_known_ones(splash: Splash) -> None:
    result = splash("bash", "play", "--bots", "genius")
    assert result.exit_code == 2
    assert (
        "unknown bot 'genius' (known: expectimax, greedy, ismcts, planner, ppo, random, td)"
        in result.output
    )


def test_unknown_team_exits_2(splash: Splash) -> None:
    result = splash("bash", "play", "--team", "C")
    assert result.exit_code == 2
    assert "no such team" in result.output
