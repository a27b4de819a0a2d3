"""Components and set-up (T01-T03, TD01-TD03)."""

from __future__ import annotations

from collections import Counter

import pytest

from splash.core import CHANCE, OptionError, RandomOutcomes
from splash.games.tower import TowerGame


def test_T01_thirty_pieces_one_of_each_shape_and_colour(game: TowerGame) -> None:
    pieces = game.catalogue.pieces
    assert len(pieces) == 30
    assert Counter(p.shape for p in pieces) == dict.fromkeys(
        ("cube", "beam", "prism", "arch", "cylinder"), 6
    )
    assert len({(p.shape, p.colour) for p in pieces}) == 30
    assert game.options.drop_supply == 14


def test_T02_two_to_six_players_left_is_the_next_seat() -> None:
    for players in range(2, 7):
        game = TowerGame.from_settings([("options.players", players)])
        state = game.new_initial_state()
        state.giver = players - 1
        assert state.placer == 0
    with pytest.raises(OptionError):
        TowerGame.from_settings([("options.players", 7)])


@pytest.mark.rule("T03", "TD02", "TD03")
@pytest.mark.parametrize(("players", "boxed"), [(2, 0), (3, 0), (4, 2), (5, 0), (6, 0)])
def test_T03_the_draft_shares_equally_the_rest_to_the_box(players: int, boxed: int) -> None:
    game = TowerGame.from_settings([("options.players", players), ("options.first_player", 1)])
    state = game.new_initial_state()
    seats = []
    while state.phase == "draft":
        seats.append(state.to_act())
        state.apply(state.legal_actions()[-1])
    assert seats[:players] == [(1 + i) % players for i in range(players)]
    assert {len(r) for r in state.reserves} == {30 // players}
    assert len(state.box) == boxed
    assert state.phase == "give" and state.to_act() == 1  # the first player gives first


def test_TD02_a_random_deal_is_chance() -> None:
    game = TowerGame.from_settings([("options.deal", "random"), ("options.players", 4)])
    state = game.new_initial_state()
    assert state.to_act() == CHANCE
    assert len(state.chance_outcomes()) == 30
    provider = RandomOutcomes(3)
    while state.is_chance():
        state.apply(provider.outcome(state))
    assert [len(r) for r in state.reserves] == [7, 7, 7, 7]
    assert len(state.box) == 2


def test_TD03_reserves_are_open_to_everyone(game: TowerGame) -> None:
    state = game.new_initial_state()
    state.apply(state.legal_actions()[0])
    view = state.view(3)
    assert view["reserves"] == state.to_json()["reserves"]


@pytest.mark.rule("TD01")
def test_TD01_catalogue_values_are_set_like_options() -> None:
    from splash.core import DataFileError

    game = TowerGame.from_settings([("catalogue.density", 700.0), ("options.players", 3)])
    assert game.catalogue.shapes["cube"].density == 700.0
    again = TowerGame.from_config(game.config())
    assert again.catalogue.shapes["cube"].density == 700.0
    with pytest.raises(DataFileError) as error:
        TowerGame.from_settings([("catalogue.shapes.cube.parts", [])])
    assert (error.value.entry, error.value.file) == ("cube", "pieces.toml (with --set)")
