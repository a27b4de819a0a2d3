"""The single-agent Gymnasium environments: registration, Gymnasium's checker, illegal
actions as a penalty, seeds, opponents."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import splash.envs
from splash.core.errors import OptionError
from splash.envs.single import BashEnv, SplashSingleEnv, TowerEnv
from splash.games.tower import TowerState


def first_legal_episode(env: gymnasium.Env, seed: int, limit: int = 10_000) -> list[np.ndarray]:
    observation, info = env.reset(seed=seed)
    seen = [observation]
    for _ in range(limit):
        action = int(np.flatnonzero(info["action_mask"])[0])
        observation, _, terminated, truncated, info = env.step(action)
        seen.append(observation)
        if terminated or truncated:
            break
    return seen


def test_ids_are_registered_on_import() -> None:
    assert set(splash.envs.GYM_IDS) <= set(gymnasium.registry)
    env = gymnasium.make("splash/Bash-v0", opponents="greedy", settings=["options.teams=3"])
    assert isinstance(env.unwrapped, BashEnv)
    assert env.unwrapped.specs == {1: "greedy", 2: "greedy"}
    env.close()


def test_bash_passes_the_env_checker() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(gymnasium.make("splash/Bash-v0", opponents="greedy").unwrapped)


def test_tower_passes_the_env_checker() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(gymnasium.make("splash/Tower-v0", settings=["options.players=2"]).unwrapped)


def test_an_illegal_action_ends_the_episode_with_a_penalty() -> None:
    env = BashEnv(illegal_reward=-5.0)
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-5.0, True, False)
    assert info["illegal_action"]["action"] == illegal
    assert "not one of the legal actions" in info["illegal_action"]["reason"]
    _, _, terminated, _, info = env.step(10_000)
    assert terminated and "no action index 10000" in info["illegal_action"]["reason"]


def test_same_seed_same_episode() -> None:
    first = first_legal_episode(BashEnv(opponents="greedy"), seed=3)
    again = first_legal_episode(BashEnv(opponents="greedy"), seed=3)
    other = first_legal_episode(BashEnv(opponents="greedy"), seed=4)
    assert len(first) == len(again)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert len(first) != len(other) or any(
        not np.array_equal(a, b) for a, b in zip(first, other, strict=True)
    )


def test_the_learner_is_asked_only_for_its_own_seat() -> None:
    env = BashEnv(seat=1, settings={"options.turn_cap": 100})
    observation, info = env.reset(seed=2)
    steps = 0
    while True:
        assert env.table.state.to_act() == 1
        assert observation[env.table.encoding.layout["to_act"].slice].tolist() == [0, 1]
        assert np.array_equal(info["action_mask"].astype(bool), env.action_masks())
        observation, reward, terminated, _, info = env.step(
            int(np.flatnonzero(info["action_mask"])[0])
        )
        steps += 1
        if terminated:
            break
    assert reward == env.table.state.returns()[1]
    assert steps > 10


def test_opponents_are_checked() -> None:
    with pytest.raises(OptionError, match="unknown bot"):
        BashEnv(opponents="nobody")
    with pytest.raises(OptionError, match="other seats"):
        BashEnv(opponents=["random", "random"])
    with pytest.raises(OptionError):
        BashEnv(seat=2)
    env = BashEnv(settings=["options.teams=3"], opponents=["greedy", "random"])
    assert isinstance(env, SplashSingleEnv)
    assert env.specs == {1: "greedy", 2: "random"}


def test_tower_against_random_bots_plays_to_the_learners_decisions() -> None:
    env = TowerEnv(["options.players=3"], seat=2, render_mode="ansi")
    _, info = env.reset(seed=6)
    state = env.table.state
    assert isinstance(state, TowerState)
    assert state.to_act() == 2
    assert state.phase == "draft"
    assert len(state.reserves[0]) == 1 and len(state.reserves[1]) == 1
    assert info["action_mask"].sum() == 28
    assert "seat 2" in env.render()
