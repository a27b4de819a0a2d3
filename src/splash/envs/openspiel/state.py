"""The part of an OpenSpiel state that both games share: a splash state wrapped for pyspiel.

A :class:`SpielState` holds a splash :class:`~splash.core.protocol.State` (``inner``) and a
log of what every seat saw of each action applied to it (:class:`Seen`): OpenSpiel asks for
the information state of any seat at any time, and a seat's information state is the list of
what it saw, in order, with its view of the position now.  Subclasses say how an OpenSpiel
action integer maps to a splash action and which actions some seats may not see.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import pyspiel

from splash.core.actions import Action
from splash.core.errors import SplashError
from splash.core.protocol import CHANCE, TERMINAL, Game, State

if TYPE_CHECKING:
    from splash.envs.openspiel.game import SpielGame


@dataclass(frozen=True, slots=True)
class Seen:
    """One applied action and who saw it.

    The seats in ``private`` (everyone, when ``private`` is ``None``) saw ``action``; the
    others saw only ``public`` (the kind of action without its secret).
    """

    player: int
    action: Action | None
    public: str
    private: frozenset[int] | None = None

    def sees(self, seat: int) -> bool:
        """Whether ``seat`` saw the action itself."""
        return self.action is not None and (self.private is None or seat in self.private)

    def masked_for(self, seat: int) -> Seen:
        """This entry, or, when ``seat`` did not see the action, an entry that keeps only its
        public part, for every seat."""
        if self.sees(seat):
            return self
        return Seen(self.player, None, self.public, frozenset())


@dataclass(frozen=True, slots=True)
class SeenLog:
    """The log of :class:`Seen` entries as an immutable chain, so that copies share it."""

    last: Seen
    before: SeenLog | None = None

    def entries(self) -> list[Seen]:
        """Every entry, oldest first."""
        found: list[Seen] = []
        node: SeenLog | None = self
        while node is not None:
            found.append(node.last)
            node = node.before
        return found[::-1]


def entries(log: SeenLog | None) -> list[Seen]:
    """The entries of ``log`` (none for an empty log), oldest first."""
    return [] if log is None else log.entries()


class Core:
    """What a :class:`SpielState` holds: the splash state and the log of what seats saw.

    OpenSpiel clones a Python state by deep-copying its attributes; this copy shares what
    never changes (the log, the actions of the history) and copies the rest.
    """

    def __init__(self, inner: State, log: SeenLog | None = None) -> None:
        self.inner = inner
        self.log = log

    def __deepcopy__(self, memo: dict[int, Any]) -> Core:
        for action in self.inner.history:
            memo[id(action)] = action
        return Core(copy.deepcopy(self.inner, memo), self.log)

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as a flat list: the chain is too deep for pickle's recursion.
        return (Core.rebuilt, (self.inner, entries(self.log)))

    @staticmethod
    def rebuilt(inner: State, seen: list[Seen]) -> Core:
        """A core from a splash state and the log's entries, oldest first."""
        log: SeenLog | None = None
        for entry in seen:
            log = SeenLog(entry, log)
        return Core(inner, log)


def who(player: int) -> str:
    """``seat 2``, or ``chance``."""
    return "chance" if player == int(pyspiel.PlayerId.CHANCE) else f"seat {player}"


@lru_cache(maxsize=8192)
def action_line(game: Game, player: int, action: Action) -> str:
    """``seat 1: play shove``: an action in the log, in English (the same in every locale,
    as information-state strings must be)."""
    return f"{who(player)}: {game.action_text(action).render('en')}"


def compact(doc: Any) -> str:
    """A canonical one-line JSON text (sorted keys, no spaces)."""
    return json.dumps(doc, sort_keys=True, separators=(",", ":"))


class SpielState(pyspiel.State):  # type: ignore[misc]
    """A splash state as an OpenSpiel state (sequential moves, explicit chance)."""

    def __init__(self, game: SpielGame, inner: State, log: SeenLog | None = None) -> None:
        super().__init__(game)
        self.core = Core(inner, log)

    @property
    def inner(self) -> State:
        """The wrapped splash state."""
        return self.core.inner

    @property
    def seen(self) -> list[Seen]:
        """Every applied action as the seats saw it, oldest first."""
        return entries(self.core.log)

    # ----- hooks ------------------------------------------------------------------------

    def splash_action(self, action: int) -> Action:
        """The splash action that OpenSpiel action ``action`` stands for now."""
        raise NotImplementedError

    def spiel_action_of(self, action: Action) -> int:
        """The OpenSpiel action that stands for the splash ``action`` now."""
        raise NotImplementedError

    def spiel_actions(self) -> list[int]:
        """The legal OpenSpiel actions of the seat to act, ascending."""
        raise NotImplementedError

    def spiel_chance_outcomes(self) -> list[tuple[int, float]]:
        """The chance outcomes as OpenSpiel actions, with their probabilities."""
        raise NotImplementedError

    def private_to(self, action: Action) -> frozenset[int] | None:
        """The seats that alone may see ``action`` (applied now), or ``None`` for all."""
        return None

    def public_text(self, action: Action) -> str:
        """What the seats outside :meth:`private_to` see of ``action``."""
        return action.kind

    # ----- pyspiel ----------------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to act, or OpenSpiel's chance or terminal player id."""
        to_act = self.inner.to_act()
        if to_act == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        if to_act == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return to_act

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.inner.to_act():
            return []
        return self.spiel_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each chance outcome (an action integer) with its probability."""
        if not self.inner.is_chance():
            return []
        return self.spiel_chance_outcomes()

    def _apply_action(self, action: int) -> None:
        player = self.current_player()
        chosen = self.splash_action(int(action))
        private = self.private_to(chosen)
        public = "" if private is None else self.public_text(chosen)
        self.inner.apply(chosen)
        self.core.log = SeenLog(Seen(player, chosen, public, private), self.core.log)

    def _action_to_string(self, player: int, action: int) -> str:
        try:
            chosen = self.splash_action(int(action))
        except (SplashError, ValueError, IndexError):
            # OpenSpiel may ask about any integer, legal now or not.
            return f"{self._who(player)}: action {action}"
        return self._text(player, chosen)

    def _text(self, player: int, action: Action) -> str:
        return action_line(self.inner.game, player, action)

    @staticmethod
    def _who(player: int) -> str:
        return who(player)

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.inner.is_terminal()

    def returns(self) -> list[float]:
        """Each seat's utility (zeros before the end)."""
        return [float(r) for r in self.inner.returns()]

    def __str__(self) -> str:
        """The whole position, hidden information included (OpenSpiel's debug string)."""
        doc = self.inner.to_json()
        doc.pop("history", None)
        doc.pop("config", None)
        return f"{self.inner.describe()}\n{compact(doc)}"

    # ----- what a seat knows ------------------------------------------------------------

    def view_text(self, seat: int) -> str:
        """``inner.view(seat)`` as one canonical line."""
        return compact(self.inner.view(seat))

    def history_text(self, seat: int) -> str:
        """Every applied action as ``seat`` saw it, one per line."""
        return "\n".join(
            self._text(entry.player, entry.action)
            if entry.action is not None and entry.sees(seat)
            else f"{self._who(entry.player)}: {entry.public}"
            for entry in self.seen
        )
