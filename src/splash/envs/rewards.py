"""What the environments reward beyond the game's returns: illegal actions and shaping.

- An illegal action is reported as ``info["illegal_action"]``, an :class:`IllegalAction`
  (:func:`illegal_action`), in every environment alike; the PettingZoo environments choose
  with ``illegal`` (:data:`ILLEGAL_MODES`) whether it ends the game, raises, or is refused.
- :class:`Shaping` adds ``shaping * (v_after - v_before)`` to a seat's reward, ``v`` the
  seat's evaluation of :mod:`splash.sim.traces` (a value in ``[-1, 1]``) and ``v_before`` its
  evaluation after the seat's previous step.  Evaluations start once set-up is over (the
  traces' ``s_0``); before, the shaped term is 0.  A seat's shaped terms over a game add up to
  ``shaping * (v_end - v_0)``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any, Literal, TypedDict

import numpy as np

from splash.core.errors import OptionError, SplashError
from splash.core.i18n import message
from splash.core.protocol import State
from splash.envs import games
from splash.sim.traces import Evaluation

Illegal = Literal["terminate", "raise", "refuse"]
ILLEGAL_MODES: tuple[Illegal, ...] = ("terminate", "raise", "refuse")
"""``terminate``: an illegal action ends the game (-1 to the offender, 0 to the others);
``raise``: it raises :class:`~splash.core.errors.IllegalActionError` and changes nothing;
``refuse``: it costs the offender -1 and changes nothing else, and the game goes on."""


class IllegalAction(TypedDict):
    """``info["illegal_action"]``: the action refused, and why."""

    action: Any
    reason: str


def plain(action: Any) -> Any:
    """``action`` as plain Python data (NumPy integers and arrays converted)."""
    if isinstance(action, np.integer):
        return int(action)
    if isinstance(action, np.ndarray):
        return action.tolist()
    return action


def illegal_action(action: Any, error: SplashError) -> IllegalAction:
    """The record of ``action`` refused with ``error``."""
    return {"action": plain(action), "reason": str(error)}


def check_illegal(illegal: object) -> Illegal:
    """``illegal`` when it is one of :data:`ILLEGAL_MODES`."""
    if not isinstance(illegal, str) or illegal not in ILLEGAL_MODES:
        raise OptionError(
            "illegal",
            illegal,
            message("must be one of {choices}", choices=", ".join(ILLEGAL_MODES)),
        )
    return illegal


def check_shaping(shaping: object) -> float:
    """``shaping`` as a float when it is a finite number."""
    if (
        isinstance(shaping, bool)
        or not isinstance(shaping, int | float | np.integer | np.floating)
        or not math.isfinite(float(shaping))
    ):
        raise OptionError("shaping", shaping, message("must be a finite number"))
    return float(shaping)


class Shaping:
    """The shaped rewards of one game's seats (module docs); ``coefficient`` 0 gives 0."""

    def __init__(self, game_id: str, coefficient: object) -> None:
        self.coefficient = check_shaping(coefficient)
        self._environment = games.environment(game_id)
        self._evaluate: Callable[[State], Evaluation] = self._environment.evaluator()
        self._last: list[float] | None = None

    def reset(self, state: State) -> None:
        """A new game, starting at ``state``."""
        self._evaluate = self._environment.evaluator()
        self._last = None
        self.rewards(state, ())

    def rewards(self, state: State, seats: Iterable[int]) -> dict[int, float]:
        """The shaped term of each of ``seats`` now, ``state`` following their steps."""
        chosen = list(seats)
        if self.coefficient == 0.0 or not self._environment.started(state):
            return dict.fromkeys(chosen, 0.0)
        values = self._evaluate(state)
        if self._last is None:
            self._last = list(values)
            return dict.fromkeys(chosen, 0.0)
        terms = {}
        for seat in chosen:
            terms[seat] = self.coefficient * (values[seat] - self._last[seat])
            self._last[seat] = values[seat]
        return terms
