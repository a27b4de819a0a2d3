"""The rules engines, one package per game, and :data:`GAMES`, the registry of games.

>>> from splash.games import GAMES
>>> sorted(GAMES)
['bash', 'tower']
>>> GAMES["tower"].name
'Splash!'
"""

from collections.abc import Mapping

from splash.games.bash.declaration import DECLARATION as BASH
from splash.games.plugins import declared_elsewhere
from splash.games.registry import GameDeclaration, Information, SeatKind, registry
from splash.games.tower.declaration import DECLARATION as TOWER

GAMES: Mapping[str, GameDeclaration] = registry(BASH, TOWER, *declared_elsewhere())
"""Every game, keyed by its id: the one list of the games the layers above play; the two
shipped games, then those declared elsewhere (the ``SPLASH_GAMES`` environment variable and
the ``splash.games`` entry points: :mod:`splash.games.plugins`)."""

__all__ = ["GAMES", "GameDeclaration", "Information", "SeatKind"]
