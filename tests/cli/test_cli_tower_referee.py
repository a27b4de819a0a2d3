"""``splash tower referee``: a game of Splash! played with real pieces, typed at a prompt."""

from __future__ import annotations

import json
from collections.abc import Callable
from io import StringIO
from pathlib import Path
from typing import TypedDict

from rich.console import Console
from typer.testing import Result

from splash.cli.tower import resume_tower
from splash.cli.tower_referee import TowerReferee
from splash.cli.tower_view import view_lines
from splash.core.actions import Json
from splash.core.record import GameRecord
from splash.games.tower import TowerGame, referee
from splash.games.tower.scenario import position
from tests.documents import json_array, json_object

Splash = Callable[..., Result]

PIECES = TowerGame().catalogue.piece_ids
DRAFT = list(PIECES)
"""Seat 0 takes the red, yellow and blue pieces, seat 1 the orange, green and purple ones."""
OPENING = [*DRAFT, "red-cube", "stood", "orange cube", "stood", "n"]
"""Seat 0 gives red-cube (on the table), seat 1 gives orange-cube (on it): seat 0 gives."""
FIRST_FALL = ["yellow-cube", "fell", "red-cube orange-cube", "y"]
BUILD = ["orange-beam", "stood", "n", "red-beam", "stood", "y", "green-beam", "stood", "n"]
SECOND_FALL = [
    "yellow-beam",
    "fell",
    "red-cube",
    "y",
    "orange beam",
    "red-cube orange-cube red-beam",
]
ACCIDENTS = ["orange-prism", "spontaneous", "y", "stood", "red-prism", "knocked", "1", "none", "y"]
LAST_FALL = ["green-prism", "stood", "n", "red-prism", "fell", "none", "y"]


class SavedGame(TypedDict):
    """A saved game: its ``splash/record/1`` document."""

    format: str
    game: str
    config: dict[str, Json]
    actions: list[Json]
    meta: dict[str, Json]


def saved(path: Path) -> SavedGame:
    doc: SavedGame = json.loads(path.read_text(encoding="utf-8"))
    return doc


def test_the_view_of_a_known_position() -> None:
    game = TowerGame.from_settings([("options.players", 3)])
    state = position(
        game,
        reserves={0: "blue-cube green-arch", 1: "red-cube yellow-prism", 2: "purple-beam"},
        tower="red-prism red-beam yellow-beam/red-prism",
        covered="red-beam",
        drops=[1, 0, 2],
    )
    assert [line.render() for line in view_lines(state)] == [
        "Tower (3 pieces, base first, estimated heights):",
        "  red-prism: on the table, 20 mm, top free",
        "  red-beam: on red-prism, 35 mm, top covered",
        "  yellow-beam: on red-prism, 35 mm, top free — the top piece",
        "Reserves:",
        "  seat 0: blue-cube, green-arch · 1 drop",
        "  seat 1: red-cube, yellow-prism · 0 drops",
        "  seat 2: purple-beam · 2 drops",
        "Box: 22 pieces",
        "Seat 0 gives, seat 1 places.",
        "Seat 0 holds no playable piece and takes one from another reserve (T08):"
        " red-cube (seat 1) → on red-prism; yellow-prism (seat 1) → on yellow-beam;"
        " purple-beam (seat 2) → on yellow-beam",
    ]


def test_the_view_of_a_team_win() -> None:
    game = TowerGame.from_settings([("options.teams", 2)])
    state = position(game, reserves={2: "red-cube", 3: "green-beam"}, tower="red-prism", giver=2)
    state.apply({"kind": "give", "piece": "red-cube"})
    lines = [line.render() for line in view_lines(state)]
    assert "  seat 2 (team A): none · 0 drops" in lines
    assert lines[-1] == "Seat 3 places red-cube (given by seat 2) on red-prism."
    state.apply({"kind": "place"})
    state.apply(referee.stood(state))
    assert view_lines(state)[-1].render() == (
        "Seat 2 wins: the last piece of their reserve was placed and stood (T14, TD09)."
        " The winners: team A (seats 0, 2)."
    )


