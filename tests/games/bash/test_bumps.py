"""Bumps and chains (B11-B15, BD08, BD09)."""

from __future__ import annotations

import pytest

from splash.games.bash import BashGame, BashState
from splash.games.bash.scenario import play_moves, position, where


def _places(state: BashState, *labels: str) -> list[str]:
    return [where(state, label) for label in labels]


def test_B11_a_bump_ends_the_movement_with_points_left(game: BashGame) -> None:
    state = position(game, pieces="A1:c5 B1:c8")
    play_moves(state, "draw calm_water", "roll 6", "stay")
    assert _places(state, "A1", "B1") == ["c8", "c10"]


def test_B12_bump_from_behind_moves_the_target_two_forward(game: BashGame) -> None:
    state = position(game, pieces="A1:c5 B1:c8")
    play_moves(state, "draw calm_water", "roll 3", "stay")
    assert _places(state, "A1", "B1") == ["c8", "c10"]
    assert state.board.events[0] == {
        "event": "bump",
        "piece": "A1",
        "lane": "centre",
        "s": 8,
        "target": "B1",
        "direction": "forward",
    }


def test_B12_bumps_apply_between_team_mates(game: BashGame) -> None:
    state = position(game, pieces="A1:c5 A2:c7")
    play_moves(state, "draw calm_water", "roll 2", "stay")
    assert _places(state, "A1", "A2") == ["c7", "c9"]


def test_B13_sideways_bump_pushes_one_lane_further(game: BashGame) -> None:
    state = position(game, pieces="A1:o12 B1:c10")
    play_moves(state, "draw calm_water", "roll 4", "lane centre")
    assert _places(state, "A1", "B1") == ["c10", "h8"]  # 2 points left, but the bump ended it


def test_B13_sideways_bump_in_high_tide_ends_in_the_pool(game: BashGame) -> None:
    state = position(game, pieces="A1:c10 B1:h8")
    play_moves(state, "draw calm_water", "roll 2", "lane high_tide")
    assert _places(state, "A1", "B1") == ["h8", "c9"]
    assert [e["event"] for e in state.board.events] == ["bump", "fall", "restart"]


def test_B14_outward_against_the_edge_discards_and_goes_behind(game: BashGame) -> None:
    state = position(game, pieces="A1:c10 B1:o12", hands="B:shove")
    play_moves(state, "draw calm_water", "roll 2", "lane outer")
    assert _places(state, "A1", "B1") == ["o12", "o11"]
    assert state.board.hands[1] == []
    assert state.board.discards["high_tide"]["shove"] == 1


def test_B14_the_pushed_team_chooses_its_discard(game: BashGame) -> None:
    state = position(game, pieces="A1:c10 B1:o12", hands="B:shove,undertow")
    play_moves(state, "draw calm_water", "roll 2", "lane outer")
    assert state.to_act() == 1
    assert [a.to_json() for a in state.legal_actions()] == [
        {"kind": "discard", "card": "undertow"},
        {"kind": "discard", "card": "shove"},
    ]  # ids follow the deck file's order
    play_moves(state, "discard undertow")
    assert state.board.hands[1] == ["shove"]
    assert _places(state, "A1", "B1") == ["o12", "o11"]


@pytest.mark.rule("B15", "BD08")
def test_B15_chain_forward(game: BashGame) -> None:
    state = position(game, pieces="A1:c5 B1:c8 A2:c10")
    play_moves(state, "draw calm_water", "roll 3", "stay")
    assert _places(state, "A1", "B1", "A2") == ["c8", "c10", "c12"]


def test_B15_chain_that_ends_in_the_pool(game: BashGame) -> None:
    state = position(game, pieces="A1:o12 B1:c10 B2:h8")
    play_moves(state, "draw calm_water", "roll 2", "lane centre")
    assert _places(state, "A1", "B1", "B2") == ["c10", "h8", "c9"]


def test_BD08_put_behind_on_an_occupied_square_bumps_backward(game: BashGame) -> None:
    state = position(game, pieces="A1:c10 B1:o12 B2:o11")
    play_moves(state, "draw calm_water", "roll 2", "lane outer")
    assert _places(state, "A1", "B1", "B2") == ["o12", "o11", "o9"]


def test_BD08_backward_displacement_stops_at_the_first_start_line(game: BashGame) -> None:
    state = position(game, pieces="A1:c2 B1:o2 B2:o1")
    play_moves(state, "draw calm_water", "roll 2", "lane outer")
    assert _places(state, "A1", "B1", "B2") == ["o2", "o1", "o0"]


def test_BD08_chain_onto_an_already_moved_pawn_is_undone(game: BashGame) -> None:
    state = position(game, pieces="A1:h8 B1:c10", obstacles="o12")
    play_moves(state, "draw undertow")  # A1 stands in high tide: a high tide card
    play_moves(state, "pass", "roll 4", "pass", "lane centre")
    # B1 pushed out onto the obstacle slips back onto A1: the whole chain is undone.
    assert _places(state, "A1", "B1") == ["h8", "c10"]
    assert state.board.obstacles == {(0, 12)}
    assert state.board.events[-1] == {"event": "chain_undone"}
    assert state.movement_over


