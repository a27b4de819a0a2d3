"""Cards: both decks, timing, one card a turn, the hand limit, hidden hands (B18-B20, BD12, BD15, BD16, BD18)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from splash.core import IllegalActionError
from splash.core.actions import Json
from splash.games.bash import BashGame, BashState
from splash.games.bash.scenario import play_moves, position, where


def _kinds(state: BashState) -> list[dict[str, Json]]:
    return [a.to_json() for a in state.legal_actions()]


# ----- low tide deck -------------------------------------------------------------------


def test_BD15_default_low_tide_deck(game: BashGame) -> None:
    counts = {name: card.count for name, card in game.settings.decks["low_tide"].cards.items()}
    assert counts == {
        "calm_water": 8,
        "breeze": 4,
        "headwind": 4,
        "flip_flops": 3,
        "fish_bone": 3,
        "towel_break": 2,
    }
    assert sum(counts.values()) == 24


def test_BD15_headwind_never_below_one(game: BashGame) -> None:
    state = position(game, pieces="A1:c5")
    play_moves(state, "draw headwind", "roll 1")
    assert where(state, "A1") == "c6"
    state = position(game, pieces="A1:c5")
    play_moves(state, "draw headwind", "roll 4")
    assert state.roll_value() == 3


def test_BD15_flip_flops_make_the_lane_change_free(game: BashGame) -> None:
    state = position(game, pieces="A1:o12")
    play_moves(state, "draw flip_flops", "roll 1")
    assert state.lane_options() == [(1, 0), (2, 0)]
    play_moves(state, "lane high_tide")
    assert where(state, "A1") == "h9"


def test_BD15_towel_break_no_roll_no_lane_change_no_move(game: BashGame) -> None:
    state = position(game, pieces="A1:c5")
    play_moves(state, "draw towel_break")
    assert where(state, "A1") == "c5"
    assert state.team == 1  # the turn is over


def test_BD15_towel_break_leaves_only_the_moment_after_the_draw(game: BashGame) -> None:
    state = position(game, pieces="A1:c5 B1:c6", hands="A:slide,shove")
    play_moves(state, "draw towel_break")
    assert _kinds(state) == [{"kind": "pass"}, {"kind": "play", "card": "shove"}]  # no slide
    play_moves(state, "pass")
    assert state.team == 1


def test_BD15_calm_water_goes_to_the_discard_pile(game: BashGame) -> None:
    state = position(game, pieces="A1:c5")
    play_moves(state, "draw calm_water")
    assert state.board.decks["low_tide"]["calm_water"] == 7
    assert state.board.discards["low_tide"]["calm_water"] == 1


# ----- high tide deck ------------------------------------------------------------------


def test_BD16_default_high_tide_deck(game: BashGame) -> None:
    counts = {name: card.count for name, card in game.settings.decks["high_tide"].cards.items()}
    assert counts == {
        "rogue_wave": 3,
        "undertow": 3,
        "shove": 3,
        "fish_bone": 3,
        "second_chance": 2,
        "lifebuoy": 2,
        "slide": 2,
    }


def test_BD16_rogue_wave_rolls_two_dice(game: BashGame) -> None:
    state = position(game, pieces="A1:c5", hands="A:rogue_wave")
    play_moves(state, "draw calm_water", "play rogue_wave", "roll 3", "roll 4")
    assert state.dice == [3, 4]
    play_moves(state, "stay")
    assert where(state, "A1") == "c12"


def test_BD16_undertow_reaches_other_teams_within_six_in_high_tide(game: BashGame) -> None:
    state = position(game, pieces="A1:c10 B1:h14 B2:h15 B3:h2 A2:h9", hands="A:undertow")
    play_moves(state, "draw calm_water", "play undertow")
    assert _kinds(state) == [
        {"kind": "target", "team": 1, "piece": 0},
        {"kind": "target", "team": 1, "piece": 2},
    ]
    play_moves(state, "target B1")
    assert where(state, "B1") == "c17"


def test_BD16_undertow_counts_across_the_line(game: BashGame) -> None:
    state = position(game, pieces="A1:c1 B1:h25 B2:h28", hands="A:undertow")
    play_moves(state, "draw calm_water", "play undertow")
    # B2 stands on the line of lap 2 and cannot be chosen: B1 (4 squares away) is the only
    # target; it restarts from high tide checkpoint 21, centre 26.
    assert where(state, "B1") == "c26"
    assert where(state, "B2") == "h28"


def test_BD16_shove_pushes_a_pawn_next_to_the_active_one(game: BashGame) -> None:
    state = position(game, pieces="A1:c10 B1:c11 B2:o12 B3:h8 A2:c12", hands="A:shove")
    play_moves(state, "draw calm_water", "play shove")
    assert _kinds(state) == [
        {"kind": "target", "team": 1, "piece": 0},
        {"kind": "target", "team": 1, "piece": 1},
        {"kind": "target", "team": 1, "piece": 2},
    ]
    play_moves(state, "target B2")
    # B2 lands on A1, which is pushed onto B3, which falls and restarts at centre 9.
    assert [where(state, p) for p in ("B2", "A1", "B3")] == ["c10", "h8", "c9"]


def test_BD16_shove_into_the_pool(game: BashGame) -> None:
    state = position(game, pieces="A1:c10 B3:h8", hands="A:shove")
    play_moves(state, "draw calm_water", "play shove")
    assert where(state, "B3") == "c9"


def test_BD16_fish_bone_from_the_hand_places_an_obstacle(game: BashGame) -> None:
    state = position(game, pieces="A1:c5", hands="A:fish_bone")
    play_moves(state, "draw calm_water", "play fish_bone", "obstacle h20")
    assert state.board.obstacles == {(2, 20)}


def test_BD16_second_chance_rerolls_and_keeps_either(game: BashGame) -> None:
    state = position(game, pieces="A1:c5", hands="A:second_chance")
    play_moves(state, "draw calm_water")
    assert _kinds(state) == [{"kind": "pass"}]  # not before the roll
    play_moves(state, "pass", "roll 2", "play second_chance", "roll 5")
    assert _kinds(state) == [{"kind": "keep", "roll": "first"}, {"kind": "keep", "roll": "second"}]
    play_moves(state, "keep second", "stay")
    assert where(state, "A1") == "c10"


def test_BD16_slide_three_squares_without_tail_wind(game: BashGame) -> None:
    state = position(game, pieces="A1:o5", hands="A:slide")
    play_moves(state, "draw calm_water", "pass", "roll 1", "pass", "pass")
    assert where(state, "A1") == "o7"
    play_moves(state, "play slide")
    assert where(state, "A1") == "o10"


def test_BD16_lifebuoy_when_a_card_made_it_fall(game: BashGame) -> None:
    state = position(game, pieces="A1:c10 B1:h14", hands="A:undertow B:lifebuoy")
    play_moves(state, "draw calm_water", "play undertow")
    assert state.to_act() == 1
    assert _kinds(state) == [{"kind": "pass"}, {"kind": "play", "card": "lifebuoy"}]
    play_moves(state, "play lifebuoy")
    assert where(state, "B1") == "h14"
    assert state.board.hands[1] == []
    assert state.board.discards["high_tide"]["lifebuoy"] == 1
    assert state.team == 0
    event = state.chance_event()
    assert event is not None and event.kind == "roll"  # A's turn goes on


def test_BD16_lifebuoy_undoes_the_chain_that_pushed_it(game: BashGame) -> None:
    state = position(game, pieces="A1:o12 B1:c10 B2:h8", hands="B:lifebuoy")
    play_moves(state, "draw calm_water", "roll 4", "lane centre")
    assert state.to_act() == 1
    play_moves(state, "play lifebuoy")
    assert [where(state, p) for p in ("A1", "B1", "B2")] == ["o12", "c10", "h8"]
    assert state.board.hands[1] == []
    assert state.team == 1  # A1's movement ended; its turn is over


def test_BD16_lifebuoy_after_a_slip_stays_on_the_obstacle_square(game: BashGame) -> None:
    state = position(
        game, pieces="A1:h10", obstacles="h12", hands="A:lifebuoy", decks={"high_tide": {}}
    )
    play_moves(state, "pass", "roll 2", "pass", "stay", "pass", "play lifebuoy")
    assert where(state, "A1") == "h12"
    assert state.board.obstacles == set()


def test_BD16_declining_the_lifebuoy(game: BashGame) -> None:
    state = position(game, pieces="A1:c10 B1:h14", hands="A:undertow B:lifebuoy")
    play_moves(state, "draw calm_water", "play undertow", "pass")
    assert where(state, "B1") == "c17"
    assert state.board.hands[1] == ["lifebuoy"]


# ----- timing, one card a turn, the hand limit -----------------------------------------


@pytest.mark.rule("B18", "BD18")
def test_B18_cards_are_played_at_the_moments_of_the_own_turn(game: BashGame) -> None:
    state = position(game, pieces="A1:c5 B1:c20", hands="A:rogue_wave B:shove")
    play_moves(state, "draw calm_water")
    assert state.to_act() == 0
    assert _kinds(state) == [{"kind": "pass"}, {"kind": "play", "card": "rogue_wave"}]
    play_moves(state, "pass", "roll 2")
    # rogue wave keeps to "before the roll": after it, only passing is offered.
    assert _kinds(state) == [{"kind": "pass"}]
    play_moves(state, "pass", "stay", "pass")
    assert _kinds(state) == [{"kind": "pass"}]
    play_moves(state, "pass")
    assert state.team == 1
    # B's card is not B's to play in A's turn: B was never asked.


def test_B19_one_card_per_turn(game: BashGame) -> None:
    state = position(game, pieces="A1:c5 B1:c6", hands="A:shove,fish_bone")
    play_moves(state, "draw calm_water", "play fish_bone", "obstacle h20", "roll 3", "stay")
    assert state.board.hands[0] == ["shove"]
    assert state.team == 1  # no other card moment was offered


def test_B19_a_reaction_counts_as_the_card_of_the_turn(game: BashGame) -> None:
    state = position(game, pieces="A1:c10 A2:h8", hands="A:shove,lifebuoy")
    play_moves(state, "draw calm_water", "play shove")
    assert where(state, "A2") == "c9"  # no lifebuoy: A already played this turn
    assert state.board.hands[0] == ["lifebuoy"]


def test_B20_a_third_card_discards_one_of_the_two_held(game: BashGame) -> None:
    state = position(game, pieces="A1:h3", hands="A:shove,undertow")
    play_moves(state, "draw slide")
    assert sorted(a.param("card") for a in state.legal_actions()) == ["shove", "undertow"]
    with pytest.raises(IllegalActionError):
        play_moves(state, "discard slide")
    play_moves(state, "discard shove")
    assert state.board.hands[0] == ["slide", "undertow"]
    assert state.board.discards["high_tide"]["shove"] == 1


def test_B20_discarding_a_copy_of_the_card_just_drawn(game: BashGame) -> None:
    state = position(game, pieces="A1:h3", hands="A:shove,shove")
    play_moves(state, "draw shove")
    assert _kinds(state) == [{"kind": "discard", "card": "shove"}]


def test_BD18_cards_never_choose_a_pawn_on_the_line_or_finished(game: BashGame) -> None:
    state = position(game, pieces="A1:c1 B1:h0 B2:done B3:h56", hands="A:undertow")
    play_moves(state, "draw calm_water")
    assert _kinds(state) == [{"kind": "pass"}]


def test_BD18_a_card_needing_the_active_pawn_is_not_offered_once_it_finished(
    game: BashGame,
) -> None:
    state = position(game, pieces="A1:c66", hands="A:slide,fish_bone")
    play_moves(state, "draw calm_water", "pass", "roll 3", "pass", "stay", "pass")
    assert where(state, "A1") == "done"
    assert _kinds(state) == [{"kind": "pass"}, {"kind": "play", "card": "fish_bone"}]


# ----- hidden information --------------------------------------------------------------


def test_BD12_another_teams_hand_is_only_a_size(game: BashGame) -> None:
    one = position(game, pieces="A1:c5", hands="A:shove B:undertow")
    other = position(game, pieces="A1:c5", hands="A:shove B:lifebuoy")
    assert one.view(0)["hand_sizes"] == [1, 1]
    assert one.view(0)["hand"] == ["shove"]
    view_one, view_other = one.view(0), other.view(0)
    assert view_one == view_other


def test_BD12_a_deck_has_no_order_only_what_is_left(game: BashGame) -> None:
    state = position(game, pieces="A1:h3", hands="A:shove")
    outcomes = dict((a.param("card"), p) for a, p in state.chance_outcomes())
    assert outcomes["shove"] == Fraction(2, 17)
    assert outcomes["rogue_wave"] == Fraction(3, 17)
    doc = state.to_json()
    options = doc["config"]
    assert isinstance(options, dict)
    # The options name the teams' turn order (BV01); nothing names an order of cards.
    assert "order" not in str({**doc, "config": {**options, "options": None}})
