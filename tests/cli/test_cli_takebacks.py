"""``undo`` at the prompts of ``splash bash referee`` and ``splash tower referee``: the last
entry taken back, again and again, down to the start; no digital draw drawn again; the save
file holding the line of play as it is after the takeback."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import Result

from splash.cli.common import resume
from splash.cli.referee import RefereeSession
from splash.cli.tower import resume_tower
from splash.games.bash import BashGame
from splash.games.bash.names import name
from tests.cli.test_cli_tower_referee import (
    BUILD,
    DRAFT,
    FIRST_FALL,
    OPENING,
    SECOND_FALL,
)

Splash = Callable[..., Result]

PRINTED = ("bash", "referee", "--cards", "printed", "--set", "decks.low_tide.breeze=1")
LANES = ["outer"] * 6
FIRST_TURNS = ["breeze", "4", "stay", "calm_water", "2", "stay"]
"""Team A draws Breeze and rolls 4, team B draws Calm water and rolls 2: six entries."""
NOTHING = "error: there is nothing to take back: no entry has been typed in this game"
TAKEN = "The last entry is taken back: the game is as it was before it."


def actions_of(path: Path) -> list[object]:
    actions: list[object] = json.loads(path.read_text(encoding="utf-8"))["actions"]
    return actions


def meta_of(path: Path) -> dict[str, object]:
    meta: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))["meta"]
    return meta


@pytest.mark.rule("BD17")
def test_two_rolls_taken_back_give_the_position_before_them(splash: Splash, tmp_path: Path) -> None:
    before, after = tmp_path / "before.json", tmp_path / "after.json"
    splash(*PRINTED, "--save", str(before), lines=LANES)
    lines = [*FIRST_TURNS, *["undo"] * len(FIRST_TURNS), f"save {after}", "quit"]
    result = splash("bash", "referee", "--resume", str(before), lines=lines)
    assert result.exit_code == 0
    assert result.output.count(TAKEN) == len(FIRST_TURNS)
    assert "B1 goes from the start line (Outer) to Outer 3 (lap 1)." in result.output
    assert actions_of(after) == actions_of(before)
    assert resume(after)[1].to_json() == resume(before)[1].to_json()


@pytest.mark.rule("BD17")
def test_undo_goes_down_to_the_start_and_no_further(splash: Splash, tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    entries = [*LANES, *FIRST_TURNS[:2]]
    lines = ["undo", *entries, *["undo"] * len(entries), "undo", "undo now", "quit"]
    result = splash(*PRINTED, "--save", str(save), lines=lines)
    assert result.exit_code == 0
    out = result.output
    assert "Traceback" not in out
    assert out.count(TAKEN) == len(entries)
    assert out.count(NOTHING) == 2
    assert "error: undo takes back the last entry: type undo alone, not now" in out
    assert actions_of(save) == []
    fresh = BashGame.from_settings([("decks.low_tide.breeze", 1)]).new_initial_state()
    assert resume(save)[1].to_json() == fresh.to_json()


def test_help_lists_undo(splash: Splash) -> None:
    out = " ".join(splash(*PRINTED, lines=["help", "quit"]).output.split())
    assert "undo (take back the last entry: a roll, a card or a decision)" in out


@pytest.mark.rule("BD17")
def test_a_takeback_saved_and_resumed_goes_on_from_the_takeback(
    splash: Splash, tmp_path: Path
) -> None:
    game, reference = tmp_path / "game.json", tmp_path / "reference.json"
    splash(*PRINTED, "--save", str(reference), lines=[*LANES, *FIRST_TURNS[:4]])
    lines = [*LANES, *FIRST_TURNS, "undo", "undo", "quit"]
    splash(*PRINTED, "--save", str(game), lines=lines)
    assert actions_of(game) == actions_of(reference)
    # The resumed game asks for team B's roll, taken back, and goes on from there.
    resumed = ("bash", "referee", "--resume", str(game), "--save", str(game))
    result = splash(*resumed, lines=["5", "stay", "quit"])
    assert "B1 goes from the start line (Outer) to Outer 6 (lap 1)." in result.output
    assert actions_of(game) == [
        *actions_of(reference),
        {"kind": "roll", "face": 5},
        {"kind": "stay"},
    ]


@pytest.mark.rule("BD17")
def test_a_digital_draw_taken_back_comes_again_unseen(splash: Splash, tmp_path: Path) -> None:
    """B3's lane taken back takes back with it the card the program drew for team A's A1 in
    the High tide lane; the lane typed again draws the same card, also after a resumed save
    (its seed is saved with the game), and no line prints the card."""
    save = tmp_path / "game.json"
    lanes = ["high tide", *["outer"] * 5]
    copies = [tmp_path / f"{n}.json" for n in range(5)]
    redo = [step for copy in copies[1:] for step in ("undo", "outer", f"save {copy}")]
    lines = [*lanes, f"save {copies[0]}", *redo]
    result = splash("bash", "referee", "--seed", "5", "--save", str(save), lines=lines)
    drawn = actions_of(save)[6]
    assert isinstance(drawn, dict) and drawn["kind"] == "draw"
    assert [actions_of(copy)[6] for copy in copies] == [drawn] * len(copies)
    assert result.output.count(TAKEN) == len(copies) - 1
    assert result.output.count("Team A draws a card from the High tide deck.") == len(copies)
    seed = meta_of(save)["seed"]
    assert isinstance(seed, int)
    resumed = ("bash", "referee", "--resume", str(save), "--save", str(save))
    splash(*resumed, lines=["undo", "quit"])
    assert len(actions_of(save)) == 5
    later = splash(*resumed, lines=["outer", "quit"])
    assert actions_of(save)[6] == drawn
    assert seed == 5 and meta_of(save)["seed"] == seed
    card = name(str(drawn["card"])).render()
    assert card not in result.output and card not in later.output


def test_a_wrong_saved_seed_is_refused(splash: Splash, tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    splash("bash", "referee", "--seed", "2", "--save", str(save), lines=["outer", "quit"])
    doc = json.loads(save.read_text(encoding="utf-8"))
    doc["meta"]["seed"] = "two"
    save.write_text(json.dumps(doc), encoding="utf-8")
    result = splash("bash", "referee", "--resume", str(save), lines=["quit"])
    assert result.exit_code == 2
    assert (
        'error: the seed saved with the game is not a whole number, 0 or more: "two"'
        in result.output
    )
    assert "Traceback" not in result.output


@pytest.mark.rule("TD08")
def test_a_tower_report_taken_back(splash: Splash, tmp_path: Path) -> None:
    game, after, given = (tmp_path / n for n in ("game.json", "after.json", "given.json"))
    splash("tower", "referee", "--players", "2", "--save", str(game), lines=OPENING[:-2])
    splash("tower", "referee", "--players", "2", "--save", str(given), lines=OPENING[:-3])
    reported = actions_of(game)
    lines = ["stood", "n", "undo", f"save {after}", "undo", "quit"]
    result = splash("tower", "referee", "--resume", str(game), "--save", str(game), lines=lines)
    assert result.output.count(TAKEN) == 2
    # The report taken back: the placement waits for its report again.
    assert actions_of(after) == reported
    state = resume_tower(after)[1]
    assert state.phase == "result" and state.tower.ids() == ("red-cube",)
    # The gift taken back, with the placement the program made after it.
    assert actions_of(game) == actions_of(given)
    assert resume_tower(game)[1].phase == "give"


@pytest.mark.rule("TD08")
def test_a_take_back_of_several_pieces_is_one_entry(splash: Splash, tmp_path: Path) -> None:
    game, chosen = tmp_path / "game.json", tmp_path / "chosen.json"
    played = [*OPENING, *FIRST_FALL, *BUILD, *SECOND_FALL]
    splash("tower", "referee", "--players", "2", "--save", str(chosen), lines=played[:-1])
    splash("tower", "referee", "--players", "2", "--save", str(game), lines=[*played, "undo"])
    assert actions_of(game) == actions_of(chosen)
    assert resume_tower(game)[1].phase == "keep"


@pytest.mark.rule("TD08", "TD02")
def test_the_program_s_deal_is_no_entry_to_take_back(splash: Splash, tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    common = ("tower", "referee", "--players", "2", "--set", "options.deal=random")
    result = splash(*common, "--seed", "7", "--save", str(save), lines=["undo", "quit"])
    assert NOTHING in result.output
    assert len(actions_of(save)) == 30
    typed = splash(*common, lines=["undo", "red cube", "undo", "quit"]).output
    assert typed.count(NOTHING) == 1 and typed.count("The last entry is taken back") == 1


def test_help_of_the_tower_referee_lists_undo(splash: Splash) -> None:
    out = " ".join(splash("tower", "referee", lines=[*DRAFT[:1], "help", "quit"]).output.split())
    assert "undo (take back the last entry: a decision or a report)" in out


@pytest.mark.parametrize(
    ("lang", "nothing", "listed"),
    [
        ("fr", "il n'y a rien à reprendre", "undo (reprendre la dernière saisie"),
        ("cs", "není co vzít zpět", "undo (vzít zpět poslední zadání"),
        ("it", "non c'è nulla da annullare", "undo (annulla l'ultimo inserimento"),
    ],
)
def test_undo_speaks_every_language(splash: Splash, lang: str, nothing: str, listed: str) -> None:
    for command in ("bash", "tower"):
        result = splash("--lang", lang, command, "referee", lines=["undo", "help", "quit"])
        out = " ".join(result.output.split())
        assert nothing in out and listed in out, (command, out)


@pytest.mark.rule("BD17")
def test_a_hand_shown_is_cleared_from_the_screen_by_a_takeback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lines = ["high tide", *["outer"] * 5, "Undertow", "show", "undo", "quit"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, width=120, color_system=None)
    game = BashGame()
    session = RefereeSession(
        console, game, game.new_initial_state(), digital=None, save_path=None, meta={}
    )
    assert session.run() == 0
    out = screen.getvalue()
    shown = out.index("Team A's hand: Undertow")
    cleared = out.index("\x1b[2J", shown)
    assert cleared < out.index(TAKEN) and "Undertow" not in out[cleared:]
    assert len(session.state.history) == 6


def test_a_save_is_written_whole_or_not_at_all(splash: Splash, tmp_path: Path) -> None:
    save, nowhere = tmp_path / "game.json", tmp_path / "missing" / "game.json"
    lines = [*LANES[:2], "undo", f"save {nowhere}", "quit"]
    result = splash(*PRINTED, "--save", str(save), lines=lines)
    assert f"error: cannot write {nowhere}: No such file or directory" in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]
    assert actions_of(save) == [{"kind": "start_lane", "lane": "outer"}]
