"""Falls, the new base, drops, and the end of the game (T10-T18, TD08-TD12)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from splash.core import Action, IllegalActionError
from splash.games.tower import TowerGame, TowerState, referee
from splash.games.tower.scenario import position


def _give_and_place(state: TowerState, piece: str) -> None:
    state.apply({"kind": "give", "piece": piece})
    state.apply({"kind": "place"})


def _ids(actions: Sequence[Action]) -> list[str]:
    return sorted(str(a.param("piece")) for a in actions)


def test_T10_the_giver_of_the_piece_that_toppled_it_gets_a_drop(game: TowerGame) -> None:
    state = position(
        game, reserves={0: "red-cube blue-cube", 1: "green-beam"}, tower="red-prism red-beam"
    )
    _give_and_place(state, "red-cube")
    state.apply(referee.fell(state, [["red-prism", "red-beam"]], ["red-cube"]))
    assert state.drops == [1, 0, 0, 0]


def test_T11_the_tallest_standing_stack_is_the_new_base(game: TowerGame) -> None:
    state = position(
        game,
        reserves={0: "red-cube blue-cube", 1: "green-beam"},
        tower="red-prism red-beam red-arch",
    )
    _give_and_place(state, "red-cube")
    state.apply(referee.fell(state, [["red-prism", "red-beam"]], ["red-arch", "red-cube"]))
    assert state.tower.ids() == ("red-prism", "red-beam")
    assert state.reserves[1] == ["green-beam", "red-arch", "red-cube"]  # T12: 2 pieces, all taken
    assert state.giver == 1 and state.phase == "give"  # T13


@pytest.mark.rule("T11", "T01")
def test_T11_equal_stacks_the_placer_chooses(game: TowerGame) -> None:
    state = position(
        game,
        reserves={0: "red-cube blue-cube", 1: "green-beam"},
        tower="red-prism red-beam yellow-prism/ yellow-beam/yellow-prism",
    )
    _give_and_place(state, "red-cube")
    state.apply(
        referee.fell(
            state, [["red-prism", "red-beam"], ["yellow-prism", "yellow-beam"]], ["red-cube"]
        )
    )
    assert state.phase == "base" and state.to_act() == 1
    assert _ids(state.legal_actions()) == ["red-prism", "yellow-prism"]
    # T01: until the new base is chosen, the whole fallen tower lies on the table.
    assert state.tower.ids() == ()
    assert sorted(p.piece for p in state.table) == sorted(
        ["red-prism", "red-beam", "yellow-prism", "yellow-beam", "red-cube"]
    )
    assert state.to_json()["stacks"] == {
        "red-prism": ["red-prism", "red-beam"],
        "yellow-prism": ["yellow-prism", "yellow-beam"],
    }
    state.apply({"kind": "base", "piece": "yellow-prism"})
    assert state.tower.ids() == ("yellow-prism", "yellow-beam")
    assert "yellow-prism" not in [p.piece for p in state.table]


def test_T11_only_single_pieces_left_every_piece_is_a_candidate(game: TowerGame) -> None:
    state = position(
        game, reserves={0: "red-cube blue-cube", 1: "green-beam"}, tower="red-prism red-beam"
    )
    _give_and_place(state, "red-cube")
    state.apply(referee.fell(state, [["red-prism"]], ["red-beam", "red-cube"]))
    assert _ids(state.legal_actions()) == ["red-beam", "red-cube", "red-prism"]
    state.apply({"kind": "base", "piece": "red-beam"})
    assert state.tower.ids() == ("red-beam",)
    assert sorted(state.reserves[1]) == ["green-beam", "red-cube", "red-prism"]


def test_T12_more_than_three_pieces_left_the_placer_keeps_three(game: TowerGame) -> None:
    state = position(
        game,
        reserves={0: "red-cube blue-cube", 1: "green-beam"},
        tower="red-prism red-beam red-arch red-cylinder orange-cylinder",
    )
    _give_and_place(state, "red-cube")
    state.apply(
        referee.fell(
            state,
            [["red-prism", "red-beam"]],
            ["red-arch", "red-cylinder", "orange-cylinder", "red-cube"],
        )
    )
    assert state.phase == "keep" and state.to_act() == 1
    for piece in ("red-arch", "red-cube", "orange-cylinder"):
        state.apply({"kind": "keep", "piece": piece})
    assert sorted(state.reserves[1]) == ["green-beam", "orange-cylinder", "red-arch", "red-cube"]
    assert "red-cylinder" in state.box
    assert (state.phase, state.giver) == ("give", 1)  # T13


def test_T13_the_placer_gives_next_under_the_usual_constraints(game: TowerGame) -> None:
    state = position(
        game,
        reserves={0: "red-cube blue-cube", 1: "green-beam purple-arch"},
        tower="red-prism red-beam",
    )
    _give_and_place(state, "red-cube")
    state.apply(referee.fell(state, [["red-prism", "red-beam"]], ["red-cube"]))
    assert state.to_act() == 1
    assert _ids(state.legal_actions()) == ["green-beam", "red-cube"]


@pytest.mark.rule("T14", "TD09")
def test_T14_placing_the_last_piece_of_the_reserve_wins(game: TowerGame) -> None:
    state = position(game, reserves={0: "red-cube", 1: "green-beam"}, tower="red-prism")
    _give_and_place(state, "red-cube")
    state.apply(referee.stood(state))
    assert state.is_terminal()
    assert state.returns() == [1.0, -1 / 3, -1 / 3, -1 / 3]


def test_TD09_the_owner_of_an_emptied_reserve_wins(game: TowerGame) -> None:
    state = position(
        game, reserves={0: "green-arch purple-cylinder", 2: "red-cube"}, tower="red-prism"
    )
    _give_and_place(state, "red-cube")
    state.apply(referee.stood(state))
    assert state.winner == 2


def test_TD09_a_last_piece_that_fell_wins_nothing_but_play_goes_on(game: TowerGame) -> None:
    state = position(
        game, reserves={0: "red-cube", 1: "green-beam", 2: "red-arch"}, tower="red-prism red-beam"
    )
    _give_and_place(state, "red-cube")
    state.apply(referee.fell(state, [["red-prism", "red-beam"]], ["red-cube"]))
    assert not state.is_terminal() and state.reserves[0] == []
    # Seat 0 gives again later with an empty reserve: it takes from another reserve (TD05).
    state.giver = 0
    assert sorted(str(a.param("piece")) for a in state.legal_actions()) == [
        "green-beam",
        "red-arch",
        "red-cube",
    ]


@pytest.mark.rule("T15", "TD10", "T01")
def test_T15_three_drops_win_at_once(game: TowerGame) -> None:
    state = position(
        game,
        reserves={0: "red-cube blue-cube", 1: "green-beam"},
        tower="red-prism red-beam",
        drops=[2, 0, 0, 0],
    )
    _give_and_place(state, "red-cube")
    state.apply(referee.fell(state, [["red-prism", "red-beam"]], ["red-cube"]))
    assert state.is_terminal() and state.winner == 0
    assert state.drops == [3, 0, 0, 0]
    # T01: no base is chosen; the fallen pieces, the gift among them, stay on the table.
    assert state.gift is None and state.tower.ids() == ()
    assert [p.piece for p in state.table] == ["red-prism", "red-beam", "red-cube"]
    assert state.to_json()["stacks"] == {"red-prism": ["red-prism", "red-beam"]}
    assert game.state_from_json(state.to_json()) == state


def test_TD10_the_drop_supply_is_checked(game: TowerGame) -> None:
    small = TowerGame.from_settings([("options.drop_supply", 2)])
    state = position(
        small,
        reserves={0: "red-cube blue-cube", 1: "green-beam"},
        tower="red-prism red-beam",
        drops=[1, 1, 0, 0],
    )
    _give_and_place(state, "red-cube")
    state.apply(referee.fell(state, [["red-prism", "red-beam"]], ["red-cube"]))
    assert state.drops == [1, 1, 0, 0]


@pytest.mark.rule("T16", "TD11")
def test_T16_teams_sit_opposite_and_win_together() -> None:
    four = TowerGame.from_settings([("options.teams", 2)])
    assert [t.seats for t in four.teams] == [(0, 2), (1, 3)]
    six = TowerGame.from_settings([("options.players", 6), ("options.teams", 3)])
    assert [t.seats for t in six.teams] == [(0, 3), (1, 4), (2, 5)]
    alternate = TowerGame.from_settings([("options.players", 6), ("options.teams", 2)])
    assert [t.seats for t in alternate.teams] == [(0, 2, 4), (1, 3, 5)]
    state = position(four, reserves={2: "red-cube", 3: "green-beam"}, tower="red-prism", giver=2)
    _give_and_place(state, "red-cube")
    state.apply(referee.stood(state))
    assert state.winner == 0
    assert state.returns() == [1.0, -1.0, 1.0, -1.0]


@pytest.mark.rule("T17", "TD12")
def test_T17_a_tower_that_falls_by_itself_goes_to_the_box(game: TowerGame) -> None:
    state = position(
        game, reserves={0: "red-cube blue-cube", 1: "green-beam"}, tower="red-prism red-beam"
    )
    _give_and_place(state, "red-cube")
    state.apply(referee.spontaneous(state))
    assert state.drops == [0, 0, 0, 0]
    assert {"red-prism", "red-beam"} <= set(state.box)
    assert state.phase == "place" and state.to_act() == 1 and state.gift == "red-cube"
    state.apply({"kind": "place"})
    state.apply(referee.stood(state))
    assert state.tower.ids() == ("red-cube",)


@pytest.mark.rule("T18", "TD12")
def test_T18_whoever_knocks_it_over_proceeds_without_a_drop(game: TowerGame) -> None:
    state = position(
        game,
        reserves={0: "red-cube blue-cube", 1: "green-beam", 3: "purple-arch"},
        tower="red-prism red-beam red-arch",
    )
    _give_and_place(state, "red-cube")
    state.apply(referee.knocked(state, 3, [["red-prism"]], ["red-beam", "red-arch"]))
    assert state.drops == [0, 0, 0, 0]
    assert sorted(state.reserves[0]) == ["blue-cube", "red-cube"]  # the gift went back
    assert state.to_act() == 3 and state.phase == "base"
    state.apply({"kind": "base", "piece": "red-prism"})
    assert sorted(state.reserves[3]) == ["purple-arch", "red-arch", "red-beam"]
    assert (state.giver, state.phase) == (3, "give")


def test_TD08_an_outcome_that_does_not_fit_the_placement_is_refused(game: TowerGame) -> None:
    state = position(
        game, reserves={0: "red-cube blue-cube", 1: "green-beam"}, tower="red-prism red-beam"
    )
    _give_and_place(state, "red-cube")
    before = state.to_json()
    wrong = [
        {"result": "fell", "tower": [], "stacks": [], "on_table": []},
        {"result": "collapsed"},
        {"result": "knocked", "knocker": 9},
        "stood",
    ]
    for outcome in wrong:
        with pytest.raises(IllegalActionError):
            state.apply({"kind": "result", "outcome": outcome})
    assert state.to_json() == before
    stood = referee.stood(state).to_json()
    outcome = stood["outcome"]
    assert isinstance(outcome, dict) and isinstance(outcome["tower"], list)
    placed = outcome["tower"][-1]
    assert isinstance(placed, dict)
    placed["support"] = "red-prism"
    with pytest.raises(IllegalActionError) as error:
        state.apply(stood)
    assert "must rest on its target red-beam" in str(error.value)


def test_TD12_no_tower_no_fall_by_itself_and_nobody_knocks_it(game: TowerGame) -> None:
    state = position(game, reserves={0: "red-cube blue-cube", 1: "green-beam"})
    _give_and_place(state, "red-cube")
    for outcome in (referee.spontaneous(state), referee.knocked(state, 2, [], [])):
        with pytest.raises(IllegalActionError) as error:
            state.apply(outcome)
        assert "no tower to fall" in str(error.value)


def test_a_copy_shares_its_game(game: TowerGame) -> None:
    state = position(game, reserves={0: "red-cube"})
    twin = state.clone()
    assert twin.tower_game is twin.game is game
    assert twin == state
