"""Giving and placing (T04-T09, TD04-TD06)."""

from __future__ import annotations

import pytest

from splash.core import IllegalActionError
from splash.games.tower import TowerGame, TowerState, referee
from splash.games.tower.rules import legal_gifts, target_of
from splash.games.tower.scenario import position


def _gifts(state: TowerState) -> list[str]:
    return sorted(legal_gifts(state))


def _target(state: TowerState, piece: str) -> str:
    target = target_of(state, piece)
    return target.piece if target is not None else "table"


def test_T04_the_first_gift_becomes_the_base_and_the_placer_gives_next(game: TowerGame) -> None:
    state = position(game, reserves={0: "red-cube green-cube", 1: "blue-beam yellow-arch"})
    state.apply({"kind": "give", "piece": "red-cube"})
    assert state.to_act() == 1  # the left neighbour places
    state.apply({"kind": "place"})
    assert target_of(state, "red-cube") is None  # on the table
    state.apply(referee.stood(state))
    assert state.tower.ids() == ("red-cube",)
    assert state.giver == 1 and state.to_act() == 1


@pytest.mark.rule("T05", "TD04")
def test_T05_highest_matching_uncovered_piece(game: TowerGame) -> None:
    state = position(
        game,
        reserves={0: "blue-cube"},
        tower="red-cube green-beam blue-prism",
        covered="red-cube green-beam",
    )
    assert _target(state, "blue-cube") == "blue-prism"
    branch = position(
        game,
        reserves={0: "red-arch"},
        tower="red-cube green-beam blue-prism/green-beam",
        covered="red-cube",
    )
    # green-beam is uncovered (a branch); red-arch matches only red-cube, which is covered,
    # so it goes on the highest piece it can rest on.
    assert _target(branch, "red-arch") == "blue-prism"


def test_T05_top_placement_must_match_the_top_piece(top_game: TowerGame) -> None:
    state = position(
        top_game,
        reserves={0: "red-arch blue-cube", 1: "green-prism"},
        tower="green-cube blue-beam",
        covered="green-cube",
    )
    assert _gifts(state) == ["blue-cube"]
    assert _target(state, "blue-cube") == "blue-beam"


def test_TD04_heights_within_two_millimetres_count_equal_the_later_is_higher(
    game: TowerGame,
) -> None:
    state = position(
        game,
        reserves={0: "red-arch"},
        tower="red-cube/ green-beam/red-cube red-prism/red-cube",
        heights={"red-cube": 25.0, "green-beam": 41.5, "red-prism": 40.0},
    )
    assert _target(state, "red-arch") == "red-prism"
    lower = position(
        game,
        reserves={0: "red-arch"},
        tower="red-cube/ red-beam/red-cube red-prism/red-cube",
        heights={"red-cube": 25.0, "red-beam": 43.0, "red-prism": 40.0},
    )
    assert _target(lower, "red-arch") == "red-beam"


def test_T07_the_giver_must_give_a_placeable_piece(game: TowerGame) -> None:
    state = position(
        game,
        reserves={0: "red-cube green-arch purple-cylinder", 1: "blue-beam"},
        tower="yellow-cube",
    )
    assert _gifts(state) == ["red-cube"]
    with pytest.raises(IllegalActionError) as error:
        state.apply({"kind": "give", "piece": "green-arch"})
    assert "give green-arch" in str(error.value)
    assert state.reserves[0] == ["red-cube", "green-arch", "purple-cylinder"]


@pytest.mark.rule("T08", "TD05")
def test_T08_take_a_legal_piece_from_another_reserve(game: TowerGame) -> None:
    state = position(
        game,
        reserves={0: "green-arch", 1: "yellow-beam", 2: "red-prism", 3: "purple-cube"},
        tower="yellow-cube",
    )
    assert _gifts(state) == ["purple-cube", "yellow-beam"]  # the receiver's reserve counts too
    state.apply({"kind": "give", "piece": "yellow-beam"})
    assert state.gift_from == 1 and state.reserves[1] == []


def test_T08_when_nobody_holds_a_legal_piece_any_own_piece(game: TowerGame) -> None:
    state = position(
        game,
        reserves={0: "green-arch red-prism", 1: "blue-beam"},
        tower="yellow-cube",
        covered="yellow-cube",
    )
    assert _gifts(state) == ["green-arch", "red-prism"]


def test_TD05_an_empty_reserve_takes_any_piece_of_another(game: TowerGame) -> None:
    state = position(
        game, reserves={1: "blue-beam", 2: "red-arch"}, tower="yellow-cube", covered="yellow-cube"
    )
    assert _gifts(state) == ["blue-beam", "red-arch"]


def test_TD06_the_first_piece_may_be_any_piece(game: TowerGame) -> None:
    state = position(game, reserves={0: "green-arch red-prism blue-cube"})
    assert _gifts(state) == ["blue-cube", "green-arch", "red-prism"]


def test_T09_a_tower_that_stands_passes_the_turn_on(game: TowerGame) -> None:
    state = position(game, reserves={0: "red-cube blue-cube", 1: "red-beam"}, tower="red-prism")
    state.apply({"kind": "give", "piece": "red-cube"})
    state.apply({"kind": "place"})
    state.apply(referee.stood(state))
    assert state.tower.ids() == ("red-prism", "red-cube")
    assert not state.tower.get("red-prism").uncovered
    assert state.giver == 1 and state.phase == "give"


def test_TD13_a_placement_names_a_face_of_its_piece(game: TowerGame) -> None:
    state = position(game, reserves={0: "red-cube"}, tower="red-prism")
    state.apply({"kind": "give", "piece": "red-cube"})
    before = state.to_json()
    for bad in (
        {"kind": "place", "face": "side", "rotation_deg": 0, "x_mm": 0, "y_mm": 0},
        {"kind": "place", "face": "bottom", "rotation_deg": 400, "x_mm": 0, "y_mm": 0},
        {"kind": "place", "face": "bottom", "rotation_deg": 0, "x_mm": 90, "y_mm": 0},
        {"kind": "place", "face": "bottom"},
    ):
        with pytest.raises(IllegalActionError):
            state.apply(bad)
    assert state.to_json() == before
    state.apply(
        {"kind": "place", "face": "bottom", "rotation_deg": 15.0, "x_mm": 1.5, "y_mm": -2.0}
    )
    assert state.placement == {"face": "bottom", "rotation_deg": 15.0, "x_mm": 1.5, "y_mm": -2.0}
