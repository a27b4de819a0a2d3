"""Driving a game: agents choose for seats, an outcome provider for chance."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from splash.core.actions import Action
from splash.core.outcomes import OutcomeProvider
from splash.core.protocol import CHANCE, State


class Agent(Protocol):
    """Anything that chooses an action for the seat to act."""

    def act(self, state: State) -> Action:
        """The action to take in ``state`` for ``state.to_act()``."""
        ...


def step(
    state: State, agents: Mapping[int, Agent] | Sequence[Agent], outcomes: OutcomeProvider
) -> Action:
    """Apply one action (a chance outcome or the acting seat's choice) and return it."""
    seat = state.to_act()
    action = outcomes.outcome(state) if seat == CHANCE else agents[seat].act(state)
    state.apply(action)
    return action


def play(
    state: State,
    agents: Mapping[int, Agent] | Sequence[Agent],
    outcomes: OutcomeProvider,
    *,
    max_actions: int | None = None,
    on_action: Callable[[State, Action], None] | None = None,
) -> State:
    """Play ``state`` on until the end (or ``max_actions`` actions); returns the state."""
    count = 0
    while not state.is_terminal() and (max_actions is None or count < max_actions):
        action = step(state, agents, outcomes)
        count += 1
        if on_action is not None:
            on_action(state, action)
    return state
