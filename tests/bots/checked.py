"""An agent wrapper for the tests: every action it passes on is checked to be legal."""

from __future__ import annotations

from splash.core.actions import Action
from splash.core.play import Agent
from splash.core.protocol import State


class Checked:
    """Wraps an agent, checks that each of its actions is among the legal ones and counts
    them."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.actions = 0

    def act(self, state: State) -> Action:
        """The wrapped agent's action, once checked."""
        action = self.agent.act(state)
        assert action in state.legal_actions()
        self.actions += 1
        return action
