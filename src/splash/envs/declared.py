"""The encoding of a game without one of its own: :class:`DeclaredEncoding`.

Its action indices are the ids of the game's fixed enumeration (``Game.action_space``), one
mask entry each; its observation is the vector the game's declaration gives
(:attr:`splash.games.registry.GameDeclaration.observation`), one block of entries in
``[0, 1]``, or, for a declaration without one, a single entry: 1 when the seat is to act.
"""

from __future__ import annotations

import numpy as np

from splash.core.actions import Action
from splash.core.encoding import Encoding, Layout, Mask, Vector
from splash.core.errors import MalformedActionError
from splash.core.i18n import message
from splash.core.protocol import Game, State
from splash.games.registry import Observation


def _layout(game: Game, observation: Observation | None) -> Layout:
    layout = Layout()
    if observation is None:
        layout.add("to_act", 1, 0.0, 1.0, "1 when the seat is to act, else 0")
    else:
        size = len(observation(game.new_initial_state(), 0))
        layout.add("observation", size, 0.0, 1.0, "the game's declared observation")
    return layout


class DeclaredEncoding(Encoding):
    """The encoding of ``game`` from its action enumeration and the ``observation`` of its
    declaration (module docs)."""

    def __init__(self, game: Game, observation: Observation | None) -> None:
        super().__init__(game, _layout(game, observation))
        self._observation = observation

    @property
    def num_actions(self) -> int:
        """The size of the game's action enumeration."""
        return self.game.action_space.size

    def legal_mask(self, state: State) -> Mask:
        """The legal action ids of the seat to act (none at a chance node or at the end)."""
        mask = np.zeros(self.num_actions, dtype=np.bool_)
        if state.to_act() >= 0:
            mask[[action.id for action in state.legal_actions()]] = True
        return mask

    def action_of(self, state: State, index: int) -> Action:
        """The action whose id is ``index``, when it is legal for the seat to act."""
        checked = self.check_index(index)
        if not self.legal_mask(state)[checked]:
            raise self.refuse(state, checked, message("not a legal action now"))
        return self.game.action_space[checked]

    def index_of(self, state: State, action: Action) -> int:
        """The id of ``action`` in the game's enumeration."""
        if not 0 <= action.id < self.num_actions:
            raise MalformedActionError(action.to_json(), message("not an action of this game"))
        return action.id

    def observation(self, state: State, seat: int) -> Vector:
        """The declared observation of ``seat``, clipped to ``[0, 1]``."""
        if self._observation is None:
            return np.array([1.0 if state.to_act() == seat else 0.0], dtype=np.float32)
        values = np.asarray(self._observation(state, seat), dtype=np.float32)
        if values.shape != self.observation_shape:
            raise ValueError(f"{self.game.id}: an observation of shape {values.shape}")
        return np.clip(values, 0.0, 1.0)
