"""Playing OpenSpiel bots and the project's own bots against each other.

:class:`AgentBot` lets a splash agent (``splash.bots.make_bot(...)``) take a seat in an
OpenSpiel game; :func:`play_game` plays one game to the end with OpenSpiel-style bots
(anything with ``step(state) -> action``), the chance outcomes drawn from a seeded generator.
OpenSpiel's own ``evaluate_bots`` needs ``restart_at``, which its ISMCTS bot lacks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np
import pyspiel

from splash.core.play import Agent
from splash.envs.openspiel.state import SpielState


class StepBot(Protocol):
    """What :func:`play_game` asks of a bot."""

    def step(self, state: Any) -> int:
        """The action to take in ``state``."""
        ...


class AgentBot(pyspiel.Bot):  # type: ignore[misc]
    """A splash agent as an OpenSpiel bot: it decides on the wrapped splash state."""

    def __init__(self, agent: Agent) -> None:
        pyspiel.Bot.__init__(self)
        self.agent = agent

    def step(self, state: SpielState) -> int:
        """The OpenSpiel action of the agent's choice."""
        return state.spiel_action_of(self.agent.act(state.inner))

    def restart_at(self, state: SpielState) -> None:
        """Nothing to forget: the agent decides from the state alone."""

    def inform_action(self, state: SpielState, player_id: int, action: int) -> None:
        """Nothing to learn from other seats' actions."""


def play_game(
    state: SpielState, bots: Sequence[StepBot], seed: int | np.random.SeedSequence
) -> list[float]:
    """Play ``state`` to the end, seat ``i`` by ``bots[i]``; returns the returns."""
    rng = np.random.default_rng(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            weights = np.array([p for _, p in outcomes], dtype=float)
            pick = int(rng.choice(len(outcomes), p=weights / weights.sum()))
            state.apply_action(outcomes[pick][0])
        else:
            state.apply_action(int(bots[state.current_player()].step(state)))
    return [float(r) for r in state.returns()]
