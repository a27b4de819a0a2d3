"""What the commands of both games share: bots per seat, opening a new or saved game, the
settings of the simulate shortcuts and the loop that saves when the person quits."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import Result

from splash.cli.common import open_game, read_saved, resume, write_record
from splash.cli.play_options import bots_per_seat
from splash.cli.simulate_all import shortcut_settings
from splash.cli.tower import open_tower_game, resume_tower
from splash.core.errors import DocumentError, OptionError
from splash.games.bash import BashGame
from splash.games.tower import TowerGame

Splash = Callable[..., Result]


def test_bots_per_seat_repeats_the_last_bot_for_the_remaining_seats() -> None:
    assert bots_per_seat(["greedy", "random"], [0, 2, 3]) == {
        0: "greedy",
        2: "random",
        3: "random",
    }


def test_bots_per_seat_defaults_to_the_random_bot() -> None:
    assert bots_per_seat([], [1, 2]) == {1: "random", 2: "random"}


def test_bots_per_seat_refuses_more_bots_than_seats() -> None:
    with pytest.raises(OptionError) as raised:
        bots_per_seat(["random", "greedy", "random"], [1, 2])
    assert raised.value.key == "--bots"
    assert raised.value.value == "random,greedy,random"
    assert raised.value.problem.render() == "3 bots for 2 seats"


def test_a_shortcut_option_comes_after_the_set_assignments() -> None:
    assert shortcut_settings(["options.teams=2", "board.lanes.outer=36"], "options.teams", 3) == [
        "options.teams=2",
        "board.lanes.outer=36",
        "options.teams=3",
    ]
    assert shortcut_settings(None, "options.players", 4) == ["options.players=4"]
    assert shortcut_settings(["options.players=5"], "options.players", None) == [
        "options.players=5"
    ]


@pytest.fixture
def bash_save(tmp_path: Path) -> Path:
    path = tmp_path / "bash.json"
    write_record(path, BashGame.from_settings([("options.teams", 3)]).new_initial_state(), {})
    return path


@pytest.fixture
def tower_save(tmp_path: Path) -> Path:
    path = tmp_path / "tower.json"
    write_record(path, TowerGame.from_settings([("options.players", 4)]).new_initial_state(), {})
    return path


def test_a_save_of_the_other_game_is_refused_by_both_games(
    bash_save: Path, tower_save: Path
) -> None:
    with pytest.raises(DocumentError, match="holds a tower game, not bash"):
        resume(tower_save)
    with pytest.raises(DocumentError, match="holds a bash game, not tower"):
        resume_tower(bash_save)
    assert read_saved(bash_save, BashGame.id).game == BashGame.id


def test_open_game_makes_a_new_game_without_a_record() -> None:
    game, state, record = open_game(None, None, 3, None)
    assert record is None
    assert game.num_seats == 3
    assert not state.history


def test_open_game_resumes_a_save_with_its_record(bash_save: Path) -> None:
    game, _, record = open_game(bash_save, None, None, None)
    assert record is not None
    assert game.num_seats == 3


@pytest.mark.parametrize(
    ("settings", "teams", "data"),
    [(["options.teams=2"], None, None), (None, 2, None), (None, None, Path("board"))],
)
def test_open_game_refuses_settings_with_resume(
    bash_save: Path, settings: list[str] | None, teams: int | None, data: Path | None
) -> None:
    with pytest.raises(OptionError) as raised:
        open_game(bash_save, settings, teams, data)
    assert raised.value.key == "--resume"


def test_open_tower_game_makes_a_new_game_or_resumes_a_save(tower_save: Path) -> None:
    game, _, record = open_tower_game(None, ["options.players=5"], None)
    assert (game.num_seats, record) == (5, None)
    game, _, record = open_tower_game(tower_save, None, None)
    assert record is not None
    assert game.num_seats == 4


@pytest.mark.parametrize(("settings", "players"), [(["options.players=3"], None), (None, 3)])
def test_open_tower_game_refuses_settings_with_resume(
    tower_save: Path, settings: list[str] | None, players: int | None
) -> None:
    with pytest.raises(OptionError) as raised:
        open_tower_game(tower_save, settings, players)
    assert raised.value.key == "--resume"


def test_quitting_a_refereed_tower_game_saves_it(splash: Splash, tmp_path: Path) -> None:
    path = tmp_path / "left.json"
    result = splash("tower", "referee", "--players", "3", "--save", str(path), lines=["quit"])
    assert result.exit_code == 0
    assert result.output.rstrip().endswith("The game is left unfinished.")
    assert "The game is saved in" in result.output
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["game"] == TowerGame.id
    assert doc["meta"]["mode"] == "referee"
