"""Splash & Bash's compiled vector environment for Stable-Baselines3 and sb3-contrib.

:class:`BashSb3VecEnv` is a Stable-Baselines3 ``VecEnv`` over
:class:`~splash.envs.same_step.SameStepBash` (batches of
:class:`~splash.envs.vector.BashVectorEnv`): finished games start again in the step that
ends them, the last observation in ``infos[i]["terminal_observation"]``, as Stable-Baselines3
expects, and ``infos[i]["episode"]`` gives the game's return and length (what its ``Monitor``
would write, for the ``ep_rew_mean`` of its logs).  sb3-contrib's ``MaskablePPO`` reads the
legal actions through ``env_method("action_masks")`` (``get_action_masks``), one mask a row.

This module needs the optional extra ``rl`` (``pip install 'splash-games[rl]'``); nothing
else in :mod:`splash` imports it.

>>> from sb3_contrib import MaskablePPO  # doctest: +SKIP
>>> env = make_sb3_env(256, "mixed", seed=0)  # doctest: +SKIP
>>> MaskablePPO("MlpPolicy", env).learn(100_000)  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt

try:
    from stable_baselines3.common.vec_env import VecEnv
except ImportError as missing:  # the optional extra is not installed
    raise ImportError(
        "splash.envs.sb3 needs the optional extra 'rl' (stable-baselines3, sb3-contrib, torch):"
        " pip install 'splash-games[rl]'",
        name=missing.name,
    ) from None

from splash.envs.driver import Settings
from splash.envs.same_step import SameStepBash, bash_batches

Indices = None | int | Iterable[int]


class BashSb3VecEnv(VecEnv):  # type: ignore[misc]
    """A Stable-Baselines3 ``VecEnv`` of Splash & Bash games on the compiled core."""

    def __init__(self, games: SameStepBash, seed: int | None = None) -> None:
        self.games = games
        super().__init__(games.num_envs, games.single_observation_space, games.single_action_space)
        self._first_seed = seed
        self._actions = np.zeros(games.num_envs, np.int64)

    # ----- VecEnv ---------------------------------------------------------------------------

    def reset(self) -> npt.NDArray[np.float32]:
        """New games everywhere (seeded by the constructor's ``seed`` the first time, or by
        :meth:`seed`; afterwards each game goes on with its own generator)."""
        seed = self._seeds[0] if self._seeds and self._seeds[0] is not None else self._first_seed
        self._first_seed = None
        self._reset_seeds()
        self._reset_options()
        return self.games.reset(None if seed is None else int(seed))

    def step_async(self, actions: npt.NDArray[Any]) -> None:
        """Keep the actions for :meth:`step_wait`."""
        self._actions = np.asarray(actions).reshape(-1).astype(np.int64)

    def step_wait(self) -> tuple[npt.NDArray[np.float32], Any, Any, list[dict[str, Any]]]:
        """Step every game (module docs)."""
        return self.games.step(self._actions)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Every row's legal actions (``(num_envs, actions)`` bool)."""
        return self.games.action_masks()

    def close(self) -> None:
        """Nothing to release."""

    def get_attr(self, attr_name: str, indices: Indices = None) -> list[Any]:
        """The attribute of each row's game: the same for every row but ``seat`` and
        ``opponent``."""
        rows = list(self._get_indices(indices))
        if attr_name == "seat":
            seats = self.games.seats()
            return [int(seats[i]) for i in rows]
        if attr_name == "opponent":
            opponents = self.games.opponents()
            return [opponents[i] for i in rows]
        value = getattr(self.games.batches[0], attr_name)
        return [value for _ in rows]

    def has_attr(self, attr_name: str) -> bool:
        """Whether the games have ``attr_name`` (``action_masks``: yes, for sb3-contrib)."""
        return attr_name in {"seat", "opponent"} or hasattr(self.games.batches[0], attr_name)

    def set_attr(self, attr_name: str, value: Any, indices: Indices = None) -> None:
        """Set an attribute on every batch (the games share their options)."""
        for batch in self.games.batches:
            setattr(batch, attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: Indices = None, **method_kwargs: Any
    ) -> list[Any]:
        """``action_masks``: one mask a row (what sb3-contrib's ``get_action_masks`` stacks);
        another method is called on every batch."""
        rows = list(self._get_indices(indices))
        if method_name == "action_masks":
            masks = self.games.action_masks()
            return [masks[i] for i in rows]
        return [getattr(b, method_name)(*method_args, **method_kwargs) for b in self.games.batches]

    def env_is_wrapped(
        self, wrapper_class: type[gym.Wrapper[Any, Any, Any, Any]], indices: Indices = None
    ) -> list[bool]:
        """No row is a wrapped Gymnasium environment."""
        return [False for _ in self._get_indices(indices)]


def make_sb3_env(
    num_envs: int = 256,
    opponent: str = "mixed",
    settings: Settings | None = None,
    *,
    seed: int | None = None,
    seats: Sequence[int] | None = None,
) -> BashSb3VecEnv:
    """``num_envs`` games for a Stable-Baselines3 learner, split between the learning seats
    and the opponents as :func:`~splash.envs.same_step.bash_batches` does, seeded with
    ``seed`` (row ``i``: ``seed + i``) at the first reset."""
    return BashSb3VecEnv(
        SameStepBash(bash_batches(num_envs, opponent, settings, seats=seats)), seed
    )


__all__ = ["BashSb3VecEnv", "make_sb3_env"]
