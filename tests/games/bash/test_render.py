"""The text picture of a position and the sentences of events (from views only)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from rich.console import Console

from splash.games.bash import BashGame, BashState
from splash.games.bash.render import (
    CELL,
    event_sentence,
    movement_sentences,
    picture,
    public_view,
)

CARD_NAMES = {"shove": "Shove", "undertow": "Undertow", "lifebuoy": "Lifebuoy"}


def _text(view: dict[str, Any], game: BashGame, width: int = 120) -> str:
    out = io.StringIO()
    console = Console(file=out, width=width, color_system=None)
    console.print(picture(view, game.course, width=width))
    return out.getvalue()


def _known_position(game: BashGame) -> BashState:
    """A1 on Outer 12, A2 on Centre 5 of lap 2, B2 on High tide 9, A3 and B1 on the line,
    an obstacle on Centre 20; team A holds Shove, team B Undertow and Lifebuoy."""
    state = game.new_initial_state()
    for lane in ["outer", "centre", "high_tide", "centre", "high_tide", "outer"]:
        state.apply(game.action_space.find("start_lane", lane=lane))
    pieces = state.board.pieces
    pieces[0][0].lane, pieces[0][0].s = 0, 12
    pieces[0][1].lane, pieces[0][1].s = 1, 34 + 5
    pieces[1][1].lane, pieces[1][1].s = 2, 9
    pieces[1][2].finished, pieces[1][2].lane = True, None
    state.board.obstacles.add((1, 20))
    state.board.hands = [["shove"], ["lifebuoy", "undertow"]]
    return state


def _cells_row(text: str, lane_title: str) -> tuple[str, str]:
    lines = text.splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith(lane_title))
    return lines[index + 2], lines[index + 3]


def _square(row: str, square: int) -> str:
    return row[square * CELL : square * CELL + 2]


def test_pawns_stand_in_their_lane_rows_with_their_laps() -> None:
    game = BashGame.from_settings()
    text = _text(_known_position(game).view(0), game)
    outer, outer_laps = _cells_row(text, "Outer lane")
    centre, centre_laps = _cells_row(text, "Centre lane")
    high, _ = _cells_row(text, "High tide lane")
    assert _square(outer, 12) == "A1"
    assert _square(outer_laps, 12).strip() == "1"
    assert _square(centre, 5) == "A2"
    assert _square(centre_laps, 5).strip() == "2"
    assert _square(high, 9) == "B2"
    assert _square(centre, 20) == "##"
    assert (_square(outer, 0), _square(centre, 0), _square(high, 0)) == ("S ", "S1", "S1")
    assert "A1" not in centre and "B2" not in outer
    assert "On the start/finish line: A3 (High tide), B1 (Centre)" in text
    assert "Finished: B3" in text
    assert "Not on the course yet: AH, BH" in text


def test_checkpoints_are_marked() -> None:
    game = BashGame.from_settings()
    text = _text(_known_position(game).view(0), game)
    lines = text.splitlines()
    ruler = lines[lines.index(next(x for x in lines if x.startswith("Centre lane"))) + 1]
    for checkpoint in (0, 9, 17, 26):
        column = checkpoint * CELL
        assert ruler[column : column + 1 + len(str(checkpoint))] == f"▼{checkpoint}"


def test_own_hand_shown_other_hands_as_sizes_only() -> None:
    game = BashGame.from_settings()
    state = _known_position(game)
    text_a = _text(state.view(0), game)
    assert "team A (you): Shove" in text_a
    assert "team B: 2 cards" in text_a
    assert "Undertow" not in text_a and "Lifebuoy" not in text_a
    text_b = _text(state.view(1), game)
    assert "team B (you): Lifebuoy, Undertow" in text_b
    assert "team A: 1 card" in text_b
    assert "Shove" not in text_b


def test_public_view_shows_no_card_of_any_hand() -> None:
    game = BashGame.from_settings()
    state = _known_position(game)
    text = _text(public_view(state.view(0)), game)
    assert "Hands: team A: 1 card · team B: 2 cards" in text
    for card in CARD_NAMES.values():
        assert card not in text


def test_public_view_hides_private_events() -> None:
    view: dict[str, Any] = {
        "events": [
            {"event": "draw", "team": 0, "deck": "high_tide", "card": "shove"},
            {"event": "draw", "team": 0, "deck": "low_tide", "card": "breeze"},
            {"event": "steal", "team": 0, "from": 1, "card": "undertow"},
        ],
        "hand": ["shove"],
        "awaiting": {"kind": "reaction", "team": 0, "options": ["lifebuoy", "pass"]},
    }
    public = public_view(view)
    assert public["hand"] is None
    assert public["awaiting"] == {"kind": "reaction", "team": 0}
    assert public["events"][0] == {"event": "draw", "team": 0, "deck": "high_tide"}
    assert public["events"][1]["card"] == "breeze"
    assert "card" not in public["events"][2]


def test_the_roll_is_shown() -> None:
    game = BashGame.from_settings()
    state = game.new_initial_state()
    space = game.action_space
    for lane in ["outer"] * 6:
        state.apply(space.find("start_lane", lane=lane))
    state.apply(space.find("draw", deck="low_tide", card="breeze"))
    state.apply(space.find("roll", face=3))
    text = _text(state.view(0), game)
    assert "Turn 1 · team A plays with A1 · roll 4 (dice 3)" in text


@pytest.mark.parametrize("outer", [40, 90, 400])
def test_lines_fit_120_columns_and_long_lanes_wrap(outer: int) -> None:
    game = BashGame.from_settings([("board.lanes.outer", outer), ("options.teams", 4)])
    state = game.new_initial_state()
    for _ in range(12):
        state.apply(game.action_space.find("start_lane", lane="outer"))
    state.board.pieces[3][0].s = outer - 1
    text = _text(state.view(0), game)
    assert max(len(line) for line in text.splitlines()) <= 120
    lines = text.splitlines()
    start = next(i for i, x in enumerate(lines) if x.startswith("Outer lane"))
    end = next(i for i, x in enumerate(lines) if x.startswith("Centre lane"))
    rows = [x for x in lines[start:end] if x.startswith(("S", "··", "D1"))]
    assert len(rows) == -(-outer // 40)
    assert "D1" in lines[start:end][-2]


def test_every_event_reads_as_a_sentence() -> None:
    game = BashGame.from_settings()
    events: list[dict[str, Any]] = [
        {"event": "roll", "face": 4},
        {"event": "draw", "team": 0, "deck": "low_tide", "card": "breeze"},
        {"event": "draw", "team": 1, "deck": "high_tide"},
        {"event": "play", "team": 1, "card": "undertow"},
        {"event": "discard", "team": 0, "card": "second_chance"},
        {
            "event": "bump",
            "piece": "A1",
            "lane": "outer",
            "s": 12,
            "target": "B2",
            "direction": "forward",
        },
        {
            "event": "bump",
            "piece": "A1",
            "lane": "centre",
            "s": 40,
            "target": "B2",
            "direction": "inward",
        },
        {"event": "slip", "piece": "A2", "lane": "centre", "s": 20},
        {"event": "fall", "piece": "B2", "lane": "high_tide", "s": 9},
        {"event": "restart", "piece": "B2", "lane": "centre", "s": 9},
        {"event": "saved", "piece": "B2", "lane": "high_tide", "s": 9, "card": "lifebuoy"},
        {"event": "chain_undone"},
        {"event": "finish", "piece": "A3"},
        {"event": "bounce", "piece": "AH", "lane": "outer", "s": 40, "squares": 2},
        {"event": "obstacle", "lane": "high_tide", "square": 3},
        {"event": "obstacle_lost"},
        {"event": "enter", "piece": "AH", "lane": "centre"},
        {"event": "reshuffle", "deck": "low_tide"},
        {"event": "no_card", "deck": "high_tide"},
        {"event": "steal", "team": 0, "from": 1, "card": "slide"},
        {"event": "steal", "team": 0, "from": 1},
        {"event": "turn_cap", "turns": 1000},
    ]
    sentences = [event_sentence(e, game.course).render() for e in events]
    assert sentences[:3] == [
        "The die shows 4.",
        "Team A draws Breeze from the Low tide deck.",
        "Team B draws a card from the High tide deck.",
    ]
    assert sentences[5] == "A1 bumps into B2 at Outer 12 (lap 1): B2 is pushed forward."
    assert sentences[6] == ("A1 bumps into B2 at Centre 6 (lap 2): B2 is pushed toward the pool.")
    assert sentences[9] == "B2 restarts from Centre 9 (lap 1)."
    assert sentences[19] == "Team A takes Slide from team B."
    assert sentences[20] == "Team A takes a card from team B."
    for sentence in sentences:
        assert "{" not in sentence and "_" not in sentence, sentence


def test_movements_say_where_each_piece_goes() -> None:
    game = BashGame.from_settings()
    state = game.new_initial_state()
    before = state.view(0)
    state.apply(game.action_space.find("start_lane", lane="high_tide"))
    middle = state.view(0)
    state.board.pieces[0][0].s = 3
    after = state.view(0)
    assert [m.render() for m in movement_sentences(before, middle, game.course)] == [
        "A1 takes its place on the start line in the High tide lane."
    ]
    assert [m.render() for m in movement_sentences(middle, after, game.course)] == [
        "A1 goes from the start line (High tide) to High tide 3 (lap 1)."
    ]
