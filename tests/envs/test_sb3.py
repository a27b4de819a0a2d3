"""Stable-Baselines3's side (:mod:`splash.envs.sb3`) and a saved policy played as the ``ppo``
bot; skipped where the extra ``rl`` (PyTorch, sb3-contrib) is not installed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

from splash.bots import make_bot
from splash.bots.ppo import PpoBot
from splash.core.outcomes import RandomOutcomes
from splash.core.play import play
from splash.envs.sb3 import make_sb3_env
from splash.games.bash import BashGame


def test_masks_reach_maskable_ppo_row_by_row() -> None:
    env = make_sb3_env(8, "mixed", seed=2)
    observations = env.reset()
    assert observations.shape == (8, *env.observation_space.shape)
    assert is_masking_supported(env)
    masks = get_action_masks(env)
    assert masks.shape == (8, env.action_space.n)
    assert masks.dtype == np.bool_ and masks.any(axis=1).all()
    assert env.get_attr("seat") == [0, 0, 0, 0, 1, 1, 1, 1]
    assert env.get_attr("opponent", indices=[1, 2]) == ["random", "greedy"]


def test_a_saved_policy_plays_as_the_ppo_bot(tmp_path: Path) -> None:
    env = make_sb3_env(8, "mixed", seed=0)
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=64, n_epochs=1, seed=0)
    model.learn(total_timesteps=256)
    policy = tmp_path / "policy.zip"
    model.save(policy)
    for spec in (f"ppo:path={policy}", f"ppo:path={policy},deterministic=false"):
        bot = make_bot(spec, 3, game="bash")
        assert isinstance(bot, PpoBot)
        for seats in ([bot, make_bot("greedy", 4)], [make_bot("random", 5), bot]):
            state = play(BashGame().new_initial_state(), seats, RandomOutcomes(9))
            assert state.is_terminal()
    again = make_bot(f"ppo:path={policy}", 1)
    assert isinstance(again, PpoBot) and isinstance(bot, PpoBot)
    assert again.model is bot.model  # loaded once
