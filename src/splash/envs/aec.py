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
:class:`~splash.core.errors.IllegalActionError` and changes nothing.  With
``illegal="refuse"`` it costs the offender -1, its ``info["illegal_action"]`` says why (until
its next step), the position is left as it was, and the game goes on.  The parallel form uses
the action of the agent to act and ignores the others'.

Turns (``turns``): with ``"decider"`` (the default) only the agent to decide is ever selected,
so one team may be selected many times in a row.  With ``"round"`` every agent is selected in
turn, in seat order, whether or not it is to decide: an agent that is not to decide sees an
all-zero mask and its action is ignored, whatever it is.

Cycles (``max_cycles``): a cycle is one step of every agent, as PettingZoo counts them, that is
as many agent steps as there are agents in the AEC form (with ``turns="round"``, one round of
the seats; with ``"decider"``, that many decisions of any agents) and one step in the parallel
form (every agent submits an action, one decision is made).  A step by an agent counts whether
it decides, is refused or is ignored.  Once ``max_cycles`` cycles are stepped and the game is
not over, every agent is truncated with a reward of 0 (and its shaped term since its last
step); ``None`` (the default) never truncates.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, cast

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.conversions import turn_based_aec_to_parallel_wrapper

from splash.core.errors import OptionError, SplashError
from splash.core.i18n import message
from splash.core.protocol import State
from splash.envs import games
from splash.envs.driver import Settings, Table, bash_table, game_table, tower_table
from splash.envs.rewards import Illegal, Shaping, check_illegal, illegal_action

RENDER_MODES = ("ansi", "rgb_array", "human")
"""The render modes of every environment: the text picture returned (``ansi``), an RGB image
returned (``rgb_array``), the text picture written to the standard output (``human``)."""

Turns = Literal["decider", "round"]
TURNS: tuple[Turns, ...] = ("decider", "round")
"""How the AEC environments select agents (module docs)."""


