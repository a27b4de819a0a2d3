"""T01 with the physics: each of the 30 pieces exactly once in every document after every
action of seeded games whose placements the physics rules (the static ruling, and the
simulation's quick ruling), placed by random bots."""

from __future__ import annotations

import numpy as np
import pytest

from splash.bots.tower_random import RandomTowerBot
from splash.core import Action, RandomOutcomes
from splash.core.outcomes import OutcomeProvider, RoutedOutcomes
from splash.games.tower import TowerGame, TowerState
from splash.physics.provider import PhysicsOutcomes, physics_game
from splash.physics.static_outcomes import StaticOutcomes
from tests.games.tower.playouts import check_saved, check_views, play_checked

COMBINATIONS = [
    pytest.param(players, deal, id=f"{players}-{deal}")
    for players in range(2, 7)
    for deal in ("draft", "random")
]


def _play(players: int, deal: str, index: int, ruling: str) -> TowerState:
    """One game, every view checked after every action, the state document and the saved
    game at its end."""
    game: TowerGame = physics_game([("options.players", players), ("options.deal", deal)])
    seed = players * 1000 + (deal == "random") * 100 + index
    children = np.random.SeedSequence(seed).spawn(2 + players)
    placements: OutcomeProvider = (
        StaticOutcomes(children[0]) if ruling == "statics" else PhysicsOutcomes(children[0])
    )
    outcomes = RoutedOutcomes({"placement": placements}, RandomOutcomes(children[1]))
    bots = [RandomTowerBot(children[2 + seat]) for seat in range(players)]

    def decide(state: TowerState, rng: np.random.Generator) -> Action:
        return bots[state.to_act()].act(state)

    state = play_checked(game, seed, outcomes, check_views, decide)
    check_saved(state, np.random.default_rng(seed), f"{ruling} seed {seed}")
    return state


@pytest.mark.rule("T01")
@pytest.mark.parametrize(("players", "deal"), COMBINATIONS)
def test_T01_every_piece_once_with_the_static_ruling(players: int, deal: str) -> None:
    for index in range(2):
        assert _play(players, deal, index, "statics").is_terminal()


@pytest.mark.rule("T01")
@pytest.mark.parametrize(("players", "deal"), [(2, "draft"), (4, "random")])
def test_T01_every_piece_once_with_the_simulation(players: int, deal: str) -> None:
    assert _play(players, deal, 0, "simulation").is_terminal()


@pytest.mark.slow
@pytest.mark.deep
@pytest.mark.rule("T01")
@pytest.mark.parametrize(("players", "deal"), COMBINATIONS)
def test_T01_every_piece_once_in_many_physics_games(players: int, deal: str) -> None:
    for index in range(50):
        ruling = "simulation" if index % 25 == 24 else "statics"
        assert _play(players, deal, 100 + index, ruling).is_terminal()
