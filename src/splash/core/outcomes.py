"""Outcome providers: where the outcomes of chance events come from.

A seeded generator for digital play and simulation, a scripted list for tests, a person for
referee mode.  The seed lives here, never in a state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import Any, Protocol

import numpy as np

from splash.core.actions import Action
from splash.core.errors import OutcomeError
from splash.core.i18n import Message, message
from splash.core.protocol import ChanceEvent, State


class OutcomeProvider(Protocol):
    """Supplies the outcome of the chance event ``state`` waits for."""

    def outcome(self, state: State) -> Action:
        """The outcome to apply to ``state`` (a state at a chance node)."""
        ...


def _require_chance(state: State) -> ChanceEvent:
    event = state.chance_event()
    if event is None:
        raise OutcomeError(message("no chance event is pending in {state}", state=state.describe()))
    return event


def sample_weighted(outcomes: list[tuple[Action, int]], u: float) -> Action:
    """The outcome that ``u`` in [0, 1) selects among integer-weighted ``outcomes``: the
    first whose cumulative weight exceeds ``u`` times the total, compared exactly (the same
    choice as :func:`sample` over the probabilities the weights stand for)."""
    if not outcomes:
        raise OutcomeError(message("the chance event has no possible outcome"))
    total = sum(w for _, w in outcomes)
    numerator, denominator = u.as_integer_ratio()
    threshold = numerator * total
    running = 0
    for action, weight in outcomes:
        running += weight
        if threshold < running * denominator:
            return action
    return outcomes[-1][0]


def sample(outcomes: list[tuple[Action, Fraction]], u: float) -> Action:
    """The outcome that ``u`` in [0, 1) selects, walking the cumulative probabilities."""
    if not outcomes:
        raise OutcomeError(message("the chance event has no possible outcome"))
    total = sum((p for _, p in outcomes), Fraction(0))
    threshold = Fraction(u) * total
    running = Fraction(0)
    for action, probability in outcomes:
        running += probability
        if threshold < running:
            return action
    return outcomes[-1][0]


def _check_possible(
    state: State, action: Action, refusal: Callable[[Message | None], Message]
) -> None:
    """Raise :class:`OutcomeError` with ``refusal(reason)`` unless ``action`` is a possible
    outcome: one of those listed, or, for an event whose outcomes are continuous and not
    listed (a Splash! placement's result), one the state's legality check accepts
    (``reason``: why it refuses; ``None`` for an outcome missing from the list)."""
    possible = state.legal_actions()
    if possible:
        if action not in possible:
            raise OutcomeError(refusal(None))
        return
    reason = state.why_illegal(action)
    if reason is not None:
        raise OutcomeError(refusal(reason))


class RandomOutcomes:
    """Outcomes drawn with their exact probabilities from a seeded generator."""

    def __init__(self, seed: int | np.random.SeedSequence) -> None:
        self.seed = seed
        self._rng = np.random.default_rng(seed)

    @property
    def rng(self) -> np.random.Generator:
        """The generator (for providers built on this one)."""
        return self._rng

    def outcome(self, state: State) -> Action:
        """A sample from ``state.chance_outcomes()``."""
        _require_chance(state)
        return sample_weighted(state.chance_weights(), float(self._rng.random()))


class IndexedOutcomes:
    """Outcomes drawn with their exact probabilities from (a seed, the index): the index is
    the length of the state's line of play, so that a position reached again after a
    takeback draws the same outcome again (a takeback cannot re-roll), and the outcome of
    each index is the same whatever was drawn before it."""

    def __init__(self, seed: int, stream: int = 0) -> None:
        if seed < 0 or stream < 0:
            raise OutcomeError(
                message("a seed is a whole number, 0 or more, not {seed}", seed=min(seed, stream))
            )
        self.seed = seed
        self.stream = stream

    def outcome(self, state: State) -> Action:
        """A sample from ``state.chance_outcomes()``, the same for the same seed and index."""
        _require_chance(state)
        sequence = np.random.SeedSequence([self.seed, len(state.history), self.stream])
        u = float(np.random.default_rng(sequence).random())
        return sample_weighted(state.chance_weights(), u)


class ScriptedOutcomes:
    """Outcomes taken in order from a list (ids, JSON forms or actions); for tests.

    An outcome is checked against the possible ones, or, for an event whose outcomes are
    continuous (a Splash! placement's result: ``legal_actions()`` lists none), by the state's
    own legality check (:meth:`State.why_illegal`)."""

    def __init__(self, script: Iterable[Action | int | Mapping[str, Any]]) -> None:
        self._script = list(script)
        self._next = 0

    @property
    def remaining(self) -> int:
        """How many scripted outcomes are left."""
        return len(self._script) - self._next

    def outcome(self, state: State) -> Action:
        """The next scripted outcome, checked against the possible ones."""
        event = _require_chance(state)
        if self._next >= len(self._script):
            raise OutcomeError(
                message(
                    "the script has no outcome left for {event} in {state}",
                    event=event.kind,
                    state=state.describe(),
                )
            )
        item = self._script[self._next]
        action = item if isinstance(item, Action) else state.game.parse_action(item)
        where = {"outcome": str(action), "event": event.kind, "state": state.describe()}
        _check_possible(
            state,
            action,
            lambda reason: (
                message(
                    "scripted outcome {outcome} is not possible for {event} in {state}", **where
                )
                if reason is None
                else message(
                    "scripted outcome {outcome} is not possible for {event} in {state}: {reason}",
                    reason=reason,
                    **where,
                )
            ),
        )
        self._next += 1
        return action


RefereePrompt = Callable[[State, ChanceEvent, list[Action]], Action]


class RefereeOutcomes:
    """Outcomes that a person reports (the roll of a real die, the card drawn from a real deck).

    ``ask`` receives the state, the event and the possible outcomes, and returns the one the
    person reported (checked as :class:`ScriptedOutcomes` checks its own: against the
    possible outcomes, or by the state's legality check for a continuous one, whose possible
    outcomes are not listed); event kinds in ``delegate`` are taken from another provider
    instead (say, card draws from a seeded generator when no printed cards are used).
    """

    def __init__(
        self, ask: RefereePrompt, delegate: Mapping[str, OutcomeProvider] | None = None
    ) -> None:
        self._ask = ask
        self._delegate = dict(delegate or {})

    def outcome(self, state: State) -> Action:
        """The outcome reported by the person (or by the delegate for its kinds)."""
        event = _require_chance(state)
        if event.kind in self._delegate:
            return self._delegate[event.kind].outcome(state)
        possible = state.legal_actions()
        action = self._ask(state, event, possible)
        what = {"outcome": str(action), "event": event.kind}
        _check_possible(
            state,
            action,
            lambda reason: (
                message("{outcome} is not a possible outcome of {event}", **what)
                if reason is None
                else message(
                    "{outcome} is not a possible outcome of {event}: {reason}",
                    reason=reason,
                    **what,
                )
            ),
        )
        return action


class RoutedOutcomes:
    """Each kind of chance event from its own provider (the physics for placements, a seeded
    generator for the rest, say)."""

    def __init__(self, routes: Mapping[str, OutcomeProvider], default: OutcomeProvider) -> None:
        self._routes = dict(routes)
        self._default = default

    def outcome(self, state: State) -> Action:
        """The outcome from the provider of this event's kind."""
        event = _require_chance(state)
        return self._routes.get(event.kind, self._default).outcome(state)
