"""Board and decks as data, validated on load; every value settable (BD02, BD15, BD16)."""

from __future__ import annotations

import shutil
from importlib import resources
from pathlib import Path

import pytest

from splash.core import DataFileError, OptionError
from splash.core.settings import parse_assignment
from splash.games.bash import BashConfig, BashGame
from splash.games.bash.scenario import play_moves, position, where


def _data_copy(tmp_path: Path) -> Path:
    source = resources.files("splash.games.bash") / "data"
    for name in ("board.toml", "low_tide.toml", "high_tide.toml"):
        with resources.as_file(source / name) as path:
            shutil.copy(path, tmp_path / name)
    return tmp_path


def test_set_keys_address_options_board_and_decks() -> None:
    game = BashGame.from_settings(
        parse_assignment(text)
        for text in (
            "board.lanes.outer=36",
            "options.teams=3",
            "decks.high_tide.undertow=0",
            "options.obstacles=permanent",
        )
    )
    assert game.course.lengths[0] == 36
    assert game.num_seats == 3
    assert game.settings.decks["high_tide"].cards["undertow"].count == 0
    assert game.settings.options.obstacles == "permanent"


def test_an_unknown_key_names_the_known_ones() -> None:
    with pytest.raises(OptionError) as error:
        BashGame.from_settings([("options.team", 3)])
    assert error.value.key == "options.team"
    assert "teams" in str(error.value)


def test_a_wrong_option_value_names_the_key() -> None:
    with pytest.raises(OptionError) as error:
        BashGame.from_settings([("options.obstacles", "sticky")])
    assert error.value.key == "options.obstacles"


def test_a_wrong_data_value_names_file_entry_and_field() -> None:
    with pytest.raises(DataFileError) as error:
        BashGame.from_settings([("decks.high_tide.undertow.timing", "on_draw")])
    assert (error.value.file, error.value.entry, error.value.field) == (
        "high_tide.toml (with --set)",
        "undertow",
        "timing",
    )
    with pytest.raises(DataFileError) as lanes:
        BashGame.from_settings([("board.lanes.centre", 2)])
    assert (lanes.value.entry, lanes.value.field) == ("lanes", "centre")


def test_a_broken_deck_file_names_the_file_the_card_and_the_field(tmp_path: Path) -> None:
    data = _data_copy(tmp_path)
    text = (
        (data / "high_tide.toml")
        .read_text()
        .replace('count = 3\ntiming = "any"', 'count = -1\ntiming = "any"', 1)
    )
    (data / "high_tide.toml").write_text(text)
    with pytest.raises(DataFileError) as error:
        BashGame.from_settings(data_dir=data)
    assert error.value.file.endswith("high_tide.toml")
    assert (error.value.entry, error.value.field) == ("undertow", "count")


def test_a_file_that_is_not_toml_is_refused(tmp_path: Path) -> None:
    data = _data_copy(tmp_path)
    (data / "board.toml").write_text("laps = = 2")
    with pytest.raises(DataFileError) as error:
        BashGame.from_settings(data_dir=data)
    assert "not valid TOML" in str(error.value)


def test_an_unknown_effect_is_refused_with_its_place(tmp_path: Path) -> None:
    data = _data_copy(tmp_path)
    with (data / "high_tide.toml").open("a") as handle:
        handle.write(
            '\n[cards.tsunami]\ncount = 1\ntiming = "any"\neffects = [{ primitive = "flood" }]\n'
        )
    with pytest.raises(DataFileError) as error:
        BashGame.from_settings(data_dir=data)
    assert error.value.entry == "tsunami"
    assert error.value.field is not None and error.value.field.startswith("effects.0")


@pytest.mark.rule("BD16")
def test_a_designer_adds_a_card_without_code(tmp_path: Path) -> None:
    data = _data_copy(tmp_path)
    with (data / "high_tide.toml").open("a") as handle:
        handle.write(
            '\n[cards.dolphin_ride]\ncount = 2\ntiming = "after_walk"\n'
            'effects = [{ primitive = "move", squares = 5 }, { primitive = "place_obstacle" }]\n'
        )
    game = BashGame.from_settings(data_dir=data)
    state = position(game, pieces="A1:c5", hands="A:dolphin_ride")
    play_moves(state, "draw calm_water", "pass", "roll 1", "pass", "pass", "play dolphin_ride")
    assert where(state, "A1") == "c11"
    play_moves(state, "obstacle h3")
    assert state.board.obstacles == {(2, 3)}


def test_config_tree_round_trip() -> None:
    game = BashGame.from_settings([("options.teams", 4), ("board.laps", 1)])
    again = BashGame.from_config(game.config())
    assert again.settings == game.settings
    assert BashConfig.from_tree(game.config()).options.teams == 4


def test_the_action_enumeration_is_fixed_for_a_configuration() -> None:
    a, b = BashGame(), BashGame()
    assert [x.to_json() for x in a.action_space] == [x.to_json() for x in b.action_space]
    assert a.action_space.size == 3 + 3 + 2 + 7 + 7 + 99 + 8 + 2 + 2 + 6 + 13 + 7
    bigger = BashGame.from_settings([("options.teams", 3)])
    assert bigger.action_space.size == a.action_space.size + 4 + 1
