"""The random bot: a uniform choice among the legal actions."""

from __future__ import annotations

import numpy as np

from splash.core.actions import Action
from splash.core.errors import ActionError
from splash.core.i18n import message
from splash.core.protocol import State


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

    def act(self, state: State) -> Action:
        """One of ``state.legal_actions()``, each as likely as the others."""
        legal = state.legal_actions()
        if not legal:
            raise ActionError(
                message("no legal action to choose in {state}", state=state.describe())
            )
        return legal[int(self._rng.integers(len(legal)))]
