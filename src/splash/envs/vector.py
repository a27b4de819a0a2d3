"""Splash & Bash as a Gymnasium vector environment: B games stepped in compiled code.

:class:`BashVectorEnv` plays ``num_envs`` games of the compiled core
(:mod:`splash.fast.vec_kernel`) for one learning team (``seat``) against random or compiled
greedy opponents.  Observations and masks are exactly those of
:class:`~splash.games.bash.encoding.BashEncoding` (the spaces of ``splash/Bash-v0``): the
observations as a ``(num_envs, size)`` float32 array, the masks in ``infos["action_mask"]``
(int8, ``(num_envs, actions)``) and from :meth:`BashVectorEnv.action_masks`.  A game that
ends (terminated: a winner, the turn cap, or an action that is not legal) is started again
on the next step, whose action for it is ignored (``autoreset_mode`` NEXT_STEP).  Each game
has its own generator, seeded by ``reset(seed=...)``: game ``i`` gets ``seed + i`` (or the
``i``-th of a list of seeds), so a game does not depend on the others.  The games are the
compiled core's, not those ``splash/Bash-v0`` plays with the same seed (another generator).

:class:`BashFastEnv` is one such game as a plain Gymnasium environment.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat, cast

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from splash.core.encoding import Vector
from splash.core.errors import IllegalActionError, MalformedActionError, OptionError, SplashError
from splash.core.i18n import message
from splash.envs.driver import Settings, bash_table
from splash.envs.encoding import observation_space
from splash.envs.rewards import illegal_action
from splash.fast import kernel as k
from splash.fast import vec_kernel as vk
from splash.fast.encoding import AWAITED_KINDS, encoding_table
from splash.fast.errors import FastLimitError
from splash.fast.greedy import GreedySettings, weight_array
from splash.fast.tables import build_tables
from splash.games.bash import BashGame
from splash.games.bash.board import TEAM_LETTERS
from splash.games.bash.encoding import BashEncoding

IntArray = npt.NDArray[np.int64]
Info = dict[str, Any]
OPPONENTS = ("random", "greedy")
"""The opponents the compiled core plays."""
LOG_SIZE = 1 << 14
"""Actions kept per episode with ``keep_log`` (a longer episode's log is not kept)."""


def describe(G: IntArray) -> str:
    """The public one-line description of the state array ``G`` (as ``BashState.describe``
    words it) while a team is to decide."""
    turn = int(G[k.S_TURNS]) + 1
    if G[k.S_PEND] != 0:
        kind = "discard" if G[k.S_QKIND] == k.Q_DISCARD else "lifebuoy"
        return f"turn {turn}, team {TEAM_LETTERS[int(G[k.S_QTEAM])]} to decide: {kind}"
    aw = int(G[k.S_AW])
    what = "window" if aw == k.AW_WINDOW else AWAITED_KINDS.get(aw, "none")
    return (
        f"turn {turn} (team {TEAM_LETTERS[int(G[k.S_TEAM])]}), "
        f"team {TEAM_LETTERS[int(G[k.S_AWT])]} to act: {what}"
    )


def _whole(name: str, value: object, least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < least:
        raise OptionError(name, value, message("must be a whole number >= {least}", least=least))
    return int(value)


class BashVectorEnv(VectorEnv[Vector, IntArray, npt.NDArray[Any]]):
    """``num_envs`` games of Splash & Bash for one team against bots (module docs)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int = 256,
        settings: Settings | None = None,
        *,
        seat: int = 0,
        opponents: str | Sequence[str] = "random",
        illegal_reward: float = -1.0,
        greedy: GreedySettings | None = None,
        keep_log: bool = False,
    ) -> None:
        self.num_envs = _whole("num_envs", num_envs, 1)
        game = bash_table(settings).game
        if not isinstance(game, BashGame):  # pragma: no cover - bash_table builds one
            raise TypeError(game)
        self.game = game
        self.tables = build_tables(game)
        self.encoding = BashEncoding(game)
        teams = game.num_seats
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < teams:
            raise OptionError(
                "seat", seat, message("must be a seat from 0 to {last}", last=teams - 1)
            )
        others = [t for t in range(teams) if t != seat]
        specs = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(specs) != len(others):
            raise OptionError(
                "opponents",
                opponents,
                message(
                    "give one bot, or one for each of the {count} other seats", count=len(others)
                ),
            )
        self.P = np.full(teams, k.POLICY_RANDOM, np.int64)
        for other, spec in zip(others, specs, strict=True):
            if spec not in OPPONENTS:
                raise OptionError(
                    "opponents",
                    spec,
                    message("must be one of {choices}", choices=", ".join(OPPONENTS)),
                )
            self.P[other] = k.POLICY_GREEDY if spec == "greedy" else k.POLICY_RANDOM
        self.opponents = dict(zip(others, specs, strict=True))
        self.W = weight_array(self.tables, greedy) if "greedy" in specs else None
        self.seat = seat
        self.illegal_reward = float(illegal_reward)
        self.Q = encoding_table(self.encoding, self.tables)
        self.single_observation_space = cast(spaces.Space[Vector], observation_space(self.encoding))
        self.single_action_space = spaces.Discrete(self.encoding.num_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        B, size = self.num_envs, self.encoding.layout.size
        G0 = self.tables.initial
        self.G = np.tile(G0, (B, 1))
        self.R = np.zeros((B, 1), np.uint64)
        self.obs = np.zeros((B, size), np.float32)
        self.mask = np.zeros((B, self.encoding.num_actions), np.int8)
        self.rewards = np.zeros(B, np.float64)
        self.done = np.zeros(B, np.bool_)
        self.status = np.zeros(B, np.int64)
        self.fresh = np.ones(B, np.bool_)
        self.log = np.zeros((B, LOG_SIZE if keep_log else 0), np.int32)
        self.alen = np.zeros(B, np.int64)
        self._seeded = False

    # ----- Gymnasium API ------------------------------------------------------------------

    def reset(
        self,
        *,
        seed: int | Sequence[int] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Vector, Info]:
        """New games everywhere, played on until the team's first decision.  ``seed``: game
        ``i`` gets ``seed + i``, or ``seed[i]`` for a list; ``None`` goes on with each
        game's generator (seeded from fresh entropy the first time)."""
        seeds = self._seeds(seed)
        if isinstance(seed, int | np.integer):
            super().reset(seed=int(seed))
        if seeds is not None:
            for b, value in enumerate(seeds):
                self.R[b, 0] = np.uint64(value)
                # The kernel's seeding: the state is the seed mixed once (kernel.seed_rng).
                self.R[b, 0] = _mix(self.R[b, 0])
            self._seeded = True
        self.fresh[:] = True
        self._run(np.zeros(self.num_envs, np.int64))
        self.fresh[:] = False
        return self.observations(), self._infos()

    def step(self, actions: Any) -> tuple[Vector, Any, Any, Any, Info]:
        """One action per game: a decision of the team, or ignored in a game that ended at
        the previous step (that game starts again).  An action that is not legal ends its
        game with ``illegal_reward`` and ``infos["illegal_action"]`` saying why."""
        chosen = self._actions(actions)
        self._run(chosen)
        terminated = self.done.copy()
        truncated = np.zeros(self.num_envs, np.bool_)
        infos = self._infos()
        for b in np.flatnonzero(self.status != vk.ST_OK):
            self._add_info(infos, {"illegal_action": self._illegal(int(b), chosen)}, int(b))
        self.fresh[:] = self.done
        return self.observations(), self.rewards.copy(), terminated, truncated, infos

    def observations(self) -> Vector:
        """Every game's observation now: the compiled encoder's raw values normalised as
        :class:`~splash.games.bash.encoding.BashEncoding` does (a new array)."""
        return self.encoding.layout.normalise(self.obs)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the team in each game now (maskable learners' convention)."""
        return self.mask.astype(np.bool_)

    def restart(self, games: Sequence[int] | IntArray) -> Vector:
        """Start new games now in the games ``games`` (indices), each on its own generator,
        played on until the team's first decision; the others are left as they are.  Returns
        the new games' observations (one row each, normalised); their masks are in
        :meth:`action_masks` at once.  This is what a learner that wants the next game's
        first observation in the same step (``AutoresetMode.SAME_STEP``) calls for the
        games that just ended, instead of stepping them once more."""
        index = np.asarray(games, np.int64).reshape(-1)
        if index.size and (index.min() < 0 or index.max() >= self.num_envs):
            raise OptionError(
                "games",
                index.tolist(),
                message("must be game indices from 0 to {last}", last=self.num_envs - 1),
            )
        n, size = index.size, self.encoding.layout.size
        if n == 0:
            return self.encoding.layout.normalise(np.zeros((0, size), np.float32))
        G, R = self.G[index], self.R[index]
        log, alen = self.log[index], self.alen[index]
        obs = np.zeros((n, size), np.float32)
        mask = np.zeros((n, self.encoding.num_actions), np.int8)
        rewards, status = np.zeros(n, np.float64), np.zeros(n, np.int64)
        done = np.zeros(n, np.bool_)
        found = int(
            vk.vec_step(
                self.tables.T,
                self.tables.initial,
                G,
                R,
                np.zeros(n, np.int64),
                np.ones(n, np.bool_),
                self.seat,
                self.illegal_reward,
                self.P,
                self.W,
                self.Q,
                obs,
                mask,
                rewards,
                done,
                status,
                log,
                alen,
            )
        )
        self.G[index], self.R[index], self.log[index], self.alen[index] = G, R, log, alen
        if found < 0:
            b = int(index[-1 - found])
            raise FastLimitError(b, int(self.G[b, k.S_ERR]))
        self.obs[index], self.mask[index] = obs, mask
        self.rewards[index], self.done[index], self.status[index] = 0.0, False, vk.ST_OK
        self.fresh[index] = False
        return self.encoding.layout.normalise(obs)

    def episode_actions(self, index: int) -> list[int]:
        """Every action of game ``index``'s current episode so far, chance and opponents
        included (with ``keep_log``; for replaying it through the reference engine)."""
        length = int(self.alen[index])
        if self.log.shape[1] == 0 or length > self.log.shape[1]:
            raise OptionError(
                "keep_log",
                self.log.shape[1] > 0,
                message(
                    "the episode's actions are kept only with keep_log=True, up to {most}",
                    most=LOG_SIZE,
                ),
            )
        return [int(a) for a in self.log[index, :length]]

    # ----- inside ---------------------------------------------------------------------------

    def _seeds(self, seed: int | Sequence[int] | None) -> list[int] | None:
        if seed is None:
            if self._seeded:
                return None
            entropy = np.random.SeedSequence().generate_state(self.num_envs, np.uint32)
            return [int(x) for x in entropy]
        if isinstance(seed, int | np.integer) and not isinstance(seed, bool):
            values = [int(seed) + b for b in range(self.num_envs)]
        elif isinstance(seed, Sequence) and len(seed) == self.num_envs:
            values = list(seed)
        else:
            raise OptionError(
                "seed",
                seed,
                message("give one seed, or one for each of the {count} games", count=self.num_envs),
            )
        for value in values:
            if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 0:
                raise OptionError("seed", value, message("a seed is a whole number, 0 or more"))
        return [int(v) % (1 << 64) for v in values]

    def _actions(self, actions: Any) -> IntArray:
        array = np.asarray(actions)
        if array.shape != (self.num_envs,) or array.dtype.kind not in "iu":
            raise OptionError(
                "actions",
                f"{array.dtype}{list(array.shape)}",
                message("give one action index for each of the {count} games", count=self.num_envs),
            )
        return cast(IntArray, np.clip(array, -1, np.iinfo(np.int64).max).astype(np.int64))

    def _run(self, actions: IntArray) -> None:
        done = int(
            vk.vec_step(
                self.tables.T,
                self.tables.initial,
                self.G,
                self.R,
                actions,
                self.fresh,
                self.seat,
                self.illegal_reward,
                self.P,
                self.W,
                self.Q,
                self.obs,
                self.mask,
                self.rewards,
                self.done,
                self.status,
                self.log,
                self.alen,
            )
        )
        if done < 0:
            b = -1 - done
            raise FastLimitError(b, int(self.G[b, k.S_ERR]))

    def _infos(self) -> Info:
        infos: Info = {
            "action_mask": self.mask.copy(),
            "_action_mask": np.ones(self.num_envs, np.bool_),
            "seat": np.full(self.num_envs, self.seat, np.int64),
            "_seat": np.ones(self.num_envs, np.bool_),
        }
        return infos

    def _illegal(self, b: int, actions: IntArray) -> Info:
        action = int(actions[b])
        try:
            self.encoding.check_index(action)
            error: SplashError = IllegalActionError(
                message("index {index}", index=action).render(),
                describe(self.G[b]),
                message("not one of the legal actions"),
            )
        except SplashError as refused:
            error = refused
        return dict(illegal_action(action, error))


def _mix(state: np.uint64) -> np.uint64:
    """One SplitMix64 output from ``state`` advanced once (``kernel.seed_rng``)."""
    with np.errstate(over="ignore"):
        z = np.uint64(state) + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return np.uint64(z ^ (z >> np.uint64(31)))


class BashFastEnv(gym.Env[Vector, np.int64]):
    """One game of :class:`BashVectorEnv` as a Gymnasium environment: the spaces, masks and
    illegal actions of ``splash/Bash-v0``, played by the compiled core."""

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        seat: int = 0,
        opponents: str | Sequence[str] = "random",
        illegal_reward: float = -1.0,
    ) -> None:
        self.vector = BashVectorEnv(
            1, settings, seat=seat, opponents=opponents, illegal_reward=illegal_reward
        )
        self.observation_space = self.vector.single_observation_space
        self.action_space = self.vector.single_action_space

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Vector, Info]:
        """A new game, played on until the team's first decision."""
        super().reset(seed=seed)
        if seed is None and not self.vector._seeded:
            seed = int(self.np_random.integers(0, 2**63 - 1))
        obs, infos = self.vector.reset(seed=None if seed is None else [seed])
        return obs[0], self._info(infos)

    def step(self, action: Any) -> tuple[Vector, SupportsFloat, bool, bool, Info]:
        """The team's action, then the others' until its next decision or the end."""
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            vector = self.vector
            info = {"action_mask": vector.mask[0].copy(), "seat": vector.seat}
            error = MalformedActionError(action, message("an action index is an integer"))
            info["illegal_action"] = illegal_action(action, error)
            vector.fresh[0] = True
            return vector.observations()[0], vector.illegal_reward, True, False, info
        obs, rewards, terminated, truncated, infos = self.vector.step(np.array([int(action)]))
        info = self._info(infos)
        if "illegal_action" in infos:
            info["illegal_action"] = {
                "action": int(action),
                "reason": str(infos["illegal_action"]["reason"][0]),
            }
        return obs[0], float(rewards[0]), bool(terminated[0]), bool(truncated[0]), info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the team now."""
        return cast(npt.NDArray[np.bool_], self.vector.action_masks()[0])

    @staticmethod
    def _info(infos: Info) -> Info:
        return {"action_mask": infos["action_mask"][0].copy(), "seat": int(infos["seat"][0])}


__all__ = ["OPPONENTS", "BashFastEnv", "BashVectorEnv", "describe", "encoding_table"]
