"""The vector environment's speed: agent steps/s of B = 256 compiled games, beside the
PettingZoo environment's steps/s measured in the same run.

An agent step is one decision of the learning team (its observation and action mask
included); the steps that only restart a game that ended (next-step autoreset) are not
counted.  The learner picks a uniformly random legal action from the masks (numpy, outside
the timed environment call too: it is part of a training loop).  One core, warm compile
cache.  The last line is exactly::

    vec_steps_per_s=V vec_greedy_steps_per_s=W pettingzoo_steps_per_s=P

    python bench/bash_vec.py --seconds 5
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

import numpy as np

from splash.envs.aec import bash_env
from splash.envs.vector import BashVectorEnv


@dataclass(frozen=True)
class VecFigures:
    """Agent steps per second of the vector environment (random, greedy opponents) and of
    the PettingZoo environment (every team's decision is a step there)."""

    vec_steps_per_s: float
    vec_greedy_steps_per_s: float
    pettingzoo_steps_per_s: float


def vector_steps_per_s(opponents: str, seconds: float, num_envs: int = 256) -> float:
    """Agent steps/s of ``num_envs`` games against ``opponents`` for about ``seconds``."""
    env = BashVectorEnv(num_envs, opponents=opponents)
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        scores = np.where(env.mask != 0, rng.random(env.mask.shape), -1.0)
        actions = scores.argmax(axis=1)
        steps += int(num_envs - env.fresh.sum())
        env.step(actions)
    return steps / (time.perf_counter() - start)


def pettingzoo_steps_per_s(seconds: float) -> float:
    """Steps/s of the PettingZoo AEC environment, random legal actions for every team."""
    env = bash_env()
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.reset(seed=steps)
            continue
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        steps += 1
    return steps / (time.perf_counter() - start)


def vec_figures(seconds: float) -> VecFigures:
    """The three figures, each measured for about ``seconds`` (after a short warm-up)."""
    vector_steps_per_s("random", 0.2)
    vector_steps_per_s("greedy", 0.2)
    return VecFigures(
        vec_steps_per_s=vector_steps_per_s("random", seconds),
        vec_greedy_steps_per_s=vector_steps_per_s("greedy", seconds),
        pettingzoo_steps_per_s=pettingzoo_steps_per_s(seconds),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per figure")
    args = parser.parse_args()
    figures = vec_figures(args.seconds)
    print(f"vector env, B=256, random opponents: {figures.vec_steps_per_s:,.0f} agent steps/s")
    print(
        f"vector env, B=256, greedy opponents: {figures.vec_greedy_steps_per_s:,.0f} agent steps/s"
    )
    print(f"PettingZoo AEC env (baseline): {figures.pettingzoo_steps_per_s:,.0f} steps/s")
    print(
        f"vec_steps_per_s={figures.vec_steps_per_s:.0f} "
        f"vec_greedy_steps_per_s={figures.vec_greedy_steps_per_s:.0f} "
        f"pettingzoo_steps_per_s={figures.pettingzoo_steps_per_s:.0f}"
    )


if __name__ == "__main__":
    main()
