"""The fixed-size encoding of each game, as the PettingZoo, Gymnasium and OpenSpiel adapters
take it: :func:`encoding_for` and its observations as a Gymnasium space.

The encodings themselves are the games' own (:mod:`splash.games.bash.encoding`,
:mod:`splash.games.tower.encoding`, on the base :class:`splash.core.encoding.Encoding`).

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

from typing import TYPE_CHECKING

import numpy as np

from splash.core.encoding import Encoding
from splash.core.protocol import Game
from splash.envs.games import environment

if TYPE_CHECKING:
    from gymnasium.spaces import Box


def encoding_for(game: Game) -> Encoding:
    """The encoding of ``game`` (:attr:`~splash.envs.games.GameEnvironment.encoding`); an
    :class:`~splash.core.errors.OptionError` for a game that is not in
    :data:`splash.games.GAMES`."""
    return environment(game.id).encoding(game)


def observation_space(encoding: Encoding) -> Box:
    """The observations of ``encoding`` as a Gymnasium ``Box`` (float32, bounded per
    block)."""
    from gymnasium.spaces import Box

    low, high = encoding.layout.bounds()
    return Box(low=low, high=high, dtype=np.float32)


__all__ = ["encoding_for", "observation_space"]
