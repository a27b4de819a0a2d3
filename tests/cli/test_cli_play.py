"""``splash bash play``: one person against bots, typed choices, save and resume."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import Result

from splash.bots import RandomBot
from splash.cli.common import resume, seed_children
from splash.cli.session import PlaySession
from splash.core.outcomes import RandomOutcomes
from splash.games.bash import BashGame

Splash = Callable[..., Result]


def actions_of(path: Path) -> list[dict[str, object]]:
    actions: list[dict[str, object]] = json.loads(path.read_text(encoding="utf-8"))["actions"]
    return actions


def test_a_few_turns_with_a_wrong_entry(splash: Splash, tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    lines = ["outer", "foo", "9", "centre", "lane high tide", *["1"] * 20]
    result = splash("bash", "play", "--seed", "11", "--save", str(save), lines=lines)
    assert result.exit_code == 0
    out = result.output
    assert "Team A: choose the start lane of A1." in out
    assert " 1. start in the Outer lane" in out
    assert "error: 'foo': this is not one of the choices" in out
    assert "error: '9': there is no choice 9: type a number from 1 to 3" in out
    assert "A3 takes its place on the start line in the High tide lane." in out
    assert "Team B: start in the" in out
    assert "The game is left unfinished." in out
    actions = actions_of(save)
    assert actions[:3] == [
        {"kind": "start_lane", "lane": lane} for lane in ("outer", "centre", "high_tide")
    ]
    assert [a["kind"] for a in actions[3:6]] == ["start_lane"] * 3
    assert len(actions) > 10


def test_the_picture_is_the_person_s_team_view(splash: Splash) -> None:
    result = splash("bash", "play", "--team", "B", "--seed", "2", lines=["outer"])
    assert "Hands: team A: 0 cards · team B (you): no card" in result.output
    assert "Team B: choose the start lane of B1." in result.output


def test_only_choice_is_taken_with_a_line(splash: Splash) -> None:
    result = splash("bash", "play", "--seed", "11", lines=["1"] * 80)
    assert "Only one choice, taken: " in result.output


def test_typed_forms_name_choices(splash: Splash, tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    lines = ["Lane Outer", "start centre", "HIGH_TIDE"]
    splash("bash", "play", "--seed", "1", "--save", str(save), lines=lines)
    assert [a.get("lane") for a in actions_of(save)[:3]] == ["outer", "centre", "high_tide"]


def test_three_teams_with_listed_bots(splash: Splash) -> None:
    result = splash(
        "bash", "play", "--teams", "3", "--team", "2", "--bots", "random,random", lines=["1"]
    )
    assert result.exit_code == 0
    assert "you play team B; team A is the random bot, team C is the random bot" in result.output


def test_too_many_bots_exit_2(splash: Splash) -> None:
    result = splash("bash", "play", "--bots", "random,random")
    assert result.exit_code == 2
    assert "2 bots for 1 seats" in result.output


def test_save_and_resume_give_the_same_state(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.json"
    game = BashGame.from_settings()
    children = seed_children(4, 3)
    session = PlaySession(
        Console(file=io.StringIO(), width=120),
        game,
        game.new_initial_state(),
        person=0,
        bots={1: RandomBot(children[2])},
        outcomes=RandomOutcomes(children[0]),
        save_path=path,
        meta={"mode": "play", "team": 0, "bots": [None, "random"]},
    )
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 40))
    assert session.run() == 0
    _, resumed, record = resume(path)
    assert len(session.state.history) > 20
    assert resumed.to_json() == session.state.to_json()
    assert record.meta == {"mode": "play", "team": 0, "bots": [None, "random"]}


def test_resume_from_the_command_line(splash: Splash, tmp_path: Path) -> None:
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    splash("bash", "play", "--team", "B", "--seed", "3", "--save", str(first), lines=["1"] * 30)
    result = splash("bash", "play", "--resume", str(first), lines=[f"save {second}", "quit"])
    assert result.exit_code == 0
    assert "you play team B" in result.output
    assert "The game is saved in" in result.output
    assert resume(first)[1].to_json() == resume(second)[1].to_json()


def test_quit_at_the_first_prompt_still_saves(splash: Splash, tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    result = splash("bash", "play", "--save", str(save), lines=["quit"])
    assert result.exit_code == 0
    assert actions_of(save) == []
    assert "The game is left unfinished." in result.output


def test_save_command_without_a_file_says_how(splash: Splash) -> None:
    result = splash("bash", "play", lines=["save", "board", "help"])
    assert "error: say where: save FILE" in result.output
    assert result.output.count("Team A: choose the start lane of A1.") == 3
    assert "Commands: board" in result.output