def test_BD09_a_push_across_the_line_finishes_the_pawn(game: BashGame) -> None:
    state = position(game, pieces="A1:c63 B1:c66")
    play_moves(state, "draw calm_water", "roll 3", "stay")
    assert _places(state, "A1", "B1") == ["c66", "done"]


def test_BD09_finishing_walk_loses_the_points_left(game: BashGame) -> None:
    state = position(game, pieces="A1:c66")
    play_moves(state, "draw calm_water", "roll 5", "stay")
    assert where(state, "A1") == "done"
    assert state.board.pieces[0][0].lane is None


def test_B14_behind_the_pusher_counts_in_the_targets_own_laps(game: BashGame) -> None:
    # B3 on its second lap pushes A's helmsman, who runs a single lap, against the edge.
    state = position(game, pieces="A1:done A2:done A3:done AH:o35 B3:c64", team="B", active="B3")
    play_moves(state, "draw calm_water", "roll 2", "lane outer")
    assert _places(state, "B3", "AH") == ["o75", "o34"]


@pytest.mark.rule("BD08", "B17", "BD11")
def test_BD08_a_pawn_pushed_two_squares_slips_on_an_obstacle_it_crosses(game: BashGame) -> None:
    state = position(game, pieces="A1:c5 B1:c8", obstacles="c9")
    play_moves(state, "draw calm_water", "roll 3", "stay")
    # B1 crosses c9 and slips from there toward the pool: Centre 9 is alongside High tide 7
    # (9 * 28/34 = 7.4); its displacement ends there, and the one-shot obstacle is gone.
    assert _places(state, "A1", "B1") == ["c8", "h7"]
    assert state.board.obstacles == set()
    assert [(e["event"], e.get("s")) for e in state.board.events] == [("bump", 8), ("slip", 9)]


@pytest.mark.rule("BD08", "B15")
def test_BD08_a_pawn_on_the_crossed_square_is_not_bumped(game: BashGame) -> None:
    state = position(game, pieces="A1:c5 B1:c8 B2:c9")
    play_moves(state, "draw calm_water", "roll 3", "stay")
    assert _places(state, "A1", "B1", "B2") == ["c8", "c10", "c9"]
    assert [e["event"] for e in state.board.events] == ["bump"]


@pytest.mark.rule("BD08", "B14", "B17")
def test_BD08_a_backward_push_slips_on_the_obstacle_it_crosses(game: BashGame) -> None:
    # A1 pushes B1 against the edge; B1, put behind on o11, pushes B2 back from o11 over the
    # obstacle on o10: B2 slips from o10 to the Centre square alongside (10 * 34/40 = 8.5 → 9).
    state = position(game, pieces="A1:c10 B1:o12 B2:o11", obstacles="o10")
    play_moves(state, "draw calm_water", "roll 2", "lane outer")
    assert _places(state, "A1", "B1", "B2") == ["o12", "o11", "c9"]
    assert state.board.obstacles == set()


@pytest.mark.rule("BD08", "BD11")
def test_BD08_a_permanent_obstacle_under_a_pawn_makes_the_crossing_pawn_slip() -> None:
    game = BashGame.from_settings([("options.obstacles", "permanent")])
    state = position(game, pieces="A1:c5 B1:c8 B2:c9", obstacles="c9")
    play_moves(state, "draw calm_water", "roll 3", "stay")
    assert _places(state, "A1", "B1", "B2") == ["c8", "h7", "c9"]
    assert state.board.obstacles == {(1, 9)}


@pytest.mark.rule("BD08", "B16", "BD10")
def test_BD08_crossing_an_obstacle_in_high_tide_falls_into_the_pool(game: BashGame) -> None:
    state = position(game, pieces="A1:h5 B1:h8", obstacles="h9")
    play_moves(state, "draw undertow", "pass", "roll 3", "pass", "stay", "pass")
    # B1 slips from High tide 9 into the pool and restarts at the 1/4 line it has passed
    # (High tide 7), on the Centre lane: Centre 9.
    assert _places(state, "A1", "B1") == ["h8", "c9"]
    assert [e["event"] for e in state.board.events][:4] == ["bump", "slip", "fall", "restart"]


@pytest.mark.rule("BD08", "BD09")
def test_BD08_an_obstacle_before_the_line_stops_a_push_that_would_finish(game: BashGame) -> None:
    # Centre is 34 squares a lap: B1 on 66 of 68 is pushed over 67 (square 33, the obstacle)
    # and slips to High tide 55 (67 * 28/34 = 55.2) instead of finishing.
    state = position(game, pieces="A1:c63 B1:c66", obstacles="c33")
    play_moves(state, "draw calm_water", "roll 3", "stay")
    assert _places(state, "A1", "B1") == ["c66", "h55"]
