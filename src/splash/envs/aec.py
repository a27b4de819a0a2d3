"""PettingZoo AEC environments of both games, built on the rules engines.

Agents are the seats: ``team_A``, ``team_B``, ... for Splash & Bash, ``player_0``,
``player_1``, ... for Splash!.  Each observation is ``{"observation": float32 vector,
"action_mask": int8 vector}`` (:mod:`splash.envs.encoding`); the mask is all zeros for an
agent that is not to act.  Chance outcomes (die rolls, card draws, deals, placements ruled by
the physics with the placer's tremor) are applied inside the environment from generators
seeded by ``reset(seed=...)``.  Rewards are the game's returns, given at the end; a game that
reaches its turn cap ends with every reward 0.  With ``shaping``
(:class:`~splash.envs.rewards.Shaping`), each step also rewards the agent to act by
``shaping`` times the change of its evaluation since its previous step, and the end rewards
every agent so for the change since its last step.

An illegal action (``illegal="terminate"``, the default) ends the game: -1 to the offender, 0
to the others, every agent terminated, and the offender's ``info["illegal_action"]`` says what
was wrong; the position is left as it was.  With ``illegal="raise"`` it raises
:class:`~splash.core.errors.IllegalActionError` and changes nothing.  The parallel form uses
the action of the agent to act and ignores the others'.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.conversions import turn_based_aec_to_parallel_wrapper

from splash.core.errors import OptionError, SplashError
from splash.core.i18n import message
from splash.envs import games
from splash.envs.driver import Settings, Table, bash_table, game_table, tower_table
from splash.envs.rewards import Illegal, Shaping, check_illegal, illegal_action

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

    def __init__(
        self,
        table: Table,
        agents: list[str],
        render_mode: str | None = None,
        *,
        illegal: Illegal = "terminate",
        shaping: float = 0.0,
    ) -> None:
        super().__init__()
        check_render_mode(render_mode)
        self.illegal: Illegal = check_illegal(illegal)
        self.shaping = Shaping(table.game.id, shaping)
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
        self._stopped = False

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
        self.shaping.reset(self.table.state)
        self._stopped = False
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._select()

    def _select(self, mover: str | None = None) -> None:
        state = self.table.state
        if state.is_terminal():
            returns = state.returns()
            shaped = self.shaping.rewards(state, (self._seat[agent] for agent in self.agents))
            for agent in self.agents:
                seat = self._seat[agent]
                self.rewards[agent] = float(returns[seat]) + shaped[seat]
                self.terminations[agent] = True
            return
        if mover is not None:
            seat = self._seat[mover]
            self.rewards[mover] += self.shaping.rewards(state, (seat,))[seat]
        self.agent_selection = self.possible_agents[state.to_act()]

    def _stop(self, agent: str, action: object, error: SplashError) -> None:
        """End the game for ``agent``'s illegal ``action``."""
        self._stopped = True
        for other in self.agents:
            self.rewards[other] = -1.0 if other == agent else 0.0
            self.terminations[other] = True
        self.infos[agent] = {**self.infos[agent], "illegal_action": illegal_action(action, error)}

    def observe(self, agent: str) -> Observation:
        """What ``agent`` sees, and its action mask (zeros unless it is to act)."""
        state = self.table.state
        seat = self._seat[agent]
        encoding = self.table.encoding
        if state.to_act() == seat and not self._stopped:
            mask = encoding.legal_mask(state).astype(np.int8)
        else:
            mask = np.zeros(encoding.num_actions, dtype=np.int8)
        return {"observation": encoding.observation(state, seat), "action_mask": mask}

    def step(self, action: Any) -> None:
        """Apply the selected agent's action (``None`` once it is done)."""
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            return
        if action is None:
            raise OptionError("action", action, message("a live agent must choose an action"))
        try:
            chosen = self.table.encoding.action_of(self.table.state, action)
        except SplashError as error:
            if self.illegal == "raise":
                raise
            self._begin_step(agent)
            self._stop(agent, action, error)
        else:
            self._begin_step(agent)
            self.table.apply(chosen)
            self._select(agent)
        self._accumulate_rewards()

    def _begin_step(self, agent: str) -> None:
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()

    def render(self) -> str | np.ndarray | None:
        """The position as text (``ansi``) or as an image (``rgb_array``)."""
        if self.render_mode == "ansi":
            return games.ansi(self.table.state)
        if self.render_mode == "rgb_array":
            return games.rgb_array(self.table.state)
        return None

    def close(self) -> None:
        """Nothing to release."""


