"""The physics layer's own settings (``physics.*``), given like the game's (``--set
KEY=VALUE``) and kept out of the rules engine: ``physics.ruling`` is ``simulation`` (the
default: MuJoCo) or ``statics`` (:mod:`splash.physics.static_outcomes`, no dynamics).
:func:`physics_settings` reads and checks them, :func:`game_assignments` leaves them out."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from splash.core.errors import OptionError
from splash.core.i18n import message

PHYSICS_PREFIX = "physics."
"""The settings whose keys start with this belong to the physics layer, not to the game."""
RULINGS: tuple[str, ...] = ("simulation", "statics")
"""The values of ``physics.ruling``: the MuJoCo simulation, or the static check."""


@dataclass(frozen=True)
class PhysicsSettings:
    """The physics layer's settings (``physics.*``)."""

    ruling: str = "simulation"
    """How placements are ruled: one of :data:`RULINGS`."""


def physics_settings(assignments: Iterable[tuple[str, Any]]) -> PhysicsSettings:
    """The ``physics.*`` assignments among ``assignments`` (others are ignored), checked:
    an unknown key or a bad value is an :class:`OptionError` naming the key and the value."""
    ruling = PhysicsSettings.ruling
    for key, value in assignments:
        if not key.startswith(PHYSICS_PREFIX):
            continue
        if key != f"{PHYSICS_PREFIX}ruling":
            raise OptionError(
                key,
                value,
                message(
                    "unknown key {part!r} (known here: {known})",
                    part=key[len(PHYSICS_PREFIX) :],
                    known="ruling",
                ),
            )
        if not isinstance(value, str) or value not in RULINGS:
            raise OptionError(
                key, value, message("must be one of {choices}", choices=", ".join(RULINGS))
            )
        ruling = value
    return PhysicsSettings(ruling=ruling)


def game_assignments(assignments: Iterable[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """The assignments that are the game's: every one but the ``physics.*`` settings."""
    return [(key, value) for key, value in assignments if not key.startswith(PHYSICS_PREFIX)]
