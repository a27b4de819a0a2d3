"""A team turn: set-up, pawn order, the draw, the roll, lane changes, the walk (B01-B10, BD01, BD05-BD07)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from splash.core import CHANCE, OptionError
from splash.games.bash import BashGame
from splash.games.bash.scenario import play_moves, position, where


def test_BD01_set_up_in_seat_order_then_seat_0_plays_first(game: BashGame) -> None:
    state = game.new_initial_state()
    seen = []
    for _ in range(6):
        seen.append(state.to_act())
        assert {a.kind for a in state.legal_actions()} == {"start_lane"}
        state.apply({"kind": "start_lane", "lane": "outer"})
    assert seen == [0, 0, 0, 1, 1, 1]
    assert state.to_act() == CHANCE
    assert state.team == 0
    assert all(p.lane == 0 and p.s == 0 for team in state.board.pieces for p in team[:3])


def test_BD01_two_to_four_teams_in_seat_order() -> None:
    game = BashGame.from_settings([("options.teams", 4)])
    assert game.num_seats == 4
    state = position(game, pieces="", decks={"low_tide": {}})
    teams = []
    for _ in range(8):
        teams.append(state.team)
        play_moves(state, "roll 1")
    assert teams == [0, 1, 2, 3, 0, 1, 2, 3]
    with pytest.raises(OptionError):
        BashGame.from_settings([("options.teams", 5)])


def test_B01_three_pawns_and_a_helmsman_off_the_course(game: BashGame) -> None:
    state = game.new_initial_state()
    for team in state.board.pieces:
        assert len(team) == 4
        assert team[3].helmsman and team[3].lane is None


def test_B02_pawns_move_in_a_fixed_order_skipping_finished_ones(game: BashGame) -> None:
    state = position(game, pieces="A2:done", decks={"low_tide": {}})
    actives = []
    for _ in range(6):
        if state.team == 0:
            actives.append(state.active_piece.name)
        play_moves(state, "roll 1")
    assert actives == ["A1", "A3", "A1"]


@pytest.mark.rule("B05", "BD07")
def test_B05_draw_from_the_deck_of_the_active_pawns_square(game: BashGame) -> None:
    high = position(game, pieces="A1:h3")
    low = position(game, pieces="A1:o3")
    start = position(game, pieces="A1:h0")
    decks = [s.chance_event() for s in (high, low, start)]
    assert [e.params["deck"] if e else None for e in decks] == [
        "high_tide",
        "low_tide",
        "high_tide",
    ]


def test_B06_low_tide_card_applies_before_the_roll(game: BashGame) -> None:
    state = position(game, pieces="A1:c5")
    play_moves(state, "draw breeze", "roll 3")
    assert state.roll_value() == 4
    play_moves(state, "stay")
    assert where(state, "A1") == "c9"


def test_B07_high_tide_card_is_kept_in_hand(game: BashGame) -> None:
    state = position(game, pieces="A1:h3")
    play_moves(state, "draw undertow")
    assert state.board.hands[0] == ["undertow"]
    assert state.board.discards["high_tide"]["undertow"] == 0


def test_B08_roll_the_die() -> None:
    game = BashGame.from_settings([("options.die_faces", 8)])
    state = position(game, pieces="A1:c5")
    play_moves(state, "draw calm_water")
    outcomes = state.chance_outcomes()
    assert [a.param("face") for a, _ in outcomes] == list(range(1, 9))
    assert {p for _, p in outcomes} == {Fraction(1, 8)}


def test_B09_lane_change_costs_two_per_lane_crossed(game: BashGame) -> None:
    state = position(game, pieces="A1:o12")
    play_moves(state, "draw calm_water", "roll 3")
    assert state.lane_options() == [(1, 2)]
    state = position(game, pieces="A1:o12")
    play_moves(state, "draw calm_water", "roll 4")
    assert state.lane_options() == [(1, 2), (2, 4)]
    play_moves(state, "lane high_tide")
    assert where(state, "A1") == "h8"  # nothing left to walk


@pytest.mark.rule("B10", "BD05")
def test_BD05_the_walk_is_compulsory_and_exact_after_the_lane_change(game: BashGame) -> None:
    state = position(game, pieces="A1:c5")
    play_moves(state, "draw calm_water", "roll 5", "stay")
    assert where(state, "A1") == "c10"
    state = position(game, pieces="A1:c10")
    play_moves(state, "draw calm_water", "roll 5", "lane outer")
    assert where(state, "A1") == "o16"  # o12, then 3 left + tail wind


def test_BD05_no_lane_change_the_roll_cannot_pay(game: BashGame) -> None:
    state = position(game, pieces="A1:c5")
    play_moves(state, "draw calm_water", "roll 1")
    assert where(state, "A1") == "c6"  # no lane decision was offered
    assert state.team == 1


def test_BD06_tail_wind_after_the_lane_change(game: BashGame) -> None:
    into_outer = position(game, pieces="A1:c10")
    play_moves(into_outer, "draw calm_water", "roll 3", "lane outer")
    assert where(into_outer, "A1") == "o14"  # o12 + 1 + 1
    nothing_left = position(game, pieces="A1:c10")
    play_moves(nothing_left, "draw calm_water", "roll 2", "lane outer")
    assert where(nothing_left, "A1") == "o12"


def test_BD07_empty_deck_is_reshuffled_from_its_discards(game: BashGame) -> None:
    state = position(
        game, pieces="A1:c5", decks={"low_tide": {}}, discards={"low_tide": {"breeze": 2}}
    )
    assert state.board.decks["low_tide"]["breeze"] == 2
    assert state.board.discards["low_tide"]["breeze"] == 0
    assert [a.param("card") for a in state.legal_actions()] == ["breeze"]


@pytest.mark.rule("BD07", "BD18")
def test_BD18_a_draw_from_an_empty_deck_without_discards_is_skipped(game: BashGame) -> None:
    state = position(game, pieces="A1:c5", decks={"low_tide": {}})
    event = state.chance_event()
    assert event is not None and event.kind == "roll"
