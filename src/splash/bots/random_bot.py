"""The random bot: a uniform choice among the legal actions.

A Splash! placement has no list of legal actions to choose from (TD13): it is delegated to
:class:`~splash.bots.tower_random.RandomTowerBot`, which draws a random pose the game accepts.
"""

from __future__ import annotations

import numpy as np

from splash.bots.tower_random import RandomTowerBot
from splash.core.actions import Action
from splash.core.errors import ActionError
from splash.core.i18n import message
from splash.core.protocol import State
from splash.games.tower import TowerState


class RandomBot:
    """Chooses uniformly among the legal actions, with its own seeded generator.

    >>> from splash.games.bash import BashGame
    >>> state = BashGame.from_settings().new_initial_state()
    >>> RandomBot(7).act(state).kind
    'start_lane'
    """

    name = "random"

    def __init__(self, seed: int | np.random.SeedSequence) -> None:
        self.seed = seed
        self._rng = np.random.default_rng(seed)
        self._placer = RandomTowerBot(self._rng)

    def act(self, state: State) -> Action:
        """One of ``state.legal_actions()``, each as likely as the others (a Splash!
        placement: a random pose that the game accepts)."""
        if isinstance(state, TowerState) and state.phase == "place":
            return self._placer.act(state)
        legal = state.legal_actions()
        if not legal:
            raise ActionError(
                message("no legal action to choose in {state}", state=state.describe())
            )
        return legal[int(self._rng.integers(len(legal)))]
