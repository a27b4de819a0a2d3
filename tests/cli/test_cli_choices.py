"""Matching what a person types to the legal choices."""

from __future__ import annotations

import pytest

from splash.cli.choices import EntryError, build_choices, match_choice, normalise
from splash.core.actions import Action
from splash.games.bash import BashGame, BashState
from tests.documents import json_array


def _state_at_lane_decision() -> tuple[BashGame, BashState]:
    game = BashGame.from_settings()
    state = game.new_initial_state()
    space = game.action_space
    for lane in ["outer", "centre", "high_tide"] * 2:
        state.apply(space.find("start_lane", lane=lane))
    state.apply(space.find("draw", deck="low_tide", card="calm_water"))
    state.apply(space.find("roll", face=4))
    return game, state


def _choose(state: BashState, game: BashGame, entry: str) -> Action:
    choices = build_choices(state.view(0), state.legal_actions(), game)
    return match_choice(entry, choices, choices).action


def test_normalise() -> None:
    assert normalise("  High_Tide ") == "high tide"
    assert normalise("Flip-flops") == "flip flops"


def test_lane_choices_by_number_and_by_text() -> None:
    game, state = _state_at_lane_decision()
    space = game.action_space
    assert _choose(state, game, "lane centre") == space.find("change_lane", lane="centre")
    assert _choose(state, game, "High tide") == space.find("change_lane", lane="high_tide")
    assert _choose(state, game, "stay") == space.find("stay")
    assert _choose(state, game, "lane outer") == space.find("stay")
    assert _choose(state, game, "1") == state.legal_actions()[0]


def test_lane_choice_texts_say_the_cost() -> None:
    game, state = _state_at_lane_decision()
    texts = [c.text.render() for c in build_choices(state.view(0), state.legal_actions(), game)]
    assert texts == [
        "change to the Centre lane (costs 2)",
        "change to the High tide lane (costs 4)",
        "stay in the Outer lane",
    ]


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        ("5", "there is no choice 5: type a number from 1 to 3"),
        ("play shove", "this is not one of the choices"),
        ("lane", "this is not one of the choices"),
    ],
)
def test_wrong_entries_say_what_is_accepted(entry: str, problem: str) -> None:
    game, state = _state_at_lane_decision()
    with pytest.raises(EntryError, match=problem):
        _choose(state, game, entry)


def test_card_obstacle_and_target_forms() -> None:
    game = BashGame.from_settings()
    space = game.action_space
    view = game.new_initial_state().view(0)
    view["active"] = "A1"
    pieces = json_array(view["pieces"])
    json_array(pieces[1])[1] = {"lane": 1, "s": 5, "finished": False}
    legal = [
        space.find("pass"),
        space.find("play", card="second_chance"),
        space.find("obstacle", lane="centre", square=12),
        space.find("target", team=1, piece=1),
    ]
    choices = build_choices(view, legal, game)
    assert [c.secret for c in choices] == [False, True, False, False]
    assert choices[3].text.render() == "choose B2 at Centre 5 (lap 1)"
    for entry, index in [
        ("pass", 0),
        ("play second chance", 1),
        ("Second Chance", 1),
        ("obstacle centre 12", 2),
        ("centre 12", 2),
        ("target B2", 3),
        ("b2", 3),
    ]:
        assert match_choice(entry, choices, choices) is choices[index], entry
