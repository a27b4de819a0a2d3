"""What a game is, declared once: :class:`GameDeclaration`, after OpenSpiel's ``GameType``
and ``GameInfo``.

Each game package declares itself (``splash.games.bash.declaration``,
``splash.games.tower.declaration``); :data:`splash.games.GAMES` maps every game id to its
declaration.  The layers above look a game up there (its name, how to build its rules
engine, its seats) and keep, each, one table of their own keyed by the same ids.  A
declaration builds rules engines only: the physics, the bots and everything above add
themselves in their own layers.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from splash.core.actions import Json
from splash.core.errors import OptionError
from splash.core.i18n import Message, message
from splash.core.protocol import Game, State


class Information(enum.Enum):
    """What the seats know of a state (OpenSpiel's ``GameType.Information``)."""

    PERFECT = "perfect"
    """Every seat sees the whole state; chance outcomes are public."""
    IMPERFECT = "imperfect"
    """Some of the state is hidden from some seats (cards in a hand, say)."""


class SeatKind(enum.Enum):
    """Who sits at a seat."""

    TEAM = "team"
    """A seat is a team, which takes all its decisions (Splash & Bash)."""
    PLAYER = "player"
    """A seat is one player; players may play in teams of seats (the Splash! team variant)."""


Assignments = Iterable[tuple[str, Any]]
"""``--set`` style assignments: ``[("options.teams", 3), ("board.lanes.outer", 36)]``."""
View = Callable[[State, int], dict[str, Json]]
"""What a seat may know of a state: ``view(state, seat)``."""


@dataclass(frozen=True)
class GameDeclaration:
    """One game, as the layers above the rules engines see it.

    >>> from splash.games import GAMES
    >>> bash = GAMES["bash"]
    >>> bash.name, bash.information.value, (bash.min_seats, bash.max_seats)
    ('Splash & Bash', 'imperfect', (2, 4))
    >>> bash.from_settings([("options.teams", 3)]).num_seats
    3
    """

    id: str
    """The game's id on the command line, in documents and in every table (``bash``)."""
    name: str
    """The game's name, as titles give it (``Splash & Bash``)."""
    from_settings: Callable[[Assignments], Game]
    """The rules engine with the shipped data and these ``--set`` assignments; raises
    :class:`~splash.core.errors.ConfigError` (naming the key) for a bad one."""
    from_config: Callable[[Mapping[str, Any]], Game]
    """The rules engine a ``Game.config()`` tree describes (a saved game's, say)."""
    seat: SeatKind
    """Who sits at a seat: a team or a player."""
    seats_key: str
    """The ``--set`` key that sets the number of seats (``options.teams``)."""
    min_seats: int
    """The fewest seats the game is played with."""
    max_seats: int
    """The most seats the game is played with."""
    information: Information
    """Whether anything is hidden from a seat."""
    chance_kinds: frozenset[str]
    """The kinds of chance event its states ask for (``ChanceEvent.kind``)."""
    view: View
    """What a seat may know of a state (``State.view`` does the same)."""
    state_format: str
    """The kind of its state documents, as format tags name it (``splash/<kind>/1``)."""


def registry(*declarations: GameDeclaration) -> Mapping[str, GameDeclaration]:
    """The declarations keyed by id, in the order given (an id may appear once)."""
    games: dict[str, GameDeclaration] = {}
    for declaration in declarations:
        if declaration.id in games:
            raise ValueError(f"the game {declaration.id!r} is declared twice")
        games[declaration.id] = declaration
    return games


def unknown_game(games: Mapping[str, GameDeclaration], game_id: object) -> Message:
    """What is wrong with ``game_id``, not a game of ``games``: the known ones are listed."""
    return message(
        "unknown {kind} {name!r} (known: {known})",
        kind="game",
        name=game_id,
        known=", ".join(games),
    )


def declaration_of(
    games: Mapping[str, GameDeclaration], game_id: object, key: str = "game"
) -> GameDeclaration:
    """The declaration of ``game_id``; an :class:`OptionError` naming ``key`` and listing the
    known games for anything else."""
    found = games.get(game_id) if isinstance(game_id, str) else None
    if found is None:
        raise OptionError(key, game_id, unknown_game(games, game_id))
    return found