class SplashParallelEnv(turn_based_aec_to_parallel_wrapper):  # type: ignore[misc]
    """A :class:`SplashAECEnv` in PettingZoo's parallel form: each step uses the action of the
    agent to act and ignores the others'."""

    def __init__(self, aec_env: SplashAECEnv) -> None:
        super().__init__(aec_env)
        self.aec_env: SplashAECEnv = aec_env

    def step(self, actions: Mapping[str, Any]) -> tuple[dict[str, Any], ...]:
        """Apply the action of the agent to act (``actions`` maps agents to actions)."""
        if not isinstance(actions, Mapping):
            raise OptionError(
                "actions", actions, message("the actions are a mapping from agents to actions")
            )
        if self.agents:
            agent = self.aec_env.agent_selection
            if agent not in actions:
                raise OptionError(
                    "actions",
                    actions,
                    message("no action for {agent}, the agent to act", agent=agent),
                )
            actions = {agent: actions[agent]}
        return cast(tuple[dict[str, Any], ...], super().step(actions))


def _environment(
    game_id: str, table: Table, render_mode: str | None, illegal: Illegal, shaping: float
) -> SplashAECEnv:
    """The AEC environment of ``table``, its agents and name from
    :func:`~splash.envs.games.environment`."""
    environment = games.environment(game_id)
    agents = [environment.agent(seat) for seat in range(table.game.num_seats)]
    env = SplashAECEnv(table, agents, render_mode, illegal=illegal, shaping=shaping)
    env.metadata = {**env.metadata, "name": environment.name}
    return env


def game_env(
    game_id: str,
    settings: Settings | None = None,
    *,
    render_mode: str | None = None,
    illegal: Illegal = "terminate",
    shaping: float = 0.0,
) -> SplashAECEnv:
    """Any game of :data:`splash.games.GAMES` as a PettingZoo AEC environment, the chance
    events its physics rules ruled by it (:func:`~splash.envs.driver.game_table`);
    ``settings``, ``illegal`` and ``shaping`` as for :func:`bash_env`."""
    return _environment(game_id, game_table(game_id, settings), render_mode, illegal, shaping)


def bash_env(
    settings: Settings | None = None,
    *,
    render_mode: str | None = None,
    illegal: Illegal = "terminate",
    shaping: float = 0.0,
) -> SplashAECEnv:
    """Splash & Bash as a PettingZoo AEC environment; ``settings`` are ``--set`` style
    assignments (``["options.teams=3"]``, ``{"board.lanes.outer": 36}``), ``illegal`` and
    ``shaping`` as in the module docs."""
    return _environment("bash", bash_table(settings), render_mode, illegal, shaping)


def tower_env(
    settings: Settings | None = None,
    *,
    ruling: str | None = None,
    render_mode: str | None = None,
    illegal: Illegal = "terminate",
    shaping: float = 0.0,
) -> SplashAECEnv:
    """Splash! as a PettingZoo AEC environment, placements ruled by the physics; ``settings``
    are ``--set`` style assignments (``["options.players=3"]``), ``ruling`` the physics'
    ``physics.ruling`` (where the physics offers a choice), ``illegal`` and ``shaping`` as in
    the module docs."""
    table = tower_table(settings, ruling=ruling)
    return _environment("tower", table, render_mode, illegal, shaping)


def bash_parallel_env(
    settings: Settings | None = None,
    *,
    render_mode: str | None = None,
    illegal: Illegal = "terminate",
    shaping: float = 0.0,
) -> SplashParallelEnv:
    """:func:`bash_env` in PettingZoo's parallel form (:class:`SplashParallelEnv`)."""
    return SplashParallelEnv(
        bash_env(settings, render_mode=render_mode, illegal=illegal, shaping=shaping)
    )


def tower_parallel_env(
    settings: Settings | None = None,
    *,
    ruling: str | None = None,
    render_mode: str | None = None,
    illegal: Illegal = "terminate",
    shaping: float = 0.0,
) -> SplashParallelEnv:
    """:func:`tower_env` in PettingZoo's parallel form (:class:`SplashParallelEnv`)."""
    env = tower_env(
        settings, ruling=ruling, render_mode=render_mode, illegal=illegal, shaping=shaping
    )
    return SplashParallelEnv(env)
