"""The variants that are not part of the draft (BV01-BV05), with values derived by hand.

Default board: lanes of 40 (Outer), 34 (Centre) and 28 (High tide) squares, 2 laps.
"""

from __future__ import annotations

import numpy as np
import pytest

from splash.core import CHANCE
from splash.games.bash import BashGame, BashState
from splash.games.bash.hidden import resample
from splash.games.bash.scenario import play_moves, position, where
from splash.games.bash.variants import furthest_behind, race_progress, turn_team

NO_DRAW: dict[str, dict[str, int]] = {"low_tide": {}}
"""An empty low tide deck with no discards: every turn from a low tide lane skips its draw."""


def _game(**options: object) -> BashGame:
    return BashGame.from_settings([(f"options.{key}", value) for key, value in options.items()])


def _teams_of_turns(state: BashState, turns: int) -> str:
    letters = []
    for _ in range(turns):
        letters.append("ABCD"[state.team])
        play_moves(state, "roll 1")
    return "".join(letters)


def _set_up(state: BashState, *lanes: str) -> BashState:
    return play_moves(state, *(f"start {lane}" for lane in lanes))


# ----- BV01 turn order -------------------------------------------------------------------


@pytest.mark.rule("BV01")
@pytest.mark.parametrize(
    ("order", "teams", "expected"),
    [
        ("seat", 3, "ABC ABC ABC"),
        ("rotate", 3, "ABC BCA CAB ABC"),
        ("snake", 3, "ABC CBA ABC CBA"),
        ("rotate", 2, "AB BA AB"),
        ("snake", 2, "AB BA AB"),
        ("rotate", 4, "ABCD BCDA CDAB DABC ABCD"),
        ("snake", 4, "ABCD DCBA ABCD"),
    ],
)
def test_BV01_turn_order_by_rounds(order: str, teams: int, expected: str) -> None:
    game = _game(teams=teams, turn_order=order)
    state = position(game, decks=NO_DRAW)
    rounds = expected.split()
    assert _teams_of_turns(state, len(rounds) * teams) == "".join(rounds)
    assert [turn_team(game.settings.options.turn_order, teams, t) for t in range(teams * 2)] == [
        "ABCD".index(letter) for letter in "".join(rounds)[: teams * 2]
    ]


@pytest.mark.rule("BV01", "BD01")
def test_BV01_set_up_stays_in_seat_order_and_seat_0_opens_round_0() -> None:
    state = _game(teams=3, turn_order="snake").new_initial_state()
    actors = []
    for _ in range(9):
        actors.append(state.to_act())
        play_moves(state, "start outer")
    assert actors == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    assert state.to_act() == CHANCE and state.team == 0


@pytest.mark.rule("BV01", "BD14")
@pytest.mark.parametrize("order", ["seat", "rotate", "snake"])
def test_BV01_turn_cap_counts_complete_rounds(order: str) -> None:
    """A cap of 4 turns with 3 teams ends the game after 6: the cap is checked only when a
    round of 3 turns is complete, whoever opened it."""
    state = position(_game(teams=3, turn_order=order, turn_cap=4), decks=NO_DRAW)
    played = 0
    while not state.over:
        play_moves(state, "roll 1")
        played += 1
    assert played == 6 and state.turns == 6
    assert state.board.winner is None
    assert state.board.events[-1] == {"event": "turn_cap", "turns": 6}


@pytest.mark.rule("BV01", "B02")
def test_BV01_each_team_keeps_its_own_pawn_order_under_snake() -> None:
    state = position(_game(turn_order="snake"), decks=NO_DRAW)
    actives = []
    for _ in range(6):
        actives.append(state.active_piece.name)
        play_moves(state, "roll 1")
    assert actives == ["A1", "B1", "B2", "A2", "A3", "B3"]


# ----- BV02 first-turn penalty -------------------------------------------------------------


@pytest.mark.rule("BV02")
def test_BV02_the_first_roll_of_the_game_is_reduced_to_at_least_1() -> None:
    game = _game(first_turn_penalty=2)
    state = _set_up(game.new_initial_state(), *["outer"] * 6)
    play_moves(state, "draw calm_water", "roll 4")
    assert state.roll_value() == 2
    play_moves(state, "stay")
    assert where(state, "A1") == "o3"  # 4 - 2, and one square of tail wind (BD06)
    play_moves(state, "draw calm_water", "roll 4")
    assert state.team == 1 and state.roll_value() == 4
    low = _set_up(game.new_initial_state(), *["outer"] * 6)
    play_moves(low, "draw calm_water", "roll 1")
    assert where(low, "A1") == "o2"  # max(1, 1 - 2) = 1, no lane change to pay, tail wind