def test_a_two_player_game_played_to_a_win(splash: Splash, tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    lines = [*OPENING, *FIRST_FALL, *BUILD, *SECOND_FALL, *ACCIDENTS, *LAST_FALL]
    result = splash("tower", "referee", "--players", "2", "--save", str(save), lines=lines)
    assert result.exit_code == 0
    out = result.output
    assert "Seat 0 takes red-cube." in out and "Seat 1 takes purple-cylinder." in out
    assert "Legal gifts (T07): yellow-cube → on orange-cube; blue-cube → on orange-cube" in out
    assert "Seat 1 places yellow-cube (given by seat 0) on orange-cube." in out
    # The first fall: one standing stack, the new base at once, the fallen cube taken back.
    assert "Standing: red-cube orange-cube. Lying on the table: yellow-cube. Right? (y/n)" in out
    assert "Seat 0 gets a water drop (T10): 1 drop now." in out
    assert "The new base (T11): red-cube; the tower: red-cube orange-cube." in out
    assert "Seat 1 takes back (T12): yellow-cube." in out
    assert "Seat 1 gives next (T13)." in out
    # red-beam left room on orange-beam (TD04): the tower branches there.
    assert "  orange-beam: on orange-cube, 65 mm, top free" in out
    assert "orange-prism → on orange-beam" in out
    # The second fall: only a single piece stands, seat 1 chooses the base and keeps 3 of 5.
    assert "Seat 1 chooses the new base (T11) among: red-cube, orange-cube, orange-beam," in out
    assert "Seat 1 takes back exactly 3 of them; the rest go to the box (T12)." in out
    assert "Into the box: green-beam, yellow-beam." in out
    assert "Seat 1 takes back (T12): red-cube, orange-cube, red-beam." in out
    assert "The tower fell by itself (T17)" in out
    assert "Seat 1 knocked the tower over (T18): no drop; seat 1 proceeds" in out
    assert "red-prism goes back to seat 0's reserve." in out
    assert out.rstrip().endswith("Seat 0 wins with 3 drops (T15).")
    assert "error" not in out
    state = resume_tower(save)[1]
    assert state.is_terminal() and state.winner == 0 and state.drops == [3, 0]
    assert saved(save)["meta"] == {"mode": "referee", "deal": "typed"}


def test_wrong_entries_change_nothing(splash: Splash, tmp_path: Path) -> None:
    before, after = tmp_path / "before.json", tmp_path / "after.json"
    splash("tower", "referee", "--players", "2", "--save", str(before), lines=OPENING)
    wrong = ["unicorn", "red-beam", "green-cube", "red cube orange cube"]
    result = splash(
        "tower", "referee", "--resume", str(before), lines=[*wrong, f"save {after}", "quit"]
    )
    out = result.output
    errors = [line for line in out.splitlines() if line.startswith("error: ")]
    assert errors == [
        "error: 'unicorn': 'unicorn' names no piece: type an id such as red-cube, or a colour"
        " and a shape such as red cube",
        "error: 'red-beam': red-beam has the shape or the colour of no uncovered piece of the"
        " tower (T07); legal gifts: yellow-cube, blue-cube",
        "error: 'green-cube': green-cube is in seat 1's reserve, but seat 0 holds a playable"
        " piece and gives one of their own (T07, T08); legal gifts: yellow-cube, blue-cube",
        "error: 'red cube orange cube': type one piece, such as red-cube; this names 2",
    ]
    assert saved(before) == saved(after)


def test_a_wrong_stack_changes_nothing(splash: Splash, tmp_path: Path) -> None:
    game, first, second = (tmp_path / name for name in ("game.json", "a.json", "b.json"))
    splash("tower", "referee", "--players", "2", "--save", str(game), lines=OPENING)
    lines = [
        "yellow-cube",
        "collapsed",  # no such outcome
        "fell",
        f"save {first}",
        "red-cube blue-arch",  # blue-arch is not in the tower
        "orange-cube red-cube",  # not base first
        "red-cube red-cube",
        "n",  # a stack is pieces, not an answer
        f"save {second}",
        "quit",
    ]
    out = splash("tower", "referee", "--resume", str(game), lines=lines).output
    assert "error: 'collapsed': type stood, fell, spontaneous" in out
    assert (
        "error: 'red-cube blue-arch': blue-arch is not in the tower; name pieces among:"
        " red-cube, orange-cube, yellow-cube"
    ) in out
    assert "error: 'orange-cube red-cube': red-cube did not rest on a piece below it" in out
    assert "error: 'red-cube red-cube': red-cube is named twice" in out
    assert "error: 'n': 'n' names no piece" in out
    assert saved(first) == saved(second)
    assert resume_tower(second)[1].phase == "result"


def test_wrong_base_and_take_back_change_nothing(splash: Splash, tmp_path: Path) -> None:
    game, first, second = (tmp_path / name for name in ("game.json", "a.json", "b.json"))
    lines = [*OPENING, *FIRST_FALL, *BUILD, *SECOND_FALL[:4]]
    splash("tower", "referee", "--players", "2", "--save", str(game), lines=lines)
    assert resume_tower(game)[1].phase == "base"
    steps = [
        f"save {first}",
        "purple arch",
        "orange-beam",
        "purple-arch",
        "red-cube orange-cube",
        "red-cube red-cube red-cube",
        f"save {second}",
        "quit",
    ]
    out = splash("tower", "referee", "--resume", str(game), lines=steps).output
    assert "error: 'purple arch': purple-arch cannot be the new base; the candidates are:" in out
    assert "error: 'purple-arch': purple-arch is not on the table; the pieces left there" in out
    assert "error: 'red-cube orange-cube': take back exactly 3 different pieces of:" in out
    assert "error: 'red-cube red-cube red-cube': take back exactly 3 different pieces" in out
    state = resume_tower(second)[1]
    assert state.phase == "keep" and state.tower.ids() == ("orange-beam",)
    assert saved(first)["actions"] == saved(second)["actions"][:-1]


def test_save_and_resume_give_the_same_game(splash: Splash, tmp_path: Path) -> None:
    first, second, end = (tmp_path / name for name in ("first.json", "second.json", "end.json"))
    splash(
        "tower",
        "referee",
        "--players",
        "2",
        "--save",
        str(first),
        lines=[*OPENING, *FIRST_FALL, *BUILD],
    )
    result = splash("tower", "referee", "--resume", str(first), lines=[f"save {second}", "quit"])
    assert result.exit_code == 0
    assert f"The game is saved in {second}." in result.output
    assert resume_tower(first)[1].to_json() == resume_tower(second)[1].to_json()
    # The resumed game goes on to its end.
    rest = [*SECOND_FALL, *ACCIDENTS, *LAST_FALL]
    result = splash("tower", "referee", "--resume", str(second), "--save", str(end), lines=rest)
    assert result.output.rstrip().endswith("Seat 0 wins with 3 drops (T15).")
    assert resume_tower(end)[1].winner == 0


def test_a_random_deal_typed_or_dealt_by_the_program(splash: Splash, tmp_path: Path) -> None:
    typed = tmp_path / "typed.json"
    lines = ["red cube", "red-cube", "cube orange"]
    common = ("tower", "referee", "--players", "2", "--set", "options.deal=random")
    out = splash(*common, "--save", str(typed), lines=lines).output
    assert "Which piece did seat 0 receive? red cube" in out
    assert "error: 'red-cube': red-cube is not in the pile: it is in seat 0's reserve" in out
    assert "Seat 1 receives orange-cube." in out
    assert saved(typed)["actions"] == [
        {"kind": "deal", "piece": "red-cube"},
        {"kind": "deal", "piece": "orange-cube"},
    ]
    dealt = [tmp_path / "a.json", tmp_path / "b.json"]
    for path in dealt:
        result = splash(*common, "--seed", "7", "--save", str(path), lines=["quit"])
        assert "The program dealt the pieces at random (TD02)." in result.output
    assert saved(dealt[0]) == saved(dealt[1])
    assert saved(dealt[0])["meta"] == {"mode": "referee", "deal": "digital", "seed": 7}
    state = resume_tower(dealt[0])[1]
    assert state.phase == "give" and [len(r) for r in state.reserves] == [15, 15]


def test_help_and_the_top_placement(splash: Splash) -> None:
    lines = [*DRAFT, "help", "red-cube", "stood", "orange-cube", "stood", "n", "yellow-beam"]
    result = splash(
        "tower", "referee", "--players", "2", "--set", "options.placement=top", lines=lines
    )
    out = " ".join(result.output.split())  # the help is wrapped to the console
    assert "placement top" in out
    assert (
        "Commands at any prompt: view (show the game again), undo (take back the last entry:"
        " a decision or a report), save [FILE], help, quit."
    ) in out
    assert "Any piece of seat 0's reserve may be given: it goes on the table (TD06)." in out
    assert (
        "error: 'yellow-beam': yellow-beam has neither the shape nor the colour of the top piece"
        " orange-cube (T05, T07)"
    ) in out


def test_settings_and_save_files_are_checked(splash: Splash, tmp_path: Path) -> None:
    result = splash("tower", "referee", "--players", "7")
    assert result.exit_code == 2 and "error: options.players=7" in result.output
    other = tmp_path / "bash.json"
    other.write_text(json.dumps(GameRecord("bash", {}).to_json()), encoding="utf-8")
    result = splash("tower", "referee", "--resume", str(other))
    assert result.exit_code == 2 and "holds a bash game, not tower" in result.output
    result = splash("tower", "referee", "--resume", str(other), "--players", "3")
    assert result.exit_code == 2 and "leave out --set and --players" in result.output


def test_an_action_the_engine_refuses_changes_nothing() -> None:
    game = TowerGame.from_settings([("options.players", 2)])
    state = position(game, reserves={0: "red-cube blue-cube", 1: "green-beam"}, tower="red-prism")
    output = StringIO()
    console = Console(file=output, width=200)
    session = TowerReferee(console, game, state, digital=None, save_path=None, meta={})
    state.apply({"kind": "give", "piece": "red-cube"})
    state.apply({"kind": "place"})
    before = state.to_json()
    wrong = referee.stood(state).to_json()
    tower = json_array(json_object(wrong["outcome"])["tower"])
    json_object(tower[-1])["support"] = None
    assert not session.apply([wrong])
    assert state.to_json() == before
    assert "error: illegal action the tower: stood" in output.getvalue()
    assert "must rest on its target red-prism" in output.getvalue()


def test_a_report_the_rules_refuse_is_asked_again_and_changes_nothing(
    splash: Splash, tmp_path: Path
) -> None:
    game, first, second = (tmp_path / name for name in ("game.json", "a.json", "b.json"))
    splash("tower", "referee", "--players", "2", "--save", str(game), lines=OPENING)
    lines = [
        "yellow-cube",
        f"save {first}",
        "fell",
        "red-cube orange-cube yellow-cube",  # every piece still stands: nothing fell
        "y",
        f"save {second}",
        "stood",
        "n",
        "quit",
    ]
    out = splash("tower", "referee", "--resume", str(game), "--save", str(game), lines=lines).output
    errors = [line for line in out.splitlines() if line.startswith("error: ")]
    assert errors == [
        "error: illegal action the tower: fell in placement 3, chance to act: result: nothing"
        " fell: every piece still stands where it was; report that the tower stood"
    ]
    after_error = out.split(errors[0], 1)[1]
    assert "What happened? stood, fell, spontaneous or knocked:" in after_error
    assert saved(first) == saved(second)
    state = resume_tower(game)[1]
    assert state.tower.ids() == ("red-cube", "orange-cube", "yellow-cube")
