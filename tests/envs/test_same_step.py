"""Same-step autoreset over the compiled vector environment (:mod:`splash.envs.same_step`),
what Stable-Baselines3 expects; no PyTorch needed."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from splash.core.errors import OptionError
from splash.envs.same_step import SameStepBash, bash_batches
from splash.envs.vector import BashVectorEnv

TERMINAL = -1  # the last entry of the vector: the game is over


def random_actions(masks: npt.NDArray[np.bool_], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """A uniform legal action in each row."""
    return np.array([rng.choice(np.flatnonzero(row)) for row in masks], np.int64)


def test_batches_cover_every_seat_and_opponent() -> None:
    batches = bash_batches(10, "mixed")
    assert [(b.seat, b.opponents[1 - b.seat], b.num_envs) for b in batches] == [
        (0, "random", 3),
        (0, "greedy", 3),
        (1, "random", 2),
        (1, "greedy", 2),
    ]
    assert [b.seat for b in bash_batches(4, "greedy", seats=[1])] == [1]
    games = SameStepBash(batches)
    assert games.num_envs == 10
    assert games.seats().tolist() == [0, 0, 0, 0, 0, 0, 1, 1, 1, 1]
    assert games.opponents()[:4] == ["random", "random", "random", "greedy"]


@pytest.mark.parametrize(
    ("num_envs", "opponent", "needle"),
    [(8, "clever", "must be one of random, greedy, mixed"), (3, "mixed", ">= 4")],
)
def test_wrong_batches_are_refused(num_envs: int, opponent: str, needle: str) -> None:
    with pytest.raises(OptionError) as error:
        bash_batches(num_envs, opponent)
    assert needle in str(error.value)


def test_restart_starts_only_the_games_named() -> None:
    env = BashVectorEnv(4)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(5):
        env.step(random_actions(env.action_masks(), rng))
    before = env.G.copy()
    fresh = env.restart([1, 3])
    assert fresh.shape == (2, env.encoding.layout.size)
    np.testing.assert_array_equal(env.G[[0, 2]], before[[0, 2]])
    np.testing.assert_array_equal(env.observations()[[1, 3]], fresh)
    assert env.action_masks()[[1, 3]].any(axis=1).all()
    assert env.restart([]).shape == (0, env.encoding.layout.size)
    with pytest.raises(OptionError):
        env.restart([4])


def test_finished_games_restart_in_the_same_step() -> None:
    games = SameStepBash(bash_batches(8, "mixed"))
    observations = games.reset(seed=11)
    rng = np.random.default_rng(1)
    returns: list[float] = []
    for step in range(400):
        actions = random_actions(games.action_masks(), rng)
        if step == 3:
            actions[2] = 10_000  # out of range: the game ends, illegal
        observations, rewards, dones, infos = games.step(actions)
        assert games.action_masks().any(axis=1).all()  # every row is at a decision
        for row in np.flatnonzero(dones):
            info = infos[row]
            last = info["terminal_observation"]
            assert last.shape == observations[row].shape
            assert observations[row][TERMINAL] == 0.0  # the new game's first observation
            assert info["episode"]["r"] == rewards[row]
            if "illegal_action" in info:
                assert info["illegal_action"]["action"] == 10_000
                assert rewards[row] == -1.0
            else:
                assert last[TERMINAL] == 1.0 or rewards[row] == 0.0
            returns.append(float(rewards[row]))
        for row in np.flatnonzero(~dones):
            assert infos[row] == {}
            assert rewards[row] == 0.0
    assert returns and set(returns) <= {-1.0, 0.0, 1.0}
    assert dones.dtype == np.bool_


def test_the_same_seed_and_actions_give_the_same_games() -> None:
    runs = []
    for _ in range(2):
        games = SameStepBash(bash_batches(4, "greedy"))
        rng = np.random.default_rng(5)
        seen = [games.reset(seed=7)]
        for _ in range(150):
            seen.append(games.step(random_actions(games.action_masks(), rng))[0])
        runs.append(np.stack(seen))
    np.testing.assert_array_equal(runs[0], runs[1])