@pytest.mark.rule("BV02", "BD15")
def test_BV02_the_penalty_comes_before_the_cards_of_the_turn() -> None:
    state = _set_up(_game(first_turn_penalty=3).new_initial_state(), *["centre"] * 6)
    play_moves(state, "draw breeze", "roll 2")
    assert state.roll_value() == 2  # max(1, 2 - 3) = 1, then Breeze +1


# ----- BV03 staggered start ----------------------------------------------------------------


@pytest.mark.rule("BV03", "BD03")
def test_BV03_each_teams_start_square_per_lane() -> None:
    """Centre 2·k; Outer ⌊2k·40/34 + ½⌋; High tide ⌊2k·28/34 + ½⌋."""
    course = _game(teams=4, start_stagger=2).course
    squares = [[course.stagger_square(team, lane) for lane in range(3)] for team in range(4)]
    assert squares == [[0, 0, 0], [2, 2, 2], [5, 4, 3], [7, 6, 5]]
    far = _game(teams=4, start_stagger=10).course
    assert [far.stagger_square(3, lane) for lane in range(3)] == [35, 30, 25]


@pytest.mark.rule("BV03", "BD02")
def test_BV03_a_start_square_stays_in_the_first_lap() -> None:
    game = BashGame.from_settings(
        [
            ("board.lanes.outer", 14),
            ("board.lanes.centre", 11),
            ("board.lanes.high_tide", 9),
            ("options.teams", 3),
            ("options.start_stagger", 10),
        ]
    )
    assert [game.course.stagger_square(2, lane) for lane in range(3)] == [13, 10, 8]


@pytest.mark.rule("BV03", "BD04")
def test_BV03_pawns_of_one_lane_stand_behind_each_other() -> None:
    state = _game(teams=3, start_stagger=2).new_initial_state()
    _set_up(state, "outer", "centre", "high_tide", *["centre"] * 3, *["outer"] * 2, "centre")
    placed = [[where(state, f"{team}{i}") for i in (1, 2, 3)] for team in "ABC"]
    assert placed == [["o0", "c0", "h0"], ["c2", "c1", "c0"], ["o5", "o4", "c4"]]
    crowded = _game(teams=3, start_stagger=1).new_initial_state()
    _set_up(crowded, *["centre"] * 9)
    squares = [where(crowded, f"{team}{i}") for team in "ABC" for i in (1, 2, 3)]
    assert squares == ["c0", "c0", "c0", "c1", "c0", "c0", "c2", "c0", "c0"]


@pytest.mark.rule("BV03", "BD13")
def test_BV03_the_helmsman_enters_on_the_start_line() -> None:
    state = position(
        _game(start_stagger=3), pieces="B1:done B2:done B3:done A1:c10", team="B", decks=NO_DRAW
    )
    play_moves(state, "start high_tide")
    assert where(state, "BH") == "h0"


@pytest.mark.rule("BV03")
def test_BV03_without_stagger_every_pawn_starts_on_the_line() -> None:
    state = _game(teams=4).new_initial_state()
    _set_up(state, *["high_tide"] * 12)
    assert {where(state, f"{team}{i}") for team in "ABCD" for i in (1, 2, 3)} == {"h0"}


# ----- BV04 catching up --------------------------------------------------------------------


@pytest.mark.rule("BV04")
def test_BV04_progress_is_comparable_across_lanes() -> None:
    """Outer 10 and High tide 7 are both a quarter lap: 10·34·28 = 7·40·34 = 9,520."""
    state = position(_game(catch_up_draw=True), pieces="A1:o10 B1:h7")
    course = state._bash.course
    assert race_progress(course, state.board, 0) == race_progress(course, state.board, 1) == 9520
    assert furthest_behind(course, state.board) == 1  # a tie goes to the later seat
    done = position(_game(), pieces="A1:done A2:c60 B1:c67")
    assert race_progress(course, done.board, 0) == 2 * 38080 + 60 * 1120


