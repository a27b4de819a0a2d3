"""Splash! positions for the tests, built from a fixed draft of a 2-player game."""

from __future__ import annotations

from splash.games.tower import TowerGame, TowerState
from splash.physics.provider import PhysicsOutcomes, physics_game

SEAT0 = ("red-beam", "orange-beam", "blue-cube", "green-cylinder")
"""The first pieces seat 0 takes in :func:`drafted`."""
SEAT1 = ("red-cube", "red-prism", "yellow-arch", "purple-cube")
"""The first pieces seat 1 takes in :func:`drafted`."""


def drafted(game: TowerGame) -> TowerState:
    """A 2-player game after a draft that gives seat 0 :data:`SEAT0` and seat 1 :data:`SEAT1`."""
    state = game.new_initial_state()
    rest = [p for p in game.catalogue.piece_ids if p not in SEAT0 + SEAT1]
    half = len(rest) // 2
    for mine, theirs in zip([*SEAT0, *rest[:half]], [*SEAT1, *rest[half:]], strict=True):
        state.apply({"kind": "take", "piece": mine})
        state.apply({"kind": "take", "piece": theirs})
    return state


def branched() -> TowerState:
    """A 2-player game with the physics: red-cube rests on one end of red-beam, and seat 1 is
    to place orange-beam, whose target is red-beam (it matches red-beam's shape, not
    red-cube)."""
    state = drafted(physics_game([("options.players", 2)]))
    physics = PhysicsOutcomes(0)
    state.apply({"kind": "give", "piece": "red-beam"})
    state.apply({"kind": "place"})
    state.apply(physics.outcome(state))
    state.apply({"kind": "give", "piece": "red-cube"})
    state.apply({"kind": "place", "face": "bottom", "rotation_deg": 0.0, "x_mm": 12.5, "y_mm": 0.0})
    state.apply(physics.outcome(state))
    state.apply({"kind": "give", "piece": "orange-beam"})
    assert state.tower.ids() == ("red-beam", "red-cube")
    return state