def check_render_mode(render_mode: str | None) -> None:
    """Refuse a render mode no environment has (``None``: no rendering)."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise OptionError(
            "render_mode",
            render_mode,
            message("must be one of {choices}", choices=", ".join(RENDER_MODES)),
        )


def check_turns(turns: object) -> Turns:
    """``turns`` when it is one of :data:`TURNS`."""
    if not isinstance(turns, str) or turns not in TURNS:
        raise OptionError(
            "turns", turns, message("must be one of {choices}", choices=", ".join(TURNS))
        )
    return turns


def check_max_cycles(max_cycles: object) -> int | None:
    """``max_cycles`` when it is ``None`` or a positive whole number."""
    if max_cycles is None:
        return None
    if (
        isinstance(max_cycles, bool)
        or not isinstance(max_cycles, int | np.integer)
        or int(max_cycles) < 1
    ):
        raise OptionError("max_cycles", max_cycles, message("must be a positive whole number"))
    return int(max_cycles)


def render_state(state: State, render_mode: str | None) -> str | np.ndarray | None:
    """``state`` as ``render_mode`` shows it (:data:`RENDER_MODES`; ``None``: nothing)."""
    if render_mode == "ansi":
        return games.ansi(state)
    if render_mode == "rgb_array":
        return games.rgb_array(state)
    if render_mode == "human":
        sys.stdout.write(games.ansi(state) + "\n")
    return None


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
        max_cycles: int | None = None,
        turns: Turns = "decider",
        steps_per_cycle: int | None = None,
    ) -> None:
        super().__init__()
        check_render_mode(render_mode)
        self.illegal: Illegal = check_illegal(illegal)
        self.shaping = Shaping(table.game.id, shaping)
        self.max_cycles = max_cycles
        self.turns: Turns = check_turns(turns)
        self.steps_per_cycle = len(agents) if steps_per_cycle is None else steps_per_cycle
        """Agent steps a cycle counts (module docs): the agents' number, 1 in the parallel
        form."""
        self.steps = 0
        """Agent steps of live agents since the reset."""
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

    @property
    def max_cycles(self) -> int | None:
        """The cycles after which the game is truncated (module docs); ``None``: never."""
        return self._max_cycles

    @max_cycles.setter
    def max_cycles(self, max_cycles: int | None) -> None:
        self._max_cycles = check_max_cycles(max_cycles)

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
        self.steps = 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        if self.turns == "round":
            self.agent_selection = self.possible_agents[0]
        else:
            self.agent_selection = self.possible_agents[self.table.state.to_act()]

    def _select(self, stepped: str, moved: bool) -> None:
        """After a live step of ``stepped`` (``moved``: the position changed by it): the
        rewards, the end or the truncation of the game, and the next agent."""
        state = self.table.state
        self.steps += 1
        if state.is_terminal():
            returns = state.returns()
            shaped = self.shaping.rewards(state, (self._seat[agent] for agent in self.agents))
            for agent in self.agents:
                seat = self._seat[agent]
                self.rewards[agent] += float(returns[seat]) + shaped[seat]
                self.terminations[agent] = True
            return
        if self._max_cycles is not None and self.steps >= self._max_cycles * self.steps_per_cycle:
            shaped = self.shaping.rewards(state, (self._seat[agent] for agent in self.agents))
            for agent in self.agents:
                self.rewards[agent] += shaped[self._seat[agent]]
                self.truncations[agent] = True
            return
        if moved:
            seat = self._seat[stepped]
            self.rewards[stepped] += self.shaping.rewards(state, (seat,))[seat]
        if self.turns == "round":
            following = (self._seat[stepped] + 1) % len(self.possible_agents)
            self.agent_selection = self.possible_agents[following]
        else:
            self.agent_selection = self.possible_agents[state.to_act()]

    def _decides(self, agent: str) -> bool:
        """Whether ``agent`` is the one to decide now."""
        return not self._stopped and self.table.state.to_act() == self._seat[agent]

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
        if self._decides(agent):
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
        if not self._decides(agent):
            self._begin_step(agent)
            self._select(agent, moved=False)
            self._accumulate_rewards()
            return
        if action is None:
            raise OptionError("action", action, message("a live agent must choose an action"))
        try:
            chosen = self.table.encoding.action_of(self.table.state, action)
        except SplashError as error:
            if self.illegal == "raise":
                raise
            self._begin_step(agent)
            if self.illegal == "refuse":
                self.rewards[agent] = -1.0
                self.infos[agent] = {"illegal_action": illegal_action(action, error)}
                self._select(agent, moved=False)
            else:
                self._stop(agent, action, error)
        else:
            self._begin_step(agent)
            self.infos[agent] = {}
            self.table.apply(chosen)
            self._select(agent, moved=True)
        self._accumulate_rewards()

    def _begin_step(self, agent: str) -> None:
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()

    def render(self) -> str | np.ndarray | None:
        """The position as text (``ansi``), as an image (``rgb_array``), or written to the
        standard output (``human``, returning ``None``)."""
        return render_state(self.table.state, self.render_mode)

    def close(self) -> None:
        """Nothing to release."""


class SplashParallelEnv(turn_based_aec_to_parallel_wrapper):  # type: ignore[misc]
    """A :class:`SplashAECEnv` in PettingZoo's parallel form: each step uses the action of the
    agent to act and ignores the others'; each step is a cycle (module docs)."""

    def __init__(self, aec_env: SplashAECEnv) -> None:
        if aec_env.turns != "decider":
            raise OptionError(
                "turns", aec_env.turns, message("the parallel form steps the agent to decide")
            )
        aec_env.steps_per_cycle = 1
        super().__init__(aec_env)
        self.aec_env: SplashAECEnv = aec_env

    @property
    def max_cycles(self) -> int | None:
        """The steps after which the game is truncated; ``None``: never."""
        return self.aec_env.max_cycles

    @max_cycles.setter
    def max_cycles(self, max_cycles: int | None) -> None:
        self.aec_env.max_cycles = max_cycles

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


@dataclass(frozen=True)
class _Options:
    """The options every AEC factory passes on to :class:`SplashAECEnv`."""

    render_mode: str | None
    illegal: Illegal
    shaping: float
    max_cycles: int | None
    turns: Turns


