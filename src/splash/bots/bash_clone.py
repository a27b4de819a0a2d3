"""A quick copy of a Splash & Bash state, for the search bots.

:meth:`State.clone` deep-copies every attribute, the action history and the board's pieces
included; a search that copies a state at every node spends most of its time there.
:func:`quick_clone` copies the board with :meth:`Board.copy`, shares the game and the
history's actions (frozen), and deep-copies only the few attributes that hold nested values.  The
copy is independent of the original for everything :meth:`BashState._apply` changes, and
equal to ``state.clone()`` (tests/bots/test_bash_clone.py checks both over whole games).
"""

from __future__ import annotations

import copy
from typing import Any

from splash.core.actions import Action
from splash.core.protocol import Game
from splash.games.bash.board import Board
from splash.games.bash.state import BashState

_ATOMS = (int, float, str, bool, type(None))


def _copy(value: Any) -> Any:
    if isinstance(value, (*_ATOMS, Game)):
        return value
    if isinstance(value, Board):
        return value.copy()
    if isinstance(value, list) and all(isinstance(v, (*_ATOMS, Action)) for v in value):
        return list(value)  # atoms and actions (frozen) are shared
    return copy.deepcopy(value)


def quick_clone(state: BashState) -> BashState:
    """An independent copy of ``state``, equal to ``state.clone()``, made faster."""
    new = BashState.__new__(BashState)
    target = new.__dict__
    for key, value in state.__dict__.items():
        target[key] = _copy(value)
    return new


__all__ = ["quick_clone"]
