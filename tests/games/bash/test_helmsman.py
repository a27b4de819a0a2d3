"""The final phase: the helmsman, the exact finish, the end of the game (B30-B33, BD13, BD14)."""

from __future__ import annotations

import pytest

from splash.core import TERMINAL
from splash.games.bash import BashGame
from splash.games.bash.scenario import play_moves, position, where

NO_DRAWS: dict[str, dict[str, int]] = {"high_tide": {}, "low_tide": {}}


def test_B30_the_helmsman_enters_after_the_third_pawn_finishes(game: BashGame) -> None:
    state = position(game, pieces="A1:done A2:done A3:c66 B1:c5", decks=NO_DRAWS)
    play_moves(state, "roll 2", "stay")
    assert where(state, "A3") == "done"
    assert where(state, "AH") == "off"
    assert state.team == 1
    play_moves(state, "roll 1")  # team B's turn
    assert state.to_act() == 0
    assert {a.kind for a in state.legal_actions()} == {"start_lane"}
    play_moves(state, "start high_tide")
    assert where(state, "AH") == "h0"


def test_BD13_no_automatic_draw_for_the_helmsman(game: BashGame) -> None:
    state = position(game, pieces="A1:done A2:done A3:done AH:c10")
    event = state.chance_event()
    assert event is not None and event.kind == "roll"


def test_B31_the_exact_number_finishes(game: BashGame) -> None:
    state = position(game, pieces="A1:done A2:done A3:done AH:c30")
    play_moves(state, "roll 4", "stay")
    assert state.to_act() == TERMINAL
    assert state.board.winner == 0
    assert state.returns() == [1.0, -1.0]


def test_B31_too_high_bounces_back(game: BashGame) -> None:
    state = position(game, pieces="A1:done A2:done A3:done AH:c30", decks={"high_tide": {}})
    play_moves(state, "roll 5", "stay")
    assert where(state, "AH") == "c33"
    assert state.board.winner is None


def test_B31_the_bounce_can_bump(game: BashGame) -> None:
    state = position(game, pieces="A1:done A2:done A3:done AH:c32 B1:c31", decks={"high_tide": {}})
    play_moves(state, "roll 5", "stay")
    assert [where(state, p) for p in ("AH", "B1")] == ["c31", "c29"]
    assert {
        "event": "bump",
        "piece": "AH",
        "lane": "centre",
        "s": 31,
        "target": "B1",
        "direction": "backward",
    } in state.board.events


def test_B32_a_helmsman_who_does_not_finish_draws_a_high_tide_card(game: BashGame) -> None:
    state = position(game, pieces="A1:done A2:done A3:done AH:o10")
    play_moves(state, "roll 3", "stay")
    event = state.chance_event()
    assert event is not None and event.kind == "draw" and event.params["deck"] == "high_tide"
    play_moves(state, "draw undertow")
    assert state.board.hands[0] == ["undertow"]
    assert state.team == 1


def test_B33_finished_pawns_stay_where_they_are(game: BashGame) -> None:
    state = position(game, pieces="A1:done A2:c20 A3:c30", decks=NO_DRAWS)
    for _ in range(4):
        play_moves(state, "roll 1")
    assert where(state, "A1") == "done"
    assert state.board.pieces[0][0].lane is None


def test_BD13_exact_rule_counts_the_tail_wind(game: BashGame) -> None:
    state = position(game, pieces="A1:done A2:done A3:done AH:o36")
    play_moves(state, "roll 3", "stay")
    assert state.board.winner == 0
    state = position(game, pieces="A1:done A2:done A3:done AH:o36", decks={"high_tide": {}})
    play_moves(state, "roll 4", "stay")
    assert where(state, "AH") == "o39"


def test_BD13_exact_rule_applies_to_card_moves(game: BashGame) -> None:
    state = position(game, pieces="A1:done A2:done A3:done AH:c31", hands="A:slide")
    play_moves(state, "pass", "roll 1", "pass", "pass")
    assert where(state, "AH") == "c32"
    play_moves(state, "play slide")  # 33, the line, back to 33
    assert where(state, "AH") == "c33"


@pytest.mark.rule("BD13", "BD14")
def test_BD13_a_helmsman_pushed_exactly_onto_the_line_finishes(game: BashGame) -> None:
    state = position(game, pieces="A1:done A2:done A3:done AH:c32 B1:c29", team="B", decks=NO_DRAWS)
    play_moves(state, "roll 3", "stay")
    assert state.is_terminal()
    assert state.board.winner == 0


def test_BD13_a_helmsman_pushed_past_the_line_bounces_back() -> None:
    game = BashGame.from_settings([("options.bump_distance", 3)])
    state = position(game, pieces="A1:done A2:done A3:done AH:c33 B1:c30", team="B", decks=NO_DRAWS)
    play_moves(state, "roll 3", "stay")
    assert [where(state, p) for p in ("B1", "AH")] == ["c33", "c32"]
    assert not state.is_terminal()


def test_BD13_cards_of_the_active_pawn_wait_for_the_helmsman(game: BashGame) -> None:
    state = position(game, pieces="A1:done A2:done A3:c66", hands="A:slide,fish_bone")
    play_moves(state, "draw calm_water", "pass", "roll 2", "pass", "stay", "pass")
    assert where(state, "A3") == "done"
    assert [a.to_json() for a in state.legal_actions()] == [
        {"kind": "pass"},
        {"kind": "play", "card": "fish_bone"},
    ]


def test_BD14_the_first_helmsman_home_ends_the_game_at_once(game: BashGame) -> None:
    state = position(game, pieces="A1:done A2:done A3:done AH:c30 B1:done B2:done B3:done BH:c30")
    play_moves(state, "roll 4", "stay")
    assert state.is_terminal()
    assert state.legal_actions() == []
    assert state.returns() == [1.0, -1.0]


def test_BD14_the_turn_cap_ends_with_no_winner_after_a_full_round() -> None:
    game = BashGame.from_settings([("options.turn_cap", 3)])
    state = position(game, pieces="", decks=NO_DRAWS)
    turns = 0
    while not state.is_terminal():
        play_moves(state, "roll 1")
        turns += 1
    assert turns == 4  # the cap is checked once the round is complete
    assert state.board.winner is None
    assert state.returns() == [0.0, 0.0]


def test_BD14_utilities_with_three_teams() -> None:
    game = BashGame.from_settings([("options.teams", 3)])
    state = position(game, pieces="B1:done B2:done B3:done BH:c30", team="B")
    play_moves(state, "roll 4", "stay")
    assert state.returns() == [-0.5, 1.0, -0.5]
