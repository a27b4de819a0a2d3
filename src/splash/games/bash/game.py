"""The Splash & Bash game: configuration, action enumeration, factory of states."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cached_property
from pathlib import Path
from typing import Any, ClassVar

from splash.core.actions import Action, ActionSpace
from splash.core.i18n import Message
from splash.core.protocol import Game, Team
from splash.games.bash.actions import ActionIndex, action_text, build_action_space
from splash.games.bash.config import BashConfig
from splash.games.bash.geometry import Course
from splash.games.bash.serial import state_from_json, state_to_json
from splash.games.bash.state import BashDocuments, BashState
from splash.games.bash.view import view_json

DOCUMENTS = BashDocuments(view=view_json, document=state_to_json, read=state_from_json)
"""The documents of Splash & Bash, which its states reach through their game."""


class BashGame(Game):
    """Splash & Bash with its board, decks and options fixed.

    >>> game = BashGame.from_settings([("options.teams", 3)])
    >>> game.num_seats
    3
    """

    id = "bash"
    documents: ClassVar[BashDocuments] = DOCUMENTS
    """The documents of this game's states (:class:`~splash.games.bash.state.BashDocuments`)."""

    def __init__(self, settings: BashConfig | None = None) -> None:
        self.settings = settings if settings is not None else BashConfig.load()
        self.course = Course(self.settings.board, self.settings.options)
        self.reaction_cards = frozenset(
            name
            for name, card in self.settings.decks["high_tide"].cards.items()
            if card.timing == "on_fall" and card.count > 0
        )

    @classmethod
    def from_settings(
        cls,
        assignments: Iterable[tuple[str, Any]] = (),
        *,
        data_dir: Path | None = None,
        data: Mapping[str, Any] | None = None,
    ) -> BashGame:
        """The shipped data (or ``data_dir``'s files, or ``data`` from
        :meth:`BashConfig.data_parts`) with ``--set`` style assignments."""
        return cls(BashConfig.load(list(assignments), data_dir=data_dir, data=data))

    @classmethod
    def from_config(cls, tree: Mapping[str, Any]) -> BashGame:
        """The game a :meth:`config` tree describes."""
        return cls(BashConfig.from_tree(tree))

    @property
    def num_seats(self) -> int:
        """One seat per team."""
        return self.settings.options.teams

    @property
    def teams(self) -> tuple[Team, ...]:
        """Each team is one seat."""
        return tuple(Team(t, (t,)) for t in range(self.num_seats))

    @cached_property
    def action_space(self) -> ActionSpace:
        """The fixed enumeration of actions for this configuration."""
        return build_action_space(self.settings)

    @cached_property
    def actions(self) -> ActionIndex:
        """The actions of :attr:`action_space`, looked up by what they name."""
        return ActionIndex(self.action_space)

    def new_initial_state(self) -> BashState:
        """Team A places its first pawn."""
        return BashState(self)

    def config(self) -> dict[str, Any]:
        """Options and data as one tree."""
        return self.settings.tree()

    def state_from_json(self, doc: Mapping[str, Any]) -> BashState:
        """The state a ``splash/bash/1`` document describes."""
        return BashState.from_json(self, doc)

    def action_text(self, action: Action) -> Message:
        """A readable form of ``action``."""
        return action_text(action)