def _draws_at_the_start(state: BashState) -> int:
    draws = 0
    while (event := state.chance_event()) is not None and event.kind == "draw":
        play_moves(state, "draw calm_water" if event.params["deck"] == "low_tide" else "draw slide")
        draws += 1
    return draws


def _next_chance(state: BashState) -> str | None:
    event = state.chance_event()
    return None if event is None else event.kind


@pytest.mark.rule("BV04", "B05")
def test_BV04_the_team_furthest_behind_draws_twice() -> None:
    game = _game(catch_up_draw=True)
    behind = position(game, pieces="A1:c10 B1:c5", team="B", active="B1")
    assert _draws_at_the_start(behind) == 2
    assert _next_chance(behind) == "roll"
    ahead = position(game, pieces="A1:c10 B1:c5", team="A")
    assert _draws_at_the_start(ahead) == 1
    tied = position(game, pieces="A1:o10 B1:h7", team="B", active="B1")
    assert _draws_at_the_start(tied) == 2
    draft = position(_game(), pieces="A1:c10 B1:c5", team="B", active="B1")
    assert _draws_at_the_start(draft) == 1


@pytest.mark.rule("BV04", "B05", "B06")
def test_BV04_the_first_card_is_applied_before_the_second_draw() -> None:
    state = position(_game(catch_up_draw=True), pieces="A1:c10 B1:c5", team="B", active="B1")
    play_moves(state, "draw breeze", "draw headwind", "roll 3")
    assert state.modifiers == [[1, 1], [-1, 1]]
    assert state.roll_value() == 3


@pytest.mark.rule("BV04", "BD13")
def test_BV04_a_helmsman_has_no_automatic_draw_to_double() -> None:
    """Every pawn home: the teams tie, so the last seat is furthest behind, and its helmsman's
    turn still starts with the roll (BD13: no automatic draw)."""
    pieces = " ".join(f"{team}{i}:done" for team in "ABC" for i in (1, 2, 3))
    state = position(_game(catch_up_draw=True, teams=3), pieces=pieces + " CH:c3", team="C")
    assert furthest_behind(state._bash.course, state.board) == 2
    assert state.active_piece.name == "CH"
    assert _next_chance(state) == "roll"


# ----- BV05 opening cards ------------------------------------------------------------------


def _opening(teams: int, order: str = "seat") -> BashState:
    game = _game(teams=teams, opening_cards=1, turn_order=order)
    return _set_up(game.new_initial_state(), *["centre"] * (3 * teams))


@pytest.mark.rule("BV05", "BD01")
@pytest.mark.parametrize("order", ["seat", "snake"])
def test_BV05_every_team_after_the_first_draws_a_high_tide_card_before_turn_1(order: str) -> None:
    state = _opening(3, order)
    drawn = []
    for card in ("shove", "lifebuoy"):
        event = state.chance_event()
        assert event is not None and event.params == {"deck": "high_tide"}
        drawn.append(state.team)
        play_moves(state, f"draw {card}")
    assert drawn == [1, 2]
    assert state.board.hands == [[], ["shove"], ["lifebuoy"]]
    assert state.team == 0 and state.turns == 0
    event = state.chance_event()
    assert event is not None and event.params == {"deck": "low_tide"}  # seat 0's own draw


@pytest.mark.rule("BV05", "BD12")
def test_BV05_an_opening_card_is_secret_and_redealt_by_a_determinisation() -> None:
    state = play_moves(_opening(2), "draw shove")
    events = state.view(0)["events"]
    assert isinstance(events, list)
    assert {"event": "draw", "team": 1, "deck": "high_tide"} in events
    assert state.view(0)["hand"] == []
    assert state.view(0)["hand_sizes"] == [0, 1]
    seen = set()
    for seed in range(40):
        dealt = resample(state, 0, np.random.default_rng(seed))
        assert [len(hand) for hand in dealt.board.hands] == [0, 1]
        seen.add(dealt.board.hands[1][0])
        assert resample(state, 1, np.random.default_rng(seed)).board.hands[1] == ["shove"]
    assert len(seen) > 3


@pytest.mark.rule("BV05")
def test_BV05_without_opening_cards_seat_0_plays_at_once() -> None:
    state = _set_up(_game(teams=3).new_initial_state(), *["centre"] * 9)
    assert state.board.hands == [[], [], []]
    event = state.chance_event()
    assert state.team == 0 and event is not None and event.params == {"deck": "low_tide"}