def _environment(game_id: str, table: Table, options: _Options) -> SplashAECEnv:
    """The AEC environment of ``table``, its agents and name from
    :func:`~splash.envs.games.environment`."""
    environment = games.environment(game_id)
    agents = [environment.agent(seat) for seat in range(table.game.num_seats)]
    env = SplashAECEnv(
        table,
        agents,
        options.render_mode,
        illegal=options.illegal,
        shaping=options.shaping,
        max_cycles=options.max_cycles,
        turns=options.turns,
    )
    env.metadata = {**env.metadata, "name": environment.name}
    return env


def game_env(
    game_id: str,
    settings: Settings | None = None,
    *,
    render_mode: str | None = None,
    illegal: Illegal = "terminate",
    shaping: float = 0.0,
    max_cycles: int | None = None,
    turns: Turns = "decider",
) -> SplashAECEnv:
    """Any game of :data:`splash.games.GAMES` as a PettingZoo AEC environment, the chance
    events its physics rules ruled by it (:func:`~splash.envs.driver.game_table`);
    ``settings`` and the other options as for :func:`bash_env`."""
    table = game_table(game_id, settings)
    options = _Options(render_mode, illegal, shaping, max_cycles, turns)
    return _environment(game_id, table, options)


def bash_env(
    settings: Settings | None = None,
    *,
    render_mode: str | None = None,
    illegal: Illegal = "terminate",
    shaping: float = 0.0,
    max_cycles: int | None = None,
    turns: Turns = "decider",
) -> SplashAECEnv:
    """Splash & Bash as a PettingZoo AEC environment; ``settings`` are ``--set`` style
    assignments (``["options.teams=3"]``, ``{"board.lanes.outer": 36}``), ``illegal``,
    ``shaping``, ``max_cycles`` and ``turns`` as in the module docs."""
    table = bash_table(settings)
    options = _Options(render_mode, illegal, shaping, max_cycles, turns)
    return _environment("bash", table, options)


def tower_env(
    settings: Settings | None = None,
    *,
    ruling: str | None = None,
    render_mode: str | None = None,
    illegal: Illegal = "terminate",
    shaping: float = 0.0,
    max_cycles: int | None = None,
    turns: Turns = "decider",
) -> SplashAECEnv:
    """Splash! as a PettingZoo AEC environment, placements ruled by the physics; ``settings``
    are ``--set`` style assignments (``["options.players=3"]``), ``ruling`` the physics'
    ``physics.ruling`` (where the physics offers a choice), the other options as for
    :func:`bash_env`."""
    table = tower_table(settings, ruling=ruling)
    options = _Options(render_mode, illegal, shaping, max_cycles, turns)
    return _environment("tower", table, options)


def bash_parallel_env(
    settings: Settings | None = None,
    *,
    render_mode: str | None = None,
    illegal: Illegal = "terminate",
    shaping: float = 0.0,
    max_cycles: int | None = None,
) -> SplashParallelEnv:
    """:func:`bash_env` in PettingZoo's parallel form (:class:`SplashParallelEnv`), truncated
    after ``max_cycles`` steps."""
    return SplashParallelEnv(
        bash_env(
            settings,
            render_mode=render_mode,
            illegal=illegal,
            shaping=shaping,
            max_cycles=max_cycles,
        )
    )


def tower_parallel_env(
    settings: Settings | None = None,
    *,
    ruling: str | None = None,
    render_mode: str | None = None,
    illegal: Illegal = "terminate",
    shaping: float = 0.0,
    max_cycles: int | None = None,
) -> SplashParallelEnv:
    """:func:`tower_env` in PettingZoo's parallel form (:class:`SplashParallelEnv`), truncated
    after ``max_cycles`` steps."""
    env = tower_env(
        settings,
        ruling=ruling,
        render_mode=render_mode,
        illegal=illegal,
        shaping=shaping,
        max_cycles=max_cycles,
    )
    return SplashParallelEnv(env)
