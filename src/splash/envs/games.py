"""The environments' table of games: :data:`ENVIRONMENTS`, keyed by game id.

For each game of :data:`splash.games.GAMES`: its fixed-size encoding, its pictures for
``render()``, the names of its agents and of its PettingZoo environment, and its
registration with OpenSpiel.  The tables an environment plays on come from the physics
layer's table of games (:func:`splash.envs.driver.game_table`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypeVar

from splash.core.encoding import Encoding
from splash.core.errors import ConfigError
from splash.core.i18n import message
from splash.core.protocol import Game, State
from splash.envs import render
from splash.envs.declared import DeclaredEncoding
from splash.envs.tower_grid import tower_encoding
from splash.games import GAMES
from splash.games.bash import BashGame, BashState
from splash.games.bash.board import TEAM_LETTERS
from splash.games.bash.encoding import BashEncoding
from splash.games.registry import declaration_of
from splash.games.tower import TowerGame, TowerState
from splash.sim.traces import (
    Evaluation,
    TowerEvaluator,
    bash_evaluation,
    bash_started,
    tower_started,
)

G = TypeVar("G", bound=Game)
S = TypeVar("S", bound=State)
R = TypeVar("R")


def _of_game(kind: type[G], build: Callable[[G], Encoding]) -> Callable[[Game], Encoding]:
    """``build`` for the games of ``kind``; a :class:`ConfigError` for any other game."""

    def encoding(game: Game) -> Encoding:
        if not isinstance(game, kind):
            raise ConfigError(message("no encoding for the game {game!r}", game=game.id))
        return build(game)

    return encoding


def _of_state(kind: type[S], draw: Callable[[S], R]) -> Callable[[State], R]:
    """``draw`` for the states of ``kind``; a :class:`TypeError` for any other state."""

    def picture(state: State) -> R:
        if not isinstance(state, kind):
            raise TypeError(f"no picture for {state!r}")
        return draw(state)

    return picture


def _register_bash() -> None:
    from splash.envs.openspiel import bash

    bash.register()


def _register_tower() -> None:
    from splash.envs.openspiel import tower

    tower.register()


@dataclass(frozen=True)
class GameEnvironment:
    """One game in the AI interfaces."""

    encoding: Callable[[Game], Encoding]
    """The action and observation encoding of a game (with its options)."""
    text: Callable[[State], str]
    """The position as plain text (``render_mode="ansi"``)."""
    image: Callable[[State], render.Image]
    """The position as an RGB image (``render_mode="rgb_array"``)."""
    agent: Callable[[int], str]
    """The PettingZoo name of a seat's agent (``team_A``, ``player_0``)."""
    name: str
    """The PettingZoo environment's name (``metadata["name"]``)."""
    register_openspiel: Callable[[], None]
    """Register the game with OpenSpiel (imports ``pyspiel``; again is harmless)."""
    evaluator: Callable[[], Callable[[State], Evaluation]]
    """A new evaluation of one game's states (:mod:`splash.sim.traces`), one value per seat."""
    started: Callable[[State], bool]
    """Whether a state is past the set-up (where the evaluations start)."""


ENVIRONMENTS: Mapping[str, GameEnvironment] = {
    "bash": GameEnvironment(
        encoding=_of_game(BashGame, BashEncoding),
        text=_of_state(BashState, render.bash_text),
        image=_of_state(BashState, render.bash_image),
        agent=lambda seat: f"team_{TEAM_LETTERS[seat]}",
        name="splash_bash_v0",
        register_openspiel=_register_bash,
        evaluator=lambda: _of_state(BashState, bash_evaluation),
        started=_of_state(BashState, bash_started),
    ),
    "tower": GameEnvironment(
        encoding=_of_game(TowerGame, tower_encoding),
        text=_of_state(TowerState, render.tower_text),
        image=_of_state(TowerState, render.tower_image),
        agent=lambda seat: f"player_{seat}",
        name="splash_tower_v0",
        register_openspiel=_register_tower,
        evaluator=TowerEvaluator,
        started=_of_state(TowerState, tower_started),
    ),
}
"""The games with encodings, pictures and OpenSpiel games of their own, keyed by game id;
every other game of :data:`splash.games.GAMES` is played as :func:`environment` says."""


def _settled(state: State) -> Evaluation:
    """0 for every seat until the end, then the returns (clipped to ``[-1, 1]``)."""
    seats = state.game.num_seats
    if not state.is_terminal():
        return (0.0,) * seats
    return tuple(min(1.0, max(-1.0, float(value))) for value in state.returns())


def _no_picture(state: State) -> render.Image:
    raise TypeError(f"no picture for {state!r}")


def _not_in_openspiel() -> None:
    """A game without an OpenSpiel game of its own registers nothing."""


def environment(game_id: str) -> GameEnvironment:
    """``game_id`` in the AI interfaces: its entry of :data:`ENVIRONMENTS`, else the common
    way of any game of :data:`splash.games.GAMES` — the encoding of its action enumeration
    and declared observation (:class:`~splash.envs.declared.DeclaredEncoding`), its
    description as text and no image, agents ``player_<seat>``, the name
    ``splash_<id>_v0``, no OpenSpiel game, and an evaluation of 0 until the end."""
    own = ENVIRONMENTS.get(game_id)
    if own is not None:
        return own
    declaration = declaration_of(GAMES, game_id)
    return GameEnvironment(
        encoding=lambda game: DeclaredEncoding(game, declaration.observation),
        text=lambda state: state.describe(),
        image=_no_picture,
        agent=lambda seat: f"player_{seat}",
        name=f"splash_{game_id}_v0",
        register_openspiel=_not_in_openspiel,
        evaluator=lambda: _settled,
        started=lambda state: True,
    )


def ansi(state: State) -> str:
    """The position as plain text (its description, for a game without a text picture)."""
    return environment(state.game.id).text(state)


def rgb_array(state: State) -> render.Image:
    """The position as an RGB image, ``(height, width, 3)`` of ``uint8``."""
    return environment(state.game.id).image(state)
