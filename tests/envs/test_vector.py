"""The vector environment on the compiled core: the reference encoding's observations and
masks on the same states, next-step autoreset, seeds, illegal actions, Gymnasium's checker."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode

from splash.core.errors import OptionError
from splash.envs.vector import BashVectorEnv


def legal_actions(env: BashVectorEnv, rng: np.random.Generator) -> np.ndarray:
    """A random legal action per game (0 where the game has ended: ignored then)."""
    return np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in env.mask])


@pytest.mark.parametrize("opponents", ["random", "greedy"])
def test_observations_and_masks_equal_the_reference_encoding(opponents: str) -> None:
    env = BashVectorEnv(3, seat=1, opponents=opponents, keep_log=True)
    rng = np.random.default_rng(5)
    obs, infos = env.reset(seed=11)
    compared = 0
    for _ in range(150):
        for b in range(env.num_envs):
            if env.fresh[b]:
                continue
            state = env.game.new_initial_state()
            for action in env.episode_actions(b):
                state.apply(env.game.action_space[action])
            assert np.array_equal(obs[b], env.encoding.observation(state, env.seat))
            expected = env.encoding.legal_mask(state) if state.to_act() == 1 else None
            if expected is None:
                assert not infos["action_mask"][b].any()
            else:
                assert np.array_equal(infos["action_mask"][b].astype(bool), expected)
            compared += 1
        obs, _, _, _, infos = env.step(legal_actions(env, rng))
    assert compared > 300


def test_observations_lie_in_the_bounds_of_the_spaces() -> None:
    env = BashVectorEnv(4, settings={"options.teams": 3}, opponents="greedy")
    rng = np.random.default_rng(2)
    obs, _ = env.reset(seed=21)
    for _ in range(300):
        assert env.observation_space.contains(obs)
        assert all(env.single_observation_space.contains(row) for row in obs)
        obs, *_ = env.step(legal_actions(env, rng))
    # the raw values the compiled encoder writes are left as they were
    assert env.obs.max() > 1


def test_next_step_autoreset() -> None:
    env = BashVectorEnv(2, settings={"options.turn_cap": 6})
    rng = np.random.default_rng(1)
    env.reset(seed=3)
    for _ in range(500):
        _, rewards, terminated, truncated, _ = env.step(legal_actions(env, rng))
        assert not truncated.any()
        if terminated.any():
            break
    b = int(np.flatnonzero(terminated)[0])
    obs, rewards, terminated, _, infos = env.step(np.full(2, 10_000))
    assert rewards[b] == 0.0 and not terminated[b]
    assert obs[b][env.encoding.layout["turn"].start] == 0.0
    assert infos["action_mask"][b].any()


def test_same_seeds_same_games_whatever_the_batch() -> None:
    def run(env: BashVectorEnv, seed: list[int]) -> list[np.ndarray]:
        rng = np.random.default_rng(0)
        obs, _ = env.reset(seed=seed)
        seen = [obs[0].copy()]
        for _ in range(100):
            actions = np.zeros(env.num_envs, np.int64)
            row = np.flatnonzero(env.mask[0])
            actions[0] = rng.choice(row) if row.size else 0
            obs, *_ = env.step(actions)
            seen.append(obs[0].copy())
        return seen

    one = run(BashVectorEnv(1, opponents="greedy"), [7])
    four = run(BashVectorEnv(4, opponents="greedy"), [7, 8, 9, 10])
    other = run(BashVectorEnv(1, opponents="greedy"), [8])
    assert all(np.array_equal(a, b) for a, b in zip(one, four, strict=True))
    assert any(not np.array_equal(a, b) for a, b in zip(one, other, strict=True))


def test_an_illegal_action_ends_the_game_with_the_penalty() -> None:
    env = BashVectorEnv(2, illegal_reward=-5.0)
    obs, infos = env.reset(seed=1)
    illegal = int(np.flatnonzero(infos["action_mask"][0] == 0)[0])
    legal = int(np.flatnonzero(infos["action_mask"][1])[0])
    after, rewards, terminated, _, infos = env.step(np.array([illegal, legal]))
    assert rewards[0] == -5.0 and terminated[0] and not terminated[1]
    assert np.array_equal(after[0], obs[0])
    assert infos["_illegal_action"].tolist() == [True, False]
    assert "not one of the legal actions" in infos["illegal_action"]["reason"][0]
    _, _, terminated, _, infos = env.step(np.array([0, 10_000]))
    assert terminated[1] and "no action index 10000" in infos["illegal_action"]["reason"][1]


def test_wrong_options_are_refused() -> None:
    with pytest.raises(OptionError, match="opponents"):
        BashVectorEnv(2, opponents="ismcts")
    with pytest.raises(OptionError, match="seat"):
        BashVectorEnv(2, seat=5)
    env = BashVectorEnv(2)
    with pytest.raises(OptionError, match="actions"):
        env.reset(seed=0)
        env.step(np.zeros(3, np.int64))
    with pytest.raises(OptionError, match="seed"):
        env.reset(seed=[1])


def test_the_single_game_view_passes_the_env_checker() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(gymnasium.make("splash/BashFast-v0", opponents="greedy").unwrapped)


def test_the_vector_env_is_registered() -> None:
    env = gymnasium.make_vec(
        "splash/BashFast-v0", num_envs=3, vectorization_mode="vector_entry_point"
    )
    assert isinstance(env.unwrapped, BashVectorEnv)
    assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    obs, _ = env.reset(seed=0)
    shape = env.single_observation_space.shape
    assert shape is not None and obs.shape == (3, *shape)
