"""The fixed-size encoding of a game for the AI interfaces: action indices and observations.

An :class:`Encoding` maps a game's actions to integer indices ``0 .. num_actions - 1`` (one
mask entry each) and a seat's view of a state to a float32 vector of a fixed length.  The
PettingZoo, Gymnasium and OpenSpiel adapters share it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from splash.core.actions import Action
from splash.core.errors import IllegalActionError, MalformedActionError
from splash.core.i18n import Message, message
from splash.core.protocol import Game, State
from splash.envs.layout import Layout, Vector

if TYPE_CHECKING:
    from gymnasium.spaces import Box

Mask = NDArray[np.bool_]


class Encoding(ABC):
    """Action indices and observation vectors of one game with its options fixed."""

    def __init__(self, game: Game, layout: Layout) -> None:
        self.game = game
        self.layout = layout

    @property
    @abstractmethod
    def num_actions(self) -> int:
        """How many action indices there are (the length of a mask)."""

    @abstractmethod
    def legal_mask(self, state: State) -> Mask:
        """One flag per index: may the seat to act choose it now (all false at a chance node
        or at the end)."""

    @abstractmethod
    def action_of(self, state: State, index: int) -> Action:
        """The game action that ``index`` stands for in ``state``.

        Raises :class:`MalformedActionError` for an index out of range and
        :class:`IllegalActionError` for an index whose flag in :meth:`legal_mask` is false.
        """

    @abstractmethod
    def index_of(self, state: State, action: Action) -> int:
        """The index of ``action`` in ``state`` (:class:`MalformedActionError` when none)."""

    @abstractmethod
    def observation(self, state: State, seat: int) -> Vector:
        """What ``seat`` sees of ``state`` as a vector, built from ``state.view(seat)``."""

    @property
    def observation_shape(self) -> tuple[int]:
        """The shape of every observation vector."""
        return (self.layout.size,)

    def observation_space(self) -> Box:
        """The observations as a Gymnasium ``Box`` (float32, bounded per block)."""
        from gymnasium.spaces import Box

        low, high = self.layout.bounds()
        return Box(low=low, high=high, dtype=np.float32)

    def legal_indices(self, state: State) -> list[int]:
        """The indices whose mask flag is true, ascending."""
        return [int(i) for i in np.flatnonzero(self.legal_mask(state))]

    def check_index(self, index: object) -> int:
        """``index`` as an int when it is one of the encoding's indices."""
        if isinstance(index, bool) or not isinstance(index, int | np.integer):
            raise MalformedActionError(index, message("an action index is an integer"))
        if not 0 <= int(index) < self.num_actions:
            raise MalformedActionError(
                index,
                message(
                    "no action index {index} (indices run from 0 to {last})",
                    index=int(index),
                    last=self.num_actions - 1,
                ),
            )
        return int(index)

    def refuse(self, state: State, index: int, reason: Message) -> IllegalActionError:
        """The error for an index that is not legal in ``state``."""
        return IllegalActionError(
            message("index {index}", index=index).render(), state.describe(), reason
        )
