"""The game protocol both games share (after OpenSpiel's Game/State split).

A :class:`Game` holds immutable options and data; a :class:`State` is one position.  Whose
move it is comes from :meth:`State.to_act`: a seat, :data:`CHANCE` (an outcome provider
supplies the outcome) or :data:`TERMINAL`.  Randomness never lives in a state.
"""

from __future__ import annotations

import copy
import math
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final, Self

from splash.core.actions import Action, ActionSpace, Json
from splash.core.errors import IllegalActionError, MalformedActionError
from splash.core.i18n import Message, message

CHANCE: Final = -1
"""``to_act()`` of a state waiting for a chance outcome."""
TERMINAL: Final = -2
"""``to_act()`` of a finished game."""


@dataclass(frozen=True, slots=True)
class Team:
    """A team: its index and the seats that play for it."""

    id: int
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ChanceEvent:
    """What a chance node samples: ``kind`` (``roll``, ``draw``, ...) and its details."""

    kind: str
    params: Mapping[str, Json] = field(default_factory=dict)

    def to_json(self) -> dict[str, Json]:
        """The JSON form: ``{"kind": ..., **params}``."""
        return {"kind": self.kind, **self.params}


class Game(ABC):
    """A game with its options and data fixed; the factory of its states."""

    id: str
    """The game's id on the command line and in documents (``bash``, ``tower``)."""

    @property
    @abstractmethod
    def num_seats(self) -> int:
        """How many decision makers sit at the game."""

    @property
    @abstractmethod
    def teams(self) -> tuple[Team, ...]:
        """The teams, each with its seats."""

    @property
    @abstractmethod
    def action_space(self) -> ActionSpace:
        """The fixed enumeration of discrete actions for these options."""

    @abstractmethod
    def new_initial_state(self) -> State:
        """The state before the first action."""

    @abstractmethod
    def config(self) -> dict[str, Any]:
        """Options and data as one tree (the keys ``--set`` addresses)."""

    @abstractmethod
    def state_from_json(self, doc: Mapping[str, Any]) -> State:
        """The state a :meth:`State.to_json` document describes."""

    @abstractmethod
    def action_text(self, action: Action) -> Message:
        """A readable form of ``action``."""

    def parse_action(self, doc: object) -> Action:
        """The action that a JSON form or an integer id names."""
        return self.action_space.from_json(doc)

    def team_of(self, seat: int) -> Team:
        """The team ``seat`` plays for."""
        for team in self.teams:
            if seat in team.seats:
                return team
        raise ValueError(f"no seat {seat}")


