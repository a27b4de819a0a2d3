"""Both games as OpenSpiel Python games.

>>> import pyspiel
>>> from splash.envs.openspiel import register_games
>>> register_games()
>>> game = pyspiel.load_game("python_splash_bash", {"options.teams": 3})
>>> game.num_players()
3

Names: ``python_splash_bash`` (Splash & Bash) and ``python_splash_tower`` (Splash!).  The
parameters, the game types and the tensors are described in docs/openspiel.md.
"""

from __future__ import annotations

from splash.envs.games import ENVIRONMENTS
from splash.envs.openspiel import bash, tower

BASH = bash.SHORT_NAME
TOWER = tower.SHORT_NAME


def register_games() -> None:
    """Register every game with OpenSpiel, so that ``pyspiel.load_game(name)`` finds them.

    Registering again is harmless.
    """
    for environment in ENVIRONMENTS.values():
        environment.register_openspiel()


__all__ = ["BASH", "TOWER", "register_games"]
