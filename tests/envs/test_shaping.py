"""Shaped rewards: ``shaping`` times the change of an agent's evaluation (splash.sim.traces)
since its previous step, in the PettingZoo and Gymnasium environments; 0 by default."""

from __future__ import annotations

import math

import numpy as np
import pytest

from splash.core.errors import OptionError
from splash.envs import bash_env, bash_parallel_env, tower_env
from splash.envs.aec import SplashAECEnv
from splash.envs.single import BashEnv
from splash.games.bash import BashState
from splash.games.tower import TowerState
from splash.sim.traces import TowerEvaluator, bash_evaluation, bash_started, tower_started


def rewards_of_a_game(env: SplashAECEnv, seed: int) -> list[dict[str, float]]:
    """Every step's rewards of one game played with random legal actions."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen = []
    for _agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        seen.append(dict(env.rewards))
    return seen


def test_no_shaping_by_default_rewards_only_at_the_end() -> None:
    settings = ["options.turn_cap=150"]
    default = rewards_of_a_game(bash_env(settings), 4)
    zero = rewards_of_a_game(bash_env(settings, shaping=0.0), 4)
    assert default == zero
    assert all(value == 0.0 for step in default[:-1] for value in step.values())
    env = bash_env(settings)
    rewards_of_a_game(env, 4)
    state = env.table.state
    assert state.is_terminal()
    assert default[-1] == {a: float(state.returns()[s]) for s, a in enumerate(env.possible_agents)}


def test_a_shaped_step_is_the_change_of_the_movers_evaluation() -> None:
    shaping = 0.5
    env = bash_env(["options.turn_cap=150"], shaping=shaping)
    env.reset(seed=6)
    rng = np.random.default_rng(6)
    previous: dict[str, float] = {}
    checked = moved = 0
    while not any(env.terminations.values()):
        agent = env.agent_selection
        seat = env.seat_of(agent)
        mask = env.observe(agent)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
        state = env.table.state
        assert isinstance(state, BashState)
        if state.is_terminal() or not bash_started(state):
            continue
        after = bash_evaluation(state)
        if previous:
            expected = shaping * (after[seat] - previous[agent])
            assert env.rewards[agent] == pytest.approx(expected, abs=1e-12)
            checked += 1
            moved += expected != 0.0
        else:  # s_0, where the evaluations start
            previous = {a: after[env.seat_of(a)] for a in env.possible_agents}
            assert env.rewards[agent] == 0.0
        assert all(env.rewards[a] == 0.0 for a in env.possible_agents if a != agent)
        previous[agent] = after[seat]
    assert checked > 20 and moved > 5


def test_the_shaped_terms_of_a_game_add_up_to_the_change_of_evaluation() -> None:
    shaping = 0.25
    env = bash_env(["options.turn_cap=150"], shaping=shaping)
    steps = rewards_of_a_game(env, 9)
    state = env.table.state
    assert isinstance(state, BashState) and state.is_terminal()
    start = bash_env(["options.turn_cap=150"])
    start.reset(seed=9)
    rng = np.random.default_rng(9)
    while not bash_started(start.table.state):  # the same actions up to s_0
        mask = start.observe(start.agent_selection)["action_mask"]
        start.step(int(rng.choice(np.flatnonzero(mask))))
    first = start.table.state
    assert isinstance(first, BashState)
    v0, end = bash_evaluation(first), bash_evaluation(state)
    for seat, agent in enumerate(env.possible_agents):
        total = sum(step[agent] for step in steps)
        expected = state.returns()[seat] + shaping * (end[seat] - v0[seat])
        assert total == pytest.approx(expected, abs=1e-9)


def test_the_parallel_form_shapes_alike() -> None:
    env = bash_parallel_env(shaping=1.0)
    observations, _ = env.reset(seed=2)
    total = 0.0
    for _ in range(60):
        agent = env.aec_env.agent_selection
        action = int(np.flatnonzero(observations[agent]["action_mask"])[-1])
        observations, rewards, _, _, _ = env.step({agent: action})
        total += abs(rewards[agent])
    assert total > 0.0


def test_tower_shaping_follows_its_evaluation() -> None:
    shaping = 2.0
    env = tower_env(["options.players=2"], shaping=shaping)
    env.reset(seed=3)
    evaluate = TowerEvaluator()
    previous: dict[str, float] = {}
    checked = 0
    while env.table.state.placements < 4 and not any(env.terminations.values()):
        agent = env.agent_selection
        seat = env.seat_of(agent)
        state = env.table.state
        assert isinstance(state, TowerState)
        if tower_started(state) and not previous:
            values = evaluate(state)
            previous = {a: values[env.seat_of(a)] for a in env.possible_agents}
        env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[0]))
        if previous and not env.table.state.is_terminal():
            after = evaluate(env.table.state)[seat]
            expected = shaping * (after - previous[agent])
            assert env.rewards[agent] == pytest.approx(expected, abs=1e-12)
            checked += expected != 0.0
            previous[agent] = after
    assert checked > 0


def test_the_gymnasium_environment_shapes_the_learners_reward() -> None:
    shaping = 0.5
    env = BashEnv(settings={"options.turn_cap": 150}, opponents="greedy", shaping=shaping)
    _, info = env.reset(seed=1)
    before = None
    moved = 0
    for _ in range(40):
        state = env.table.state
        assert isinstance(state, BashState)
        if bash_started(state):
            before = bash_evaluation(state)[0]
        _, reward, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        if terminated:
            break
        after = env.table.state
        assert isinstance(after, BashState)
        if before is not None:
            assert reward == pytest.approx(shaping * (bash_evaluation(after)[0] - before))
            moved += reward != 0.0
    assert moved > 0
    plain = BashEnv(settings={"options.turn_cap": 150}, opponents="greedy")
    _, info = plain.reset(seed=1)
    for _ in range(40):
        _, reward, terminated, _, info = plain.step(int(np.flatnonzero(info["action_mask"])[0]))
        assert reward == 0.0 or terminated


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf, "0.5", None, True])
def test_shaping_must_be_a_finite_number(bad: object) -> None:
    for make in (
        lambda: bash_env(shaping=bad),
        lambda: bash_parallel_env(shaping=bad),
        lambda: BashEnv(shaping=bad),  # type: ignore[arg-type]
    ):
        with pytest.raises(OptionError) as refused:
            make()
        assert refused.value.key == "shaping" and refused.value.value is bad
