"""Falling into the pool and slipping on obstacles (B16, B17, BD10, BD11)."""

from __future__ import annotations

import pytest

from splash.games.bash import BashGame
from splash.games.bash.scenario import play_moves, position, where

NO_HIGH_TIDE: dict[str, dict[str, int]] = {"high_tide": {}}


def test_B16_slip_in_high_tide_restarts_at_the_checkpoint_in_centre(game: BashGame) -> None:
    state = position(game, pieces="A1:h10", obstacles="h12", decks=NO_HIGH_TIDE)
    play_moves(state, "roll 2", "stay")
    assert where(state, "A1") == "c9"
    assert state.board.obstacles == set()
    assert [e["event"] for e in state.board.events][-3:] == ["slip", "fall", "restart"]


def test_B16_restart_keeps_the_lap(game: BashGame) -> None:
    state = position(game, pieces="A1:h38", obstacles="h12", decks=NO_HIGH_TIDE)
    play_moves(state, "roll 2", "stay")
    assert where(state, "A1") == "c43"


def test_B16_before_the_first_checkpoint_back_to_the_start(game: BashGame) -> None:
    state = position(game, pieces="A1:c4 B1:h3")
    play_moves(state, "draw calm_water", "roll 2", "lane high_tide")
    assert where(state, "B1") == "c0"


def test_BD10_occupied_checkpoint_goes_to_the_nearest_free_square_behind(game: BashGame) -> None:
    state = position(game, pieces="A1:c10 B1:h8 B2:c9", obstacles="c8")
    play_moves(state, "draw calm_water", "roll 2", "lane high_tide")
    assert where(state, "B1") == "c7"
    assert state.board.obstacles == {(1, 8)}  # no slip on a restart


def test_B17_obstacle_in_outer_slips_to_centre(game: BashGame) -> None:
    state = position(game, pieces="A1:o5", obstacles="o7")
    play_moves(state, "draw calm_water", "roll 3", "stay")  # 3 + tail wind: the slip ends it on o7
    assert where(state, "A1") == "c6"
    assert state.board.obstacles == set()


def test_B17_obstacle_in_centre_slips_to_high_tide(game: BashGame) -> None:
    state = position(game, pieces="A1:c5", obstacles="c7")
    play_moves(state, "draw calm_water", "roll 5", "stay")
    assert where(state, "A1") == "h6"


def test_BD11_a_pushed_pawn_slips_too(game: BashGame) -> None:
    state = position(game, pieces="A1:c5 B1:c8", obstacles="c10")
    play_moves(state, "draw calm_water", "roll 3", "stay")
    assert [where(state, p) for p in ("A1", "B1")] == ["c8", "h8"]
    assert state.board.obstacles == set()


def test_BD11_a_sideways_entry_counts_as_crossing(game: BashGame) -> None:
    state = position(game, pieces="A1:o12", obstacles="c10")
    play_moves(state, "draw calm_water", "roll 4", "lane centre")
    assert where(state, "A1") == "h8"


def test_BD11_the_drawing_team_places_the_obstacle(game: BashGame) -> None:
    state = position(game, pieces="A1:c5")
    play_moves(state, "draw fish_bone")
    assert state.to_act() == 0
    play_moves(state, "obstacle c7", "roll 3", "stay")
    assert where(state, "A1") == "h6"


@pytest.mark.rule("BD11")
def test_BD11_permanent_obstacles_stay_and_bump_first_then_slip(permanent: BashGame) -> None:
    state = position(permanent, pieces="A1:c5 B1:c8", obstacles="c8")
    play_moves(state, "draw calm_water", "roll 3", "stay")
    assert [where(state, p) for p in ("A1", "B1")] == ["h7", "c10"]
    assert state.board.obstacles == {(1, 8)}


def test_BD11_no_free_square_loses_the_obstacle() -> None:
    game = BashGame.from_settings(
        [(f"board.lanes.{lane}", 4) for lane in ("outer", "centre", "high_tide")]
    )
    state = position(game, pieces="A1:c1 A2:c2 A3:c3 B1:o1 B2:o2 B3:o3", obstacles="h1 h2 h3")
    play_moves(state, "draw fish_bone")
    assert {"event": "obstacle_lost"} in state.board.events
    event = state.chance_event()
    assert event is not None and event.kind == "roll"
