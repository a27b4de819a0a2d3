"""PettingZoo AEC environments of both games, built on the rules engines.

Agents are the seats: ``team_A``, ``team_B``, ... for Splash & Bash, ``player_0``,
``player_1``, ... for Splash!.  Each observation is ``{"observation": float32 vector,
"action_mask": int8 vector}`` (:mod:`splash.envs.encoding`); the mask is all zeros for an
agent that is not to act.  Chance outcomes (die rolls, card draws, deals, placements ruled by
the physics with the placer's tremor) are applied inside the environment from generators
seeded by ``reset(seed=...)``.  Rewards are the game's returns, given at the end; a game that
reaches its turn cap ends with every reward 0.  An illegal action raises
:class:`~splash.core.errors.IllegalActionError` and changes nothing.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from splash.core.errors import OptionError
from splash.core.i18n import message
from splash.envs import games
from splash.envs.driver import Settings, Table, bash_table, tower_table

RENDER_MODES = ("ansi", "rgb_array")
"""The render modes of every environment."""


def check_render_mode(render_mode: str | None) -> None:
    """Refuse a render mode no environment has (``None``: no rendering)."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise OptionError(
            "render_mode",
            render_mode,
            message("must be one of {choices}", choices=", ".join(RENDER_MODES)),
        )


Observation = dict[str, np.ndarray]


class SplashAECEnv(AECEnv):  # type: ignore[misc]
    """A turn-based game as a PettingZoo AEC environment (module docs)."""

    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": list(RENDER_MODES),
        "name": "splash_v0",
        "is_parallelizable": True,
    }

    def __init__(self, table: Table, agents: list[str], render_mode: str | None = None) -> None:
        super().__init__()
        check_render_mode(render_mode)
        self.table = table
        self.render_mode = render_mode
        self.possible_agents = list(agents)
        self.agents: list[str] = []
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        encoding = table.encoding
        low, high = encoding.layout.bounds()
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(low=low, high=high, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, (encoding.num_actions,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: spaces.Discrete(encoding.num_actions) for agent in self.possible_agents
        }
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = self.possible_agents[0]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same object at every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``: one index per action of the encoding."""
        return self.action_spaces[agent]

    def seat_of(self, agent: str) -> int:
        """The seat ``agent`` sits at."""
        return self._seat[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game.  The game's options are fixed when the environment is made (its
        ``settings``); ``options`` is accepted for the API and not read."""
        self.table.reset(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._select()

    def _select(self) -> None:
        state = self.table.state
        if state.is_terminal():
            returns = state.returns()
            for agent in self.agents:
                self.rewards[agent] = float(returns[self._seat[agent]])
                self.terminations[agent] = True
            return
        self.agent_selection = self.possible_agents[state.to_act()]

    def observe(self, agent: str) -> Observation:
        """What ``agent`` sees, and its action mask (zeros unless it is to act)."""
        state = self.table.state
        seat = self._seat[agent]
        encoding = self.table.encoding
        if state.to_act() == seat:
            mask = encoding.legal_mask(state).astype(np.int8)
        else:
            mask = np.zeros(encoding.num_actions, dtype=np.int8)
        return {"observation": encoding.observation(state, seat), "action_mask": mask}

    def step(self, action: int | np.integer[Any] | None) -> None:
        """Apply the selected agent's action (``None`` once it is done)."""
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            return
        if action is None:
            raise OptionError("action", action, message("a live agent must choose an action"))
        state = self.table.state
        chosen = self.table.encoding.action_of(state, int(action))
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.table.apply(chosen)
        self._select()
        self._accumulate_rewards()

    def render(self) -> str | np.ndarray | None:
        """The position as text (``ansi``) or as an image (``rgb_array``)."""
        if self.render_mode == "ansi":
            return games.ansi(self.table.state)
        if self.render_mode == "rgb_array":
            return games.rgb_array(self.table.state)
        return None

    def close(self) -> None:
        """Nothing to release."""


def _environment(game_id: str, table: Table, render_mode: str | None) -> SplashAECEnv:
    """The AEC environment of ``table``, its agents and name from :data:`ENVIRONMENTS`."""
    environment = games.ENVIRONMENTS[game_id]
    agents = [environment.agent(seat) for seat in range(table.game.num_seats)]
    env = SplashAECEnv(table, agents, render_mode)
    env.metadata = {**env.metadata, "name": environment.name}
    return env


def bash_env(settings: Settings | None = None, *, render_mode: str | None = None) -> SplashAECEnv:
    """Splash & Bash as a PettingZoo AEC environment; ``settings`` are ``--set`` style
    assignments (``["options.teams=3"]``, ``{"board.lanes.outer": 36}``)."""
    return _environment("bash", bash_table(settings), render_mode)


def tower_env(
    settings: Settings | None = None,
    *,
    ruling: str | None = None,
    render_mode: str | None = None,
) -> SplashAECEnv:
    """Splash! as a PettingZoo AEC environment, placements ruled by the physics; ``settings``
    are ``--set`` style assignments (``["options.players=3"]``), ``ruling`` the physics'
    ``physics.ruling`` (where the physics offers a choice)."""
    return _environment("tower", tower_table(settings, ruling=ruling), render_mode)


def bash_parallel_env(settings: Settings | None = None, *, render_mode: str | None = None) -> Any:
    """:func:`bash_env` in PettingZoo's parallel form (``turn_based_aec_to_parallel``)."""
    return turn_based_aec_to_parallel(bash_env(settings, render_mode=render_mode))


def tower_parallel_env(
    settings: Settings | None = None,
    *,
    ruling: str | None = None,
    render_mode: str | None = None,
) -> Any:
    """:func:`tower_env` in PettingZoo's parallel form (``turn_based_aec_to_parallel``)."""
    return turn_based_aec_to_parallel(tower_env(settings, ruling=ruling, render_mode=render_mode))
