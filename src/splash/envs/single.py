"""Single-agent Gymnasium environments: one seat against bots.

The learner plays ``seat`` (0 by default); every other seat is a bot named by a spec of
:func:`splash.bots.make_bot` (``opponents="greedy"``, or one spec per other seat), seeded
from the reset seed.  Observations are the float32 vectors of :mod:`splash.envs.encoding`;
the legal actions are ``info["action_mask"]`` and :meth:`SplashSingleEnv.action_masks`.
The reward is the seat's return at the end of the game (0 before), plus, with ``shaping``,
``shaping`` times the change of the seat's evaluation since its previous step
(:class:`~splash.envs.rewards.Shaping`).  An action that is not
legal ends the episode with ``illegal_reward`` and ``info["illegal_action"]`` saying what
was wrong; it never raises.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat, cast

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from splash.bots import make_bot
from splash.core.encoding import Mask, Vector
from splash.core.errors import OptionError, SplashError
from splash.core.i18n import message
from splash.core.play import Agent
from splash.envs.aec import RENDER_MODES, check_render_mode, render_state
from splash.envs.driver import Settings, Table, bash_table, tower_table
from splash.envs.encoding import observation_space
from splash.envs.rewards import Shaping, illegal_action

Info = dict[str, Any]


class SplashSingleEnv(gym.Env[Vector, np.int64]):
    """One seat of a game against bots (module docs)."""

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        table: Table,
        *,
        seat: int = 0,
        opponents: str | Sequence[str] = "random",
        illegal_reward: float = -1.0,
        shaping: float = 0.0,
        render_mode: str | None = None,
    ) -> None:
        seats = table.game.num_seats
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
            raise OptionError(
                "seat", seat, message("must be a seat from 0 to {last}", last=seats - 1)
            )
        others = [s for s in range(seats) if s != seat]
        specs = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(specs) != len(others):
            raise OptionError(
                "opponents",
                opponents,
                message(
                    "give one bot, or one for each of the {count} other seats", count=len(others)
                ),
            )
        for spec in specs:
            make_bot(spec, 0, game=table.game.id)  # refused now, not at the first reset
        check_render_mode(render_mode)
        self.shaping = Shaping(table.game.id, shaping)
        self.table = table
        self.seat = seat
        self.specs = dict(zip(others, specs, strict=True))
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        encoding = table.encoding
        self.observation_space = cast(spaces.Space[Vector], observation_space(encoding))
        self.action_space = spaces.Discrete(encoding.num_actions)
        self.bots: dict[int, Agent] = {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Vector, Info]:
        """A new game, played on until the learner's first decision."""
        super().reset(seed=seed)
        players = self.table.reset(seed)
        children = players.spawn(self.table.game.num_seats)
        game = self.table.game.id
        self.bots = {
            seat: make_bot(spec, children[seat], game=game) for seat, spec in self.specs.items()
        }
        self._play_others()
        self.shaping.reset(self.table.state)
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[Vector, SupportsFloat, bool, bool, Info]:
        """Apply the learner's action, then the bots' until the learner's next decision."""
        state = self.table.state
        try:
            chosen = self.table.encoding.action_of(state, action)
        except SplashError as error:
            info = self._info()
            info["illegal_action"] = illegal_action(action, error)
            return self._observation(), self.illegal_reward, True, False, info
        self.table.apply(chosen)
        self._play_others()
        state = self.table.state
        terminal = state.is_terminal()
        reward = float(state.returns()[self.seat]) if terminal else 0.0
        reward += self.shaping.rewards(state, (self.seat,))[self.seat]
        return self._observation(), reward, terminal, False, self._info()

    def _play_others(self) -> None:
        state = self.table.state
        while not state.is_terminal() and state.to_act() != self.seat:
            self.table.apply(self.bots[state.to_act()].act(state))
            state = self.table.state

    def _observation(self) -> Vector:
        return self.table.encoding.observation(self.table.state, self.seat)

    def action_masks(self) -> Mask:
        """The legal actions of the learner now (the convention of maskable learners)."""
        state = self.table.state
        if state.to_act() != self.seat:
            return np.zeros(self.table.encoding.num_actions, dtype=np.bool_)
        return self.table.encoding.legal_mask(state)

    def _info(self) -> Info:
        return {"action_mask": self.action_masks().astype(np.int8), "seat": self.seat}

    def render(self) -> Any:
        """The position as text (``ansi``), as an image (``rgb_array``), or written to the
        standard output (``human``, returning ``None``)."""
        return render_state(self.table.state, self.render_mode)


class BashEnv(SplashSingleEnv):
    """Splash & Bash for one team against bots (``gymnasium.make("splash/Bash-v0")``)."""

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        seat: int = 0,
        opponents: str | Sequence[str] = "random",
        illegal_reward: float = -1.0,
        shaping: float = 0.0,
        render_mode: str | None = None,
    ) -> None:
        super().__init__(
            bash_table(settings),
            seat=seat,
            opponents=opponents,
            illegal_reward=illegal_reward,
            shaping=shaping,
            render_mode=render_mode,
        )


class TowerEnv(SplashSingleEnv):
    """Splash! for one player against bots (``gymnasium.make("splash/Tower-v0")``)."""

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        seat: int = 0,
        opponents: str | Sequence[str] = "random",
        illegal_reward: float = -1.0,
        shaping: float = 0.0,
        ruling: str | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__(
            tower_table(settings, ruling=ruling),
            seat=seat,
            opponents=opponents,
            illegal_reward=illegal_reward,
            shaping=shaping,
            render_mode=render_mode,
        )
