"""The summary of a Splash! game (``splash.games.tower.summary``): a scripted game of two
players whose counts are read off its placements."""

from __future__ import annotations

from splash.core.standings import places
from splash.games.tower import TowerGame, TowerState, referee
from splash.games.tower.summary import tower_summary


def _turn(state: TowerState, piece: str) -> None:
    state.apply({"kind": "give", "piece": piece})
    state.apply({"kind": "place"})


def test_a_scripted_game_counts_drops_falls_and_pieces_placed() -> None:
    game = TowerGame.from_settings(
        [("options.players", 2), ("options.deal", "random"), ("options.drops_to_win", 2)]
    )
    state = game.new_initial_state()
    for piece in game.catalogue.piece_ids:  # dealt in turn: seat 0 gets the red cube first
        state.apply({"kind": "deal", "piece": piece})
    _turn(state, "red-cube")  # 1: seat 1 places, it stands
    state.apply(referee.stood(state))
    _turn(state, "orange-cube")  # 2: seat 0 places, it stands
    state.apply(referee.stood(state))
    _turn(state, "yellow-cube")  # 3: seat 1 places, the tower falls: seat 0's first drop
    state.apply(referee.fell(state, [["red-cube"]], ["orange-cube", "yellow-cube"]))
    state.apply({"kind": "base", "piece": "red-cube"})  # seat 1 takes the rest back
    _turn(state, "green-cube")  # 4: the tower falls by itself before seat 0 places (nobody)
    state.apply(referee.spontaneous(state))
    state.apply({"kind": "place"})  # seat 0 places the green cube again: it stands
    state.apply(referee.stood(state))
    _turn(state, "blue-cube")  # 5: seat 0 knocks the tower over while seat 1 places
    state.apply(referee.knocked(state, 0, [], ["green-cube"]))
    _turn(state, "blue-cube")  # 6: seat 1 places, the tower falls: seat 0's second drop wins
    state.apply(referee.fell(state, [], ["green-cube", "blue-cube"]))
    assert state.winner == 0 and state.drops == [2, 0]
    assert tower_summary(game, state.history) == {
        "placements": 7,
        "players": [
            {"seat": 0, "place": 1, "drops": 2, "falls_caused": 1, "pieces_placed": 2},
            {"seat": 1, "place": 2, "drops": 0, "falls_caused": 2, "pieces_placed": 1},
        ],
        "placement_aid": "region",
    }


def test_equal_standings_share_a_place() -> None:
    assert places([(1.0, 0.0), (0.0, 2.0), (0.0, 2.0), (0.0, 1.0)]) == [1, 2, 2, 4]
    assert places([(0.0,), (0.0,)]) == [1, 1]
