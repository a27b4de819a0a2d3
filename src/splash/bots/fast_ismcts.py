"""The ISMCTS bot on the compiled core (``ismcts:engine=fast``).

The search of :mod:`splash.bots.ismcts` (single-observer ISMCTS with availability counts,
the same values and the same choice of the root action), run in one compiled call by
:func:`splash.fast.search.ismcts_decide`: some 300 times faster, so it affords thousands of
iterations, longer rollouts, and rollouts played by the compiled greedy bot.  Each
iteration first redraws the other teams' hands from the cards the team cannot see (BD12),
so the choice reads nothing the team may not see.  It plays the positions the compiled core
can express (:func:`splash.fast.tables.build_tables` names a setting it cannot).
"""

from __future__ import annotations

import math

import numpy as np

from splash.bots.ismcts import _check
from splash.core.actions import Action
from splash.core.errors import ActionError, OptionError
from splash.core.i18n import N_, message
from splash.core.protocol import State
from splash.fast.convert import to_arrays
from splash.fast.greedy import GreedySettings, weight_array
from splash.fast.search import EVALUATIONS, ROLLOUTS, SearchSettings, ismcts_decide
from splash.fast.tables import Tables, build_tables
from splash.games.bash import BashGame, BashState

FloatArray = np.ndarray


class FastIsmctsBot:
    """ISMCTS on the compiled core for Splash & Bash, seeded and deterministic.

    >>> from splash.games.bash import BashGame
    >>> state = BashGame().new_initial_state()
    >>> FastIsmctsBot(7, iterations=100).act(state).kind
    'start_lane'
    """

    name = "ismcts"

    def __init__(
        self,
        seed: int | np.random.SeedSequence,
        *,
        iterations: int = 1000,
        exploration: float = 0.7,
        rollout: str = "random",
        max_depth: int = 12,
        progress_scale: float = 20.0,
        evaluation: str = "progress",
        epsilon: float = 0.0,
        widening: float = 0.0,
        rollout_depth: int = 1,
    ) -> None:
        _check(iterations >= 1, "iterations", iterations, N_("must be a whole number, 1 or more"))
        _check(max_depth >= 1, "max_depth", max_depth, N_("must be a whole number, 1 or more"))
        if rollout_depth not in (1, 2, 3):
            raise OptionError(
                "rollout_depth",
                rollout_depth,
                message("must be one of {choices}", choices="1, 2, 3"),
            )
        for key, value, positive in (
            ("exploration", exploration, False),
            ("progress_scale", progress_scale, True),
            ("widening", widening, False),
        ):
            _check(
                math.isfinite(value) and (value > 0 if positive else value >= 0),
                key,
                value,
                N_("must be a finite number > 0")
                if positive
                else N_("must be a finite number >= 0"),
            )
        _check(
            math.isfinite(epsilon) and 0 <= epsilon <= 1,
            "epsilon",
            epsilon,
            N_("must be a probability, from 0 to 1"),
        )
        for key, choice, choices in (
            ("rollout", rollout, ROLLOUTS),
            ("evaluation", evaluation, EVALUATIONS),
        ):
            if choice not in choices:
                raise OptionError(
                    key, choice, message("must be one of {choices}", choices=", ".join(choices))
                )
        self.seed = seed
        self.settings = SearchSettings(
            iterations=iterations,
            exploration=exploration,
            max_depth=max_depth,
            progress_scale=progress_scale,
            rollout=rollout,
            epsilon=epsilon,
            evaluation=evaluation,
            widening=widening,
            greedy=GreedySettings(depth=rollout_depth),
        )
        self._rng = np.random.default_rng(seed)
        self._game: BashGame | None = None
        self._tables: Tables | None = None
        self._weights: FloatArray | None = None

    def act(self, state: State) -> Action:
        """The action the search prefers for the team to act in ``state`` (a
        :class:`BashState`); a single legal action is returned without a search."""
        if not isinstance(state, BashState):
            raise ActionError(message("the ismcts bot plays Splash & Bash only"))
        legal = state.legal_actions() if state.to_act() >= 0 else []
        if not legal:
            raise ActionError(message("no decision to take in {state}", state=state.describe()))
        if len(legal) == 1:
            return legal[0]
        tables, weights = self._tables_for(state._bash)
        seed = int(self._rng.integers(1 << 62))
        decision = ismcts_decide(tables, to_arrays(tables, state), seed, self.settings, weights)
        for action in legal:
            if action.id == decision.action:
                return action
        raise ActionError(
            message("no decision to take in {state}", state=state.describe())
        )  # pragma: no cover - the core's legal actions are the reference's

    def _tables_for(self, game: BashGame) -> tuple[Tables, FloatArray]:
        """The core's tables and greedy weights of ``game``, made once per game."""
        if self._game is not game or self._tables is None or self._weights is None:
            self._tables = build_tables(game)
            self._weights = weight_array(self._tables, self.settings.greedy)
            self._game = game
        return self._tables, self._weights
