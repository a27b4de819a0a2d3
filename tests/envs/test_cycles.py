"""``max_cycles``, ``turns`` and ``illegal="refuse"`` of the PettingZoo environments, and
PettingZoo's ``max_cycles_test`` and ``render_test`` on both games.

A cycle is one step of every agent: as many agent steps as there are agents in the AEC form,
one step in the parallel form.  ``max_cycles_test`` steps with unmasked random actions and
expects every agent to step once a cycle, so it is given the refusing, round-robin form."""

from __future__ import annotations

import functools
import types
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import (
    api_test,
    max_cycles_test,
    parallel_api_test,
    render_test,
    seed_test,
)

from splash.core.errors import OptionError
from splash.envs import bash_env, bash_parallel_env, tower_env, tower_parallel_env
from splash.envs.aec import SplashAECEnv, SplashParallelEnv
from tests.envs.pettingzoo_warnings import expected_warnings

TWO_PLAYERS = ["options.players=2"]


def module(
    env: Callable[..., SplashAECEnv], parallel_env: Callable[..., SplashParallelEnv]
) -> types.SimpleNamespace:
    """A PettingZoo-style module of the refusing, round-robin AEC form and the refusing
    parallel form."""
    return types.SimpleNamespace(
        env=functools.partial(env, illegal="refuse", turns="round"),
        parallel_env=functools.partial(parallel_env, illegal="refuse"),
    )


def first_legal(env: SplashAECEnv, agent: str) -> int:
    return int(np.flatnonzero(env.observe(agent)["action_mask"])[0])


def test_bash_passes_the_max_cycles_test() -> None:
    max_cycles_test(module(bash_env, bash_parallel_env))
    three = ["options.teams=3"]
    max_cycles_test(
        module(functools.partial(bash_env, three), functools.partial(bash_parallel_env, three))
    )


def test_tower_passes_the_max_cycles_and_render_tests() -> None:
    max_cycles_test(
        module(
            functools.partial(tower_env, TWO_PLAYERS),
            functools.partial(tower_parallel_env, TWO_PLAYERS),
        )
    )
    render_test(functools.partial(tower_env, TWO_PLAYERS))


def test_bash_passes_the_render_test(capsys: pytest.CaptureFixture[str]) -> None:
    render_test(bash_env)
    assert "High tide deck" in capsys.readouterr().out


def test_round_robin_and_refusing_forms_pass_the_api_and_seed_tests() -> None:
    with expected_warnings():
        api_test(bash_env(turns="round", max_cycles=60), num_cycles=80)
        api_test(bash_env(illegal="refuse", shaping=0.5), num_cycles=80)
        seed_test(functools.partial(bash_env, turns="round"), num_cycles=60)
        parallel_api_test(bash_parallel_env(illegal="refuse"), num_cycles=60)


@pytest.mark.parametrize("teams", [2, 3])
def test_the_aec_form_is_truncated_after_as_many_decisions_as_cycles_times_agents(
    teams: int,
) -> None:
    env = bash_env([f"options.teams={teams}"], max_cycles=5)
    env.reset(seed=3)
    decisions = 0
    for agent in env.agent_iter():
        _, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            assert truncated and not terminated and reward == 0.0
            env.step(None)
            continue
        env.step(first_legal(env, agent))
        decisions += 1
    assert decisions == 5 * teams
    assert not env.table.state.is_terminal()
    assert env.agents == []


def test_the_parallel_form_is_truncated_after_max_cycles_steps() -> None:
    env = bash_parallel_env(max_cycles=7)
    observations, _ = env.reset(seed=2)
    steps = 0
    while env.agents:
        agent = env.aec_env.agent_selection
        action = int(np.flatnonzero(observations[agent]["action_mask"])[0])
        observations, rewards, terminations, truncations, _ = env.step({agent: action})
        steps += 1
    assert steps == 7
    assert all(truncations.values()) and not any(terminations.values())
    assert set(rewards.values()) == {0.0}
    env.max_cycles = None
    assert env.aec_env.max_cycles is None


def test_the_end_of_the_game_comes_before_the_truncation() -> None:
    env = bash_env(["options.turn_cap=200"], max_cycles=100_000)
    env.reset(seed=4)
    for agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            assert terminated and not truncated
            env.step(None)
        else:
            env.step(first_legal(env, agent))
    assert env.table.state.is_terminal()


def test_round_robin_selects_every_seat_in_order_and_ignores_the_others() -> None:
    env = bash_env(["options.teams=3"], turns="round")
    env.reset(seed=5)
    seen: list[str] = []
    ignored = 0
    for _ in range(60):
        agent = env.agent_selection
        seen.append(agent)
        mask = env.observe(agent)["action_mask"]
        before = env.table.state.to_json()
        if mask.any():
            env.step(int(np.flatnonzero(mask)[0]))
        else:
            env.step(None if ignored % 2 else 10_000)
            ignored += 1
            assert env.table.state.to_json() == before
            assert not any(env.terminations.values())
    assert seen == [f"team_{letter}" for letter in "ABC"] * 20
    assert ignored > 0


def test_a_refused_action_costs_one_and_the_game_goes_on() -> None:
    env = bash_env(illegal="refuse")
    env.reset(seed=6)
    offender = env.agent_selection
    before = env.table.state.to_json()
    illegal = int(np.flatnonzero(env.observe(offender)["action_mask"] == 0)[0])
    env.step(illegal)
    assert env.table.state.to_json() == before
    assert env.agent_selection == offender
    assert env.rewards == {a: (-1.0 if a == offender else 0.0) for a in env.possible_agents}
    assert not any(env.terminations.values()) and not any(env.truncations.values())
    record = env.infos[offender]["illegal_action"]
    assert record["action"] == illegal and "not one of the legal actions" in record["reason"]
    env.step(first_legal(env, offender))
    assert env.table.state.to_json() != before
    assert env.infos[offender] == {}


@pytest.mark.parametrize("bad", [0, -2, 2.5, True, "3"])
def test_a_wrong_max_cycles_is_refused(bad: Any) -> None:
    with pytest.raises(OptionError) as refused:
        bash_env(max_cycles=bad)
    assert refused.value.key == "max_cycles"
    with pytest.raises(OptionError):
        bash_parallel_env(max_cycles=bad)


def test_a_wrong_turns_is_refused() -> None:
    for bad in ("seat", None, 1):
        with pytest.raises(OptionError) as refused:
            bash_env(turns=bad)
        assert refused.value.key == "turns"
    with pytest.raises(OptionError, match="turns"):
        SplashParallelEnv(bash_env(turns="round"))
