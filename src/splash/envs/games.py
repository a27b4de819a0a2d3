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
from splash.envs.tower_grid import tower_encoding
from splash.games.bash import BashGame, BashState
from splash.games.bash.board import TEAM_LETTERS
from splash.games.bash.encoding import BashEncoding
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
"""Every game of :data:`splash.games.GAMES`, in the AI interfaces."""


def ansi(state: State) -> str:
    """The position as plain text (its description, for a game without a text picture)."""
    environment = ENVIRONMENTS.get(state.game.id)
    return environment.text(state) if environment is not None else state.describe()


def rgb_array(state: State) -> render.Image:
    """The position as an RGB image, ``(height, width, 3)`` of ``uint8``."""
    environment = ENVIRONMENTS.get(state.game.id)
    if environment is None:
        raise TypeError(f"no picture for {state!r}")
    return environment.image(state)
