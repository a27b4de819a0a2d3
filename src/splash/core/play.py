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
    state: State,
    agents: Mapping[int, Agent] | Sequence[Agent],
    outcomes: OutcomeProvider,
    *,
    trusted: bool = False,
) -> Action:
    """Apply one action (a chance outcome or the acting seat's choice) and return it;
    ``trusted``: the agents and the provider choose among the state's own actions, so
    the action is not checked again (:meth:`State.apply_legal`)."""
    seat = state.to_act()
    action = outcomes.outcome(state) if seat == CHANCE else agents[seat].act(state)
    if trusted:
        state.apply_legal(action)
    else:
        state.apply(action)
    return action


def play(
    state: State,
    agents: Mapping[int, Agent] | Sequence[Agent],
    outcomes: OutcomeProvider,
    *,
    max_actions: int | None = None,
    on_action: Callable[[State, Action], None] | None = None,
    trusted: bool = False,
) -> State:
    """Play ``state`` on until the end (or ``max_actions`` actions); returns the state.
    ``trusted`` as for :func:`step`."""
    count = 0
    while not state.is_terminal() and (max_actions is None or count < max_actions):
        action = step(state, agents, outcomes, trusted=trusted)
        count += 1
        if on_action is not None:
            on_action(state, action)
    return state
