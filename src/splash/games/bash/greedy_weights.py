"""The weights of the Splash & Bash greedy heuristic and their defaults.

The heuristic is described in :mod:`splash.bots.bash_greedy`; the compiled core plays it
too (:mod:`splash.fast.greedy`, which lays the weights out in this order for the kernel).
Both read the defaults here, so the reference bot and the compiled one agree by
construction.  A bot spec overrides any of them by name (``greedy:rival=1.5``).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

GREEDY_WEIGHTS: Mapping[str, float] = MappingProxyType(
    {
        "rival": 1.0,
        "tide": 0.1,
        "threat": 0.15,
        "obstacle": 1.0,
        "slip": 1.0,
        "exact": 3.0,
        "hold_lifebuoy": 1.5,
        "hold_card": 0.4,
    }
)
"""The heuristic's weights (in team turns, or factors of them) and their defaults, by name,
in the order of the compiled core's weight array."""

__all__ = ["GREEDY_WEIGHTS"]
