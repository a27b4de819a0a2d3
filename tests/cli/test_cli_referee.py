"""``splash bash referee``: typed rolls and cards, wrong entries, a screen without hands."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

from typer.testing import Result

from splash.cli.common import resume
from splash.games.bash import BashState
from splash.games.bash.names import name

Splash = Callable[..., Result]

ALL_OUTER = ["outer"] * 6


def actions_of(path: Path) -> list[dict[str, object]]:
    actions: list[dict[str, object]] = json.loads(path.read_text(encoding="utf-8"))["actions"]
    return actions


def test_typed_rolls_and_printed_cards_with_wrong_entries(splash: Splash, tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    lines = [
        *ALL_OUTER,
        "Breeze",  # team A draws the only breeze
        "9",  # a d6 has no 9
        "four",
        "4",
        "stay",
        "unicorn",  # team B: no such card
        "breeze",  # none left
        "calm_water",
        "2",
        "stay",
    ]
    result = splash(
        "bash",
        "referee",
        "--cards",
        "printed",
        "--set",
        "decks.low_tide.breeze=1",
        "--save",
        str(save),
        lines=lines,
    )
    assert result.exit_code == 0
    out = result.output
    assert "Team A draws a card from the Low tide deck: type the card drawn." in out
    assert "Team A draws Breeze from the Low tide deck." in out
    assert "error: '9': the die has no face 9: type a number from 1 to 6" in out
    assert "error: 'four': this is not a number" in out
    assert "error: 'unicorn': the Low tide deck has no such card; its cards are: Calm water" in out
    assert "error: 'breeze': no Breeze is left in the Low tide deck; the cards left are:" in out
    assert "A1 goes from the start line (Outer) to Outer 6 (lap 1)." in out
    assert "B1 goes from the start line (Outer) to Outer 3 (lap 1)." in out
    assert actions_of(save)[6:] == [
        {"kind": "draw", "deck": "low_tide", "card": "breeze"},
        {"kind": "roll", "face": 4},
        {"kind": "stay"},
        {"kind": "draw", "deck": "low_tide", "card": "calm_water"},
        {"kind": "roll", "face": 2},
        {"kind": "stay"},
    ]


def test_a_wrong_entry_changes_nothing(splash: Splash, tmp_path: Path) -> None:
    before, after = tmp_path / "before.json", tmp_path / "after.json"
    common = ["bash", "referee", "--cards", "printed"]
    splash(*common, "--save", str(before), lines=[*ALL_OUTER, "breeze"])
    result = splash(
        *common[:2],
        "--resume",
        str(before),
        lines=["7", "0", "-1", "roll x", "stay", f"save {after}", "quit"],
    )
    assert result.output.count("error: ") == 5
    assert resume(before)[1].to_json() == resume(after)[1].to_json()


def test_the_screen_shows_no_card_of_a_hand_until_show(splash: Splash) -> None:
    lines = ["high tide", "outer", "outer", *["outer"] * 3, "show", "Undertow", "show", "pass"]
    result = splash("bash", "referee", "--cards", "printed", lines=lines)
    out = result.output
    reveal = out.index("Team A's hand: Undertow")
    assert "undertow" not in out[:reveal].lower()
    assert "Team A draws a card from the High tide deck." in out[:reveal]
    assert "Hands: team A: 1 card · team B: 0 cards" in out[:reveal]
    assert "Team A holds 1 card. Type show to see them" in out[:reveal]
    assert " 1. pass (play no card)" in out[:reveal]
    assert "error: show shows the hand of the team to decide, at its decision" in out[:reveal]


def test_digital_cards_stay_hidden(splash: Splash, tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    lines = ["high tide"] * 6 + ["3", "stay", "pass", "pass", "pass", "pass"] * 12
    result = splash("bash", "referee", "--seed", "5", "--save", str(save), lines=lines)
    assert result.exit_code == 0
    state = resume(save)[1]
    assert isinstance(state, BashState)
    held = {card for hand in state.board.hands for card in hand}
    assert held
    for card in held:
        for line in result.output.splitlines():
            if name(card).render() in line:
                assert re.search(r"plays|discards|hand:", line), line


def test_referee_save_and_resume(splash: Splash, tmp_path: Path) -> None:
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    splash(
        "bash",
        "referee",
        "--teams",
        "3",
        "--seed",
        "1",
        "--save",
        str(first),
        lines=["centre"] * 9 + ["5", "stay"],
    )
    result = splash("bash", "referee", "--resume", str(first), lines=[f"save {second}", "quit"])
    assert result.exit_code == 0
    assert "3 teams, digital cards" in result.output
    assert resume(first)[1].to_json() == resume(second)[1].to_json()
    assert json.loads(first.read_text(encoding="utf-8"))["meta"]["cards"] == "digital"
