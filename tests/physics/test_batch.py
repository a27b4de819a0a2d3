"""Rulings in batches (:mod:`splash.physics.batch`): the same outcomes as one after another."""

from __future__ import annotations

import numpy as np
import pytest

from splash.bots.tower_random import RandomTowerBot
from splash.core.outcomes import RandomOutcomes, RoutedOutcomes
from splash.core.play import play
from splash.games.tower import TowerState
from splash.games.tower.catalogue import load_catalogue
from splash.physics.batch import ModelPool
from splash.physics.model import TowerModel
from splash.physics.outcome import RulingOutcome
from splash.physics.placement import Placement, Tremor
from splash.physics.poses import TABLE, PieceRest
from splash.physics.provider import PhysicsOutcomes, physics_game, placement_outcomes_at_once
from splash.physics.ruling import rule
from tests.physics.builders import shared_model

JOBS = [
    Tremor(dx=dx / 1000, dy=0.0, rotation_deg=turn, lift=lift / 1000)
    for dx, turn, lift in [(0.0, 0.0, 0.0), (3.0, 5.0, 0.5), (-14.0, 0.0, 1.0), (18.0, 20.0, 0.0)]
]
"""Tremors of a beam on a cube: from centred to far over its edge."""


def _tower() -> list[PieceRest]:
    model = shared_model()
    cube = rule(model, [], Placement("red-cube", "bottom", 0.0, (0.0, 0.0), TABLE))
    return list(cube.tower())


@pytest.mark.rule("TD14", "TD15")
def test_TD15_a_pool_of_threads_rules_as_one_model_does() -> None:
    tower = _tower()
    placement = Placement("red-beam", "flat", 0.0, (0.0, 0.0), "red-cube")
    alone = [rule(shared_model(), tower, placement, tremor) for tremor in JOBS]
    assert {outcome.result for outcome in alone} == {"stood", "fell"}

    def work(model: TowerModel, tremor: Tremor) -> RulingOutcome:
        return rule(model, tower, placement, tremor)

    pool = ModelPool(load_catalogue(), threads=3)
    assert pool.map(work, JOBS) == alone
    assert pool.map(work, JOBS[::-1]) == alone[::-1]
    assert 1 <= pool.models <= 3


def test_a_pool_raises_the_first_error_in_order() -> None:
    def work(model: TowerModel, item: int) -> int:
        if item % 2:
            raise ValueError(item)
        return item

    with pytest.raises(ValueError, match="1"):
        ModelPool(load_catalogue(), threads=2).map(work, [0, 1, 2, 3])


def _at_placement(seed: int) -> TowerState:
    """A random 2-player game with the physics, stopped at its second placement's outcome."""
    game = physics_game([("options.players", 2)])
    children = np.random.SeedSequence(seed).spawn(4)
    outcomes = RoutedOutcomes(
        {"placement": PhysicsOutcomes(children[0])}, RandomOutcomes(children[1])
    )
    bots = [RandomTowerBot(children[2 + seat]) for seat in range(2)]
    state = game.new_initial_state()
    placements = 0
    while True:
        event = state.chance_event()
        if event is not None and event.kind == "placement":
            placements += 1
            if placements == 2:
                assert isinstance(state, TowerState)
                return state
        play(state, bots, outcomes, max_actions=1)


@pytest.mark.rule("TD14", "TD15")
def test_TD14_a_batch_of_tremor_samples_gives_each_provider_its_own_outcome() -> None:
    state = _at_placement(3)
    one_by_one = [PhysicsOutcomes(seed).outcome(state) for seed in range(4)]
    batch = placement_outcomes_at_once(
        state, [PhysicsOutcomes(seed) for seed in range(4)], ModelPool(load_catalogue(), 4)
    )
    assert batch == one_by_one
    tremors = {str(a.param("outcome")["details"]["tremor"]) for a in batch}
    assert len(tremors) == 4
