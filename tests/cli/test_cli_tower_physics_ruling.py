"""``physics.ruling`` on the command line: ``splash tower play`` rules placements as it says
and keeps it in the save; ``splash tower referee`` refuses it (people rule there)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from typer.testing import Result

from splash.cli.tower import resume_tower
from tests.cli.test_cli_tower_play import ACCEPTED, saved_position

Splash = Callable[..., Result]


def test_referee_refuses_the_physics_settings(splash: Splash) -> None:
    result = splash("tower", "referee", "--set", "physics.ruling=statics")
    assert result.exit_code != 0
    assert "physics.ruling" in result.output
    assert "people rule the placements in referee mode" in result.output


def test_play_rules_statically_and_a_resumed_game_goes_on_so(
    splash: Splash, tmp_path: Path
) -> None:
    start = saved_position(tmp_path / "start.json")
    save, png = tmp_path / "game.json", tmp_path / "t.png"
    args = ["--resume", str(start), "--seed", "1", "--png", str(png), "--save", str(save)]
    result = splash("tower", "play", *args, "--set", "physics.ruling=statics", lines=[ACCEPTED])
    assert result.exit_code == 0, result.output
    assert "The tower stands: orange-beam rests on red-beam." in result.output
    doc = json.loads(save.read_text(encoding="utf-8"))
    outcomes = [a for a in doc["actions"] if a.get("kind") == "result"]
    assert outcomes[-1]["outcome"]["details"]["method"] == "statics/1"
    _, _, record = resume_tower(save)
    assert record.meta["ruling"] == "statics"


def test_play_refuses_an_unknown_ruling(splash: Splash) -> None:
    result = splash("tower", "play", "--set", "physics.ruling=dice")
    assert result.exit_code != 0
    assert "physics.ruling" in result.output