class State(ABC):
    """One position of a game.

    Subclasses implement the ``_``-prefixed hooks; :meth:`apply` checks legality first,
    so a refused action leaves the state exactly as it was.
    """

    def __init__(self, game: Game) -> None:
        self._game = game
        self._history: list[Action] = []

    @property
    def game(self) -> Game:
        """The game this state belongs to."""
        return self._game

    @property
    def history(self) -> Sequence[Action]:
        """Every action applied since the initial state, chance outcomes included."""
        return tuple(self._history)

    @abstractmethod
    def to_act(self) -> int:
        """The seat to act, :data:`CHANCE` or :data:`TERMINAL`."""

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.to_act() == TERMINAL

    def is_chance(self) -> bool:
        """Whether a chance outcome is awaited."""
        return self.to_act() == CHANCE

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """The legal actions (at a chance node, the possible outcomes), sorted by id."""

    def legal_action_ids(self) -> list[int]:
        """The ids of :meth:`legal_actions`."""
        return [a.id for a in self.legal_actions()]

    def legal_action_mask(self) -> list[bool]:
        """One flag per action of the enumeration: is it legal now."""
        mask = [False] * self.game.action_space.size
        for action in self.legal_actions():
            mask[action.id] = True
        return mask

    def hidden_pass(self) -> Action | None:
        """The pass of a decision that the seat to act may always pass and whose other
        choices depend on what only that seat knows (a reaction window, whose cards are
        playable or not); ``None`` at any other decision.  When a person's seat answers
        such a decision at once, how fast it does tells the others about its hand, so the
        server holds such windows open for a fixed time."""
        return None

    @abstractmethod
    def chance_event(self) -> ChanceEvent | None:
        """What the chance node samples (``None`` when not at a chance node)."""

    @abstractmethod
    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """Each possible outcome with its exact probability (empty unless at a chance node)."""

    def chance_weights(self) -> list[tuple[Action, int]]:
        """Each possible outcome, in the order of :meth:`chance_outcomes`, with an integer
        weight proportional to its probability (a game overrides this where the weights are
        at hand, so that sampling needs no :class:`~fractions.Fraction` arithmetic)."""
        outcomes = self.chance_outcomes()
        scale = math.lcm(*(p.denominator for _, p in outcomes)) if outcomes else 1
        return [(action, int(p * scale)) for action, p in outcomes]

    def apply(self, action: Action | Json | Mapping[str, Any]) -> None:
        """Apply ``action`` (an :class:`Action`, an id or a JSON form) after checking it.

        Raises :class:`MalformedActionError` for something that names no action and
        :class:`IllegalActionError` for an action the rules refuse now; either way the
        state is unchanged.
        """
        chosen = self._parse(action)
        reason = self._illegal_reason(chosen)
        if reason is not None:
            raise IllegalActionError(
                self.game.action_text(chosen).render(), self.describe(), reason
            )
        self._apply(chosen)
        self._history.append(chosen)

    def apply_legal(self, action: Action) -> None:
        """Apply ``action``, one of this very state's :meth:`legal_actions` (or
        :meth:`chance_outcomes`), without checking it again.

        The trusted path of the simulator and the search bots, whose actions come from the
        state itself; anything from outside (a person, a message, a file) goes through
        :meth:`apply`, which refuses what the rules do not allow.
        """
        self._apply(action)
        self._history.append(action)

    def why_illegal(self, action: Action | Json | Mapping[str, Any]) -> Message | None:
        """Why ``action`` would be refused now, or ``None`` when :meth:`apply` would take it."""
        try:
            chosen = self._parse(action)
        except MalformedActionError as error:
            return error.text
        return self._illegal_reason(chosen)

    def _parse(self, action: Action | Json | Mapping[str, Any]) -> Action:
        if isinstance(action, Action):
            space = self.game.action_space
            if 0 <= action.id < space.size and space[action.id] == action:
                return action
            known = self.game.parse_action(action.to_json())
            if known != action:
                raise MalformedActionError(action.to_json(), message("the id does not match"))
            return known
        return self.game.parse_action(action)

    def _illegal_reason(self, action: Action) -> Message | None:
        """Why ``action`` is illegal now, or ``None`` when it is legal."""
        if self.is_terminal():
            return message("the game is over")
        if action in self.legal_actions():
            return None
        if self.is_chance():
            return message("not a possible outcome of this chance event")
        return message("not one of the legal actions")

    @abstractmethod
    def _apply(self, action: Action) -> None:
        """Apply a legal action."""

    @abstractmethod
    def returns(self) -> list[float]:
        """Each seat's utility (0 for every seat before the end)."""

    @abstractmethod
    def view(self, seat: int) -> dict[str, Json]:
        """What ``seat`` may know of this state, and nothing more."""

    @abstractmethod
    def to_json(self) -> dict[str, Json]:
        """The whole state, hidden information included (never a seed)."""

    @abstractmethod
    def describe(self) -> str:
        """A short public description (for errors and logs): no hidden information."""

    def clone(self) -> Self:
        """An independent copy."""
        return copy.deepcopy(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        cls = type(self)
        new = cls.__new__(cls)
        for key, value in self.__dict__.items():
            setattr(new, key, value if isinstance(value, Game) else copy.deepcopy(value, memo))
        return new

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State) or type(other) is not type(self):
            return NotImplemented
        return self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]
