"""The fixed-size encodings of both games, shared by the PettingZoo, Gymnasium and OpenSpiel
adapters: action indices with legal masks, and observation vectors.

>>> from splash.games.bash import BashGame
>>> encoding = encoding_for(BashGame())
>>> state = BashGame().new_initial_state()
>>> encoding.legal_indices(state)
[0, 1, 2]
>>> encoding.action_of(state, 1).to_json()
{'kind': 'start_lane', 'lane': 'centre'}

The layouts are documented in docs/envs.md (and by ``encoding.layout.table()``).
"""

from __future__ import annotations

from splash.core.errors import ConfigError
from splash.core.i18n import message
from splash.core.protocol import Game
from splash.envs.base import Encoding, Mask
from splash.envs.bash_encoding import BashEncoding
from splash.envs.games import ENVIRONMENTS
from splash.envs.layout import Block, Layout, Vector
from splash.envs.tower_encoding import TowerEncoding
from splash.envs.tower_grid import PlacementGrid


def encoding_for(game: Game) -> Encoding:
    """The encoding of ``game`` (:attr:`~splash.envs.games.GameEnvironment.encoding`)."""
    environment = ENVIRONMENTS.get(game.id)
    if environment is None:
        raise ConfigError(message("no encoding for the game {game!r}", game=game.id))
    return environment.encoding(game)


__all__ = [
    "BashEncoding",
    "Block",
    "Encoding",
    "Layout",
    "Mask",
    "PlacementGrid",
    "TowerEncoding",
    "Vector",
    "encoding_for",
]
