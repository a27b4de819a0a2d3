"""The outcome providers the physics offers, chosen by its settings: :func:`placement_outcomes`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from splash.physics.provider import PhysicsOutcomes
from splash.physics.settings import physics_settings
from splash.physics.static_outcomes import StaticOutcomes

Assignments = Iterable[tuple[str, Any]]
Seed = int | np.random.SeedSequence


def placement_outcomes(assignments: Assignments, seed: Seed) -> PhysicsOutcomes:
    """The placement outcome provider the ``physics.*`` settings among ``assignments``
    name (:func:`~splash.physics.settings.physics_settings`), seeded with ``seed``:
    :class:`~splash.physics.provider.PhysicsOutcomes` for ``physics.ruling=simulation``,
    :class:`~splash.physics.static_outcomes.StaticOutcomes` for ``statics``."""
    settings = physics_settings(assignments)
    if settings.ruling == "statics":
        return StaticOutcomes(seed)
    return PhysicsOutcomes(seed)
