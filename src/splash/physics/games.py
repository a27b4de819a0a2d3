"""The physics layer's table of games: :data:`PHYSICAL_GAMES`, keyed by game id.

The registry of games (:data:`splash.games.GAMES`) builds rules engines only.  Here each
game says how it is played when the physics judges what it can: the game it plays (Splash!:
placements checked against T06 and targets that fit, TD04) and, for each kind of chance
event the physics rules, the outcome provider that rules it (Splash!: ``placement``, with
the provider ``physics.ruling`` names).  A game the physics has nothing to do with plays its
rules engine as it is and rules no chance event.  A game may also answer extra requests of
its page that need the physics (Splash!: ``placements``, the placement map of
:mod:`splash.physics.map_request`, and ``odds``, the chance that a pose stands, of
:mod:`splash.physics.odds`), in play rooms only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np

from splash.core.outcomes import OutcomeProvider
from splash.core.protocol import Game
from splash.games import GAMES
from splash.games.registry import Request
from splash.physics import map_request, odds
from splash.physics.provider import PhysicsOutcomes, physics_game
from splash.physics.settings import physics_settings
from splash.physics.static_outcomes import StaticOutcomes

Assignments = Iterable[tuple[str, Any]]
Seed = int | np.random.SeedSequence
ProviderFactory = Callable[[Assignments, Seed], OutcomeProvider]
"""An outcome provider from the ``--set`` assignments (``physics.*`` included) and a seed."""


def placement_outcomes(assignments: Assignments, seed: Seed) -> PhysicsOutcomes:
    """The placement outcome provider the ``physics.*`` settings among ``assignments``
    name (:func:`~splash.physics.settings.physics_settings`), seeded with ``seed``:
    :class:`~splash.physics.provider.PhysicsOutcomes` for ``physics.ruling=simulation``,
    :class:`~splash.physics.static_outcomes.StaticOutcomes` for ``statics``."""
    settings = physics_settings(assignments)
    if settings.ruling == "statics":
        return StaticOutcomes(seed)
    return PhysicsOutcomes(seed)


@dataclass(frozen=True)
class PhysicalGame:
    """One game as the physics plays it."""

    build: Callable[[Assignments], Game]
    """The game with these ``--set`` assignments, judged by the physics where it judges."""
    outcomes: Mapping[str, ProviderFactory]
    """The provider of each kind of chance event the physics rules (none: it rules none)."""
    requests: Mapping[str, Request] = field(default_factory=lambda: MappingProxyType({}))
    """The extra requests of a page the physics answers, by kind, in play rooms."""


PHYSICAL_GAMES: Mapping[str, PhysicalGame] = {
    "bash": PhysicalGame(build=GAMES["bash"].from_settings, outcomes={}),
    "tower": PhysicalGame(
        build=physics_game,
        outcomes={"placement": placement_outcomes},
        requests=MappingProxyType({map_request.KIND: map_request.placements, odds.KIND: odds.odds}),
    ),
}
"""Every game of :data:`splash.games.GAMES`, as the physics plays it."""
