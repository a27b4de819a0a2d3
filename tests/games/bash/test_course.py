"""The course: lanes, squares alongside, checkpoints, the start line (B03, B04, BD02-BD04)."""

from __future__ import annotations

import pytest

from splash.games.bash import BashGame
from splash.games.bash.geometry import CENTRE, HIGH_TIDE, OUTER
from splash.games.bash.scenario import play_moves, position, where


def test_BD02_default_board_lengths_laps_and_checkpoints(game: BashGame) -> None:
    course = game.course
    assert course.lengths == (40, 34, 28)
    assert course.laps == 2
    assert course.checkpoints == ((0, 10, 20, 30), (0, 9, 17, 26), (0, 7, 14, 21))
    assert [course.total(lane, helmsman=False) for lane in (OUTER, CENTRE, HIGH_TIDE)] == [
        80,
        68,
        56,
    ]
    assert [course.total(lane, helmsman=True) for lane in (OUTER, CENTRE, HIGH_TIDE)] == [
        40,
        34,
        28,
    ]


def test_BD02_checkpoints_follow_the_board_data() -> None:
    game = BashGame.from_settings(
        [("board.lanes.outer", 36), ("board.checkpoints.fractions", [0.0, 0.5])]
    )
    assert game.course.checkpoints[OUTER] == (0, 18)
    assert game.course.checkpoints[CENTRE] == (0, 17)


def test_BD03_squares_alongside(game: BashGame) -> None:
    course = game.course
    assert course.alongside(CENTRE, 10, OUTER) == 12
    assert course.alongside(CENTRE, 10, HIGH_TIDE) == 8
    assert course.alongside(OUTER, 10, CENTRE) == 9
    assert course.alongside(OUTER, 11, CENTRE) == 9
    assert course.alongside(OUTER, 12, HIGH_TIDE) == 8  # through Centre 10
    assert course.alongside(CENTRE, 44, OUTER) == 52  # lap 2 keeps its lap


def test_BD03_next_to_is_either_mapping(game: BashGame) -> None:
    course = game.course
    assert course.next_to(OUTER, 10, CENTRE, 9)
    assert course.next_to(OUTER, 11, CENTRE, 9)
    assert not course.next_to(OUTER, 12, CENTRE, 9)
    assert not course.next_to(OUTER, 12, HIGH_TIDE, 8)  # not adjacent lanes


def test_BD03_pawns_on_different_laps_meet_on_the_same_square(game: BashGame) -> None:
    state = position(game, pieces="A1:c37 B1:c6")  # c37 is centre square 3 of lap 2
    play_moves(state, "draw calm_water", "roll 3", "stay")
    assert where(state, "A1") == "c40"
    assert where(state, "B1") == "c8"


def test_BD04_start_line_holds_any_number_and_never_bumps(game: BashGame) -> None:
    state = position(game, pieces="A1:c32 A2:c0 A3:c0 B1:c0 B2:c0 B3:c0")
    play_moves(state, "draw calm_water", "roll 2", "stay")
    assert where(state, "A1") == "c34"  # the line of lap 2: physical square 0
    assert [where(state, label) for label in ("A2", "B1", "B2")] == ["c0", "c0", "c0"]
    assert not any(e["event"] == "bump" for e in state.board.events)


def test_BD04_no_obstacle_on_the_start_line(game: BashGame) -> None:
    state = position(game, pieces="A1:c5")
    play_moves(state, "draw fish_bone")
    squares = {(a.param("lane"), a.param("square")) for a in state.legal_actions()}
    assert all(square != 0 for _, square in squares)
    assert ("centre", 5) not in squares  # occupied
    assert len(squares) == 39 + 33 + 27 - 1


def test_B03_tail_wind_only_in_the_outer_lane(game: BashGame) -> None:
    outer = position(game, pieces="A1:o5")
    play_moves(outer, "draw calm_water", "roll 1")
    centre = position(game, pieces="A1:c5")
    play_moves(centre, "draw calm_water", "roll 1")
    assert where(outer, "A1") == "o7"
    assert where(centre, "A1") == "c6"


def test_B03_only_the_high_tide_lane_leads_into_the_water(game: BashGame) -> None:
    state = position(game, pieces="A1:o12 B1:c10", decks={"low_tide": {"calm_water": 1}})
    play_moves(state, "draw calm_water", "roll 2", "lane centre")
    assert where(state, "B1") == "h8"
    assert not any(e["event"] == "fall" for e in state.board.events)


@pytest.mark.rule("B04", "BD10")
def test_B04_restart_at_the_checkpoint_behind_never_ahead(game: BashGame) -> None:
    course = game.course
    assert course.restart(HIGH_TIDE, 6) == 0
    assert course.restart(HIGH_TIDE, 7) == 9
    assert course.restart(HIGH_TIDE, 13) == 9
    assert course.restart(HIGH_TIDE, 27) == 26
    assert course.restart(HIGH_TIDE, 28 + 12) == 34 + 9
    assert course.restart(OUTER, 29) == 17
