"""The part of an OpenSpiel game that both games share: the game type and the observers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pyspiel

from splash.core.encoding import Encoding
from splash.envs.openspiel.observer import SplashObserver, make_observer


def game_type(
    *,
    short_name: str,
    long_name: str,
    perfect_information: bool,
    min_players: int,
    max_players: int,
    parameters: Mapping[str, Any],
) -> Any:
    """A ``pyspiel.GameType`` of a splash game: sequential moves, explicit chance, zero-sum
    terminal utilities; observation tensors and strings, information-state strings, and no
    information-state tensor (a perfect-recall tensor would carry the whole history:
    docs/openspiel.md)."""
    information = (
        pyspiel.GameType.Information.PERFECT_INFORMATION
        if perfect_information
        else pyspiel.GameType.Information.IMPERFECT_INFORMATION
    )
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=information,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(parameters),
    )


def game_info(
    *,
    num_distinct_actions: int,
    max_chance_outcomes: int,
    num_players: int,
    min_utility: float,
    max_game_length: int,
) -> Any:
    """A ``pyspiel.GameInfo``: utilities between ``min_utility`` and 1, summing to 0."""
    return pyspiel.GameInfo(
        num_distinct_actions=num_distinct_actions,
        max_chance_outcomes=max_chance_outcomes,
        num_players=num_players,
        min_utility=min_utility,
        max_utility=1.0,
        utility_sum=0.0,
        max_game_length=max_game_length,
    )


class SpielGame(pyspiel.Game):  # type: ignore[misc]
    """A splash game as an OpenSpiel game; subclasses build ``encoding`` and the states."""

    encoding: Encoding

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> SplashObserver:
        """An observer of one seat (see :mod:`splash.envs.openspiel.observer`)."""
        return make_observer(self.encoding, iig_obs_type, params)
