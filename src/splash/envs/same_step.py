"""Several :class:`~splash.envs.vector.BashVectorEnv` batches as one, reset in the same step.

Stable-Baselines3 (and most PPO implementations) expect a vector environment whose finished
games start again *in the step that ends them*: the step returns the new game's first
observation, and the last observation of the game that ended is kept aside
(``infos[i]["terminal_observation"]``).  :class:`BashVectorEnv` resets on the *next* step
(``AutoresetMode.NEXT_STEP``); :class:`SameStepBash` translates, calling
:meth:`BashVectorEnv.restart` on the games that just ended.

It also joins batches: one per learning seat and opponent (``mixed``: half the games against
``random``, half against ``greedy``; every seat of the game in turn), so that one learner
sees both sides of the table.  It needs neither PyTorch nor Stable-Baselines3:
:mod:`splash.envs.sb3` wraps it in their ``VecEnv`` class.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from splash.core.encoding import Vector
from splash.core.errors import OptionError
from splash.core.i18n import message
from splash.envs.driver import Settings
from splash.envs.vector import OPPONENTS, BashVectorEnv

MIXES = (*OPPONENTS, "mixed")
"""The opponents :func:`bash_batches` knows: one compiled bot, or ``mixed`` (both)."""

StepResult = tuple[Vector, npt.NDArray[np.float32], npt.NDArray[np.bool_], list[dict[str, Any]]]


def bash_batches(
    num_envs: int,
    opponent: str = "mixed",
    settings: Settings | None = None,
    *,
    seats: Sequence[int] | None = None,
) -> list[BashVectorEnv]:
    """``num_envs`` games split evenly into one batch per learning seat (every seat, or
    ``seats``) and opponent (``opponent``, or both for ``mixed``), the first batches one
    game larger when it does not divide."""
    if opponent not in MIXES:
        raise OptionError(
            "opponent", opponent, message("must be one of {choices}", choices=", ".join(MIXES))
        )
    opponents = OPPONENTS if opponent == "mixed" else (opponent,)
    if seats is None:
        teams = BashVectorEnv(1, settings).game.num_seats
        seats = range(teams)
    kinds = [(seat, bot) for seat in seats for bot in opponents]
    if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < len(kinds):
        raise OptionError(
            "num_envs",
            num_envs,
            message("must be a whole number >= {least}", least=len(kinds)),
        )
    sizes = [num_envs // len(kinds) + (i < num_envs % len(kinds)) for i in range(len(kinds))]
    return [
        BashVectorEnv(size, settings, seat=seat, opponents=bot)
        for size, (seat, bot) in zip(sizes, kinds, strict=True)
    ]


class SameStepBash:
    """Batches of :class:`BashVectorEnv` played as one, finished games restarted in the step
    that ends them (module docs).  Rows are the batches' games in order."""

    def __init__(self, batches: Sequence[BashVectorEnv]) -> None:
        if not batches:
            raise OptionError("batches", 0, message("must be a whole number >= {least}", least=1))
        self.batches = list(batches)
        first = self.batches[0]
        for batch in self.batches[1:]:
            if batch.single_observation_space != first.single_observation_space:
                raise OptionError(
                    "batches", batch.seat, message("the batches' games must have the same options")
                )
        self.single_observation_space = first.single_observation_space
        self.single_action_space = first.single_action_space
        self.num_envs = sum(batch.num_envs for batch in self.batches)
        self._bounds = np.cumsum([0, *(batch.num_envs for batch in self.batches)])
        self._returns = np.zeros(self.num_envs, np.float64)
        self._lengths = np.zeros(self.num_envs, np.int64)

    def reset(self, seed: int | None = None) -> Vector:
        """New games everywhere; with ``seed``, row ``i`` gets the seed ``seed + i``."""
        parts = []
        for batch, start in zip(self.batches, self._bounds, strict=False):
            observations, _ = batch.reset(seed=None if seed is None else int(seed + start))
            parts.append(observations)
        self._returns[:] = 0.0
        self._lengths[:] = 0
        return np.concatenate(parts)

    def step(self, actions: npt.ArrayLike) -> StepResult:
        """One action per row.  Returns the observations (a finished game's row: the next
        game's first one), rewards, whether each row's game ended, and one info dict per row:
        ``terminal_observation`` and ``episode`` (``r`` the return, ``l`` the learner's
        decisions) for a game that ended, ``illegal_action`` for one ended by an action that
        was not legal."""
        chosen = np.asarray(actions).reshape(-1).astype(np.int64)
        if chosen.shape != (self.num_envs,):
            raise OptionError(
                "actions",
                list(np.shape(actions)),
                message("give one action index for each of the {count} games", count=self.num_envs),
            )
        parts: list[Vector] = []
        rewards = np.zeros(self.num_envs, np.float32)
        dones = np.zeros(self.num_envs, np.bool_)
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for batch, start, end in zip(self.batches, self._bounds, self._bounds[1:], strict=False):
            observations, reward, terminated, truncated, batch_infos = batch.step(chosen[start:end])
            ended = np.flatnonzero(np.logical_or(terminated, truncated))
            rewards[start:end] = reward
            dones[start:end] = np.logical_or(terminated, truncated)
            illegal = batch_infos.get("illegal_action")
            for b in ended:
                infos[start + b]["terminal_observation"] = observations[b].copy()
                if illegal is not None and bool(batch_infos["_illegal_action"][b]):
                    infos[start + b]["illegal_action"] = {
                        "action": int(illegal["action"][b]),
                        "reason": str(illegal["reason"][b]),
                    }
            if ended.size:
                observations[ended] = batch.restart(ended)
            parts.append(observations)
        self._returns += rewards
        self._lengths += 1
        for row in np.flatnonzero(dones):
            infos[row]["episode"] = {"r": float(self._returns[row]), "l": int(self._lengths[row])}
        self._returns[dones] = 0.0
        self._lengths[dones] = 0
        return np.concatenate(parts), rewards, dones, infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of every row now (``(num_envs, actions)`` bool)."""
        return np.concatenate([batch.action_masks() for batch in self.batches])

    def seats(self) -> npt.NDArray[np.int64]:
        """The learning seat of every row."""
        return np.concatenate([np.full(b.num_envs, b.seat, np.int64) for b in self.batches])

    def opponents(self) -> list[str]:
        """The opponent bot of every row (the first other seat's, with several)."""
        return [next(iter(b.opponents.values())) for b in self.batches for _ in range(b.num_envs)]


__all__ = ["MIXES", "SameStepBash", "bash_batches"]
