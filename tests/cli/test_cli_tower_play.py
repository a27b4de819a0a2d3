"""``splash tower play``: one seat of Splash! against bots, the physics ruling placements."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import Result

from splash.cli.choices import EntryError
from splash.cli.tower import resume_tower
from splash.cli.tower_play import parse_pose
from splash.core.record import GameRecord
from splash.games.tower import TowerGame
from tests.bots.tower_positions import branched

Splash = Callable[..., Result]

REFUSED = "place flat 0 0 0"
"""Centred on red-beam, orange-beam would touch red-cube, which rests on one end (T06)."""
ACCEPTED = "place flat 90 -12.5 0"
"""Across the free end of red-beam."""


def saved_position(path: Path) -> Path:
    """Save :func:`branched` as a game of seat 1 against the random bot."""
    state = branched()
    record = GameRecord.of(state, mode="play", seat=1, bots=["random", None])
    path.write_text(json.dumps(record.to_json()), encoding="utf-8")
    return path


def actions(path: Path) -> object:
    return json.loads(path.read_text(encoding="utf-8"))["actions"]


def test_poses_typed_by_people() -> None:
    faces = ["flat", "end"]
    centred = {"kind": "place", "face": "flat", "rotation_deg": 0.0, "x_mm": 0.0, "y_mm": 0.0}
    assert parse_pose("place", faces) == centred
    assert parse_pose("  ", faces) == centred
    assert parse_pose("place END 270 1.5 -2", faces) == {
        "kind": "place",
        "face": "end",
        "rotation_deg": -90.0,
        "x_mm": 1.5,
        "y_mm": -2.0,
    }
    assert parse_pose("flat 30", faces)["rotation_deg"] == 30.0
    for wrong in ("place wobble", "place flat x", "place flat 1 2 3 4", "place flat nan"):
        with pytest.raises(EntryError):
            parse_pose(wrong, faces)


@pytest.mark.rule("TD13", "T06", "TD14")
def test_a_refused_pose_changes_nothing_then_the_piece_is_placed(
    splash: Splash, tmp_path: Path
) -> None:
    start = saved_position(tmp_path / "start.json")
    refused, save, png = tmp_path / "refused.json", tmp_path / "game.json", tmp_path / "t.png"
    lines = [
        REFUSED,
        f"save {refused}",
        "place wobble",
        ACCEPTED,
        "why yellow-arch",
        "why red-prism",
        "yellow-arch",
        "red-prism",
        "quit",
    ]
    args = ["--resume", str(start), "--seed", "1", "--png", str(png), "--save", str(save)]
    result = splash("tower", "play", *args, lines=lines)
    assert result.exit_code == 0
    out = result.output
    assert "Splash!: you play seat 1; seat 0 is the random bot." in out
    assert "Your hand (steadiness, TD14): position 0.5 mm, angle 1°, release height 0.5 mm." in out
    assert "Seat 1 places orange-beam (given by seat 0) on red-beam." in out
    assert "Faces of orange-beam: flat (15 mm high), end (50 mm high)." in out
    assert (
        "The top of red-beam (resting on flat): x from -25 to 25 mm, y from -7.5 to 7.5 mm." in out
    )
    errors = [line for line in out.splitlines() if line.startswith("error: ")]
    assert errors[0] == (
        "error: placement orange-beam on flat, turned 0 deg, at (0, 0) mm on red-beam refused:"
        " it would touch red-cube besides its target — nothing changed: try another pose"
    )
    assert errors[1].startswith("error: 'place wobble': the piece has no face 'wobble'")
    assert actions(refused) == actions(start)
    # The accepted pose is ruled by the physics: it stands, the tower is drawn.
    assert "The tower stands: orange-beam rests on red-beam." in out
    assert "The hand shook by (" in out
    assert f"The side view is in {png.resolve()}." in out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "  orange-beam: on red-beam, 30 mm, top free" in out
    # The gift: why a piece may or may not be given, a refused gift, then a legal one.
    assert "yellow-arch has the shape or the colour of no uncovered piece of the tower (T07)" in out
    assert "red-prism may be given: it goes on red-cube." in out
    assert errors[2].startswith("error: 'yellow-arch': yellow-arch has the shape or the colour")
    assert "Seat 1 gives red-prism to seat 0." in out
    assert "Seat 0 places red-prism on face " in out
    assert out.rstrip().endswith("The game is left unfinished.")
    # The save holds the game: resumed, the same state and the same seats.
    _, state, record = resume_tower(save)
    assert record.meta == {"mode": "play", "seat": 1, "bots": ["random", None]}
    assert "orange-beam" in state.tower and "red-prism" not in state.reserves[1]


def test_save_and_resume(splash: Splash, tmp_path: Path) -> None:
    start = saved_position(tmp_path / "start.json")
    again = tmp_path / "again.json"
    png = tmp_path / "t.png"
    result = splash(
        "tower", "play", "--resume", str(start), "--png", str(png), lines=["view", f"save {again}"]
    )
    assert result.exit_code == 0
    assert result.output.count("Faces of orange-beam") == 2
    assert json.loads(again.read_text()) == json.loads(start.read_text())
    assert not png.exists()


def test_a_draft_against_a_bot(splash: Splash, tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    pieces = list(TowerGame().catalogue.piece_ids)
    args = ["--players", "2", "--seed", "4", "--save", str(save), "--png", str(tmp_path / "t.png")]
    result = splash("tower", "play", *args, lines=[*pieces, "quit"])
    assert result.exit_code == 0
    out = result.output
    assert "Seat 0 takes red-cube." in out
    assert "Seat 1 takes " in out
    assert "Any piece of seat 0's reserve may be given: it goes on the table (TD06)." in out
    state = resume_tower(save)[1]
    assert state.phase == "give" and [len(r) for r in state.reserves] == [15, 15]


def test_options_and_saves_are_checked(splash: Splash, tmp_path: Path) -> None:
    result = splash("tower", "play", "--players", "2", "--seat", "2")
    assert result.exit_code == 2
    assert "a seat is a number from 0 to 1" in result.output
    result = splash("tower", "play", "--players", "3", "--bots", "random,random,random")
    assert result.exit_code == 2
    assert "3 bots for 2 seats" in result.output
    referee = tmp_path / "referee.json"
    splash("tower", "referee", "--players", "2", "--save", str(referee), lines=["red-cube"])
    result = splash("tower", "play", "--resume", str(referee))
    assert result.exit_code == 2
    assert "this save is not a game against bots" in result.output
    result = splash("tower", "play", "--resume", str(referee), "--players", "2")
    assert result.exit_code == 2
