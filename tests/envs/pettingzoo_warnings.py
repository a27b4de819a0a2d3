"""Warnings of PettingZoo's tests that do not apply to these environments, filtered narrowly:
observations are dicts with an action mask (PettingZoo's own convention for masked games),
and Splash & Bash's agents are named after the teams' letters (``team_A``)."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager

EXPECTED = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
    "We recommend agents to be named in the format <descriptor>_<number>",
)


@contextmanager
def expected_warnings() -> Iterator[None]:
    """Silence exactly the warnings of :data:`EXPECTED`; every other one is an error."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for text in EXPECTED:
            warnings.filterwarnings("ignore", message=text, category=UserWarning)
        yield
