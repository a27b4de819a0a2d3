"""Train a masked PPO (sb3-contrib's MaskablePPO) on Splash & Bash's vector environment.

    pip install -e '.[rl]'     # PyTorch (a CPU build is enough), Stable-Baselines3, sb3-contrib
    python examples/train_ppo.py --minutes 60 --seed 0 --envs 256 --opponent mixed \\
        --out policy.zip --evaluate 400

The learner plays ``--envs`` games at once on the compiled core
(:class:`splash.envs.vector.BashVectorEnv`, through :mod:`splash.envs.sb3`), half of them in
each seat, against ``random``, ``greedy`` or both (``mixed``), for ``--minutes`` of wall
time, and saves the policy; ``splash ladder bash --bots ppo:path=policy.zip,greedy`` then
plays it as a bot.  ``--evaluate N`` plays N games of the ``ppo`` bot against ``greedy``
(and ``--evaluate-random N`` against ``random``) through the ladder, seats swapped, and
prints the win rate with its 95 % Wilson interval.  ``--minutes 0`` only evaluates the
policy already at ``--out``.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path
from typing import Any

import torch
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

from splash.cli.simulate_all import make_backend
from splash.envs.same_step import MIXES
from splash.envs.sb3 import make_sb3_env
from splash.sim.engines import EngineChoice
from splash.sim.ladder import LadderSpec, play_ladder


class TimeLimit(BaseCallback):  # type: ignore[misc]
    """Stops the learning after ``seconds`` of wall time, with a rich progress bar."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.seconds = seconds
        self.started = time.monotonic()
        self.progress = Progress(
            TextColumn("training"),
            BarColumn(),
            TimeElapsedColumn(),
            TextColumn("{task.fields[steps]:,} steps, {task.fields[rate]:,.0f}/s"),
        )
        self.task = self.progress.add_task("train", total=seconds, steps=0, rate=0.0)

    def _on_training_start(self) -> None:
        self.started = time.monotonic()
        self.progress.start()

    def _on_step(self) -> bool:
        elapsed = time.monotonic() - self.started
        steps = int(self.num_timesteps)
        self.progress.update(
            self.task, completed=min(elapsed, self.seconds), steps=steps, rate=steps / elapsed
        )
        return elapsed < self.seconds

    def _on_training_end(self) -> None:
        self.progress.stop()


def arguments(argv: list[str] | None) -> argparse.Namespace:
    """The command line's arguments."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=60.0, help="wall time of training")
    parser.add_argument("--seed", type=int, default=0, help="seed of the games and the network")
    parser.add_argument("--envs", type=int, default=256, help="games played at once")
    parser.add_argument("--opponent", choices=MIXES, default="mixed", help="whom it learns on")
    parser.add_argument(
        "--threads",
        type=int,
        default=len(os.sched_getaffinity(0)),
        help="PyTorch threads (default: the cores this process may use)",
    )
    parser.add_argument("--steps", type=int, default=128, help="steps a game between updates")
    parser.add_argument("--out", type=Path, default=Path("policy.zip"), help="the saved policy")
    parser.add_argument("--evaluate", type=int, default=0, help="games against greedy after")
    parser.add_argument("--evaluate-random", type=int, default=0, help="games against random")
    parser.add_argument("--workers", type=int, default=2, help="processes of the evaluation")
    return parser.parse_args(argv)


def train(options: argparse.Namespace) -> None:
    """Learn for ``--minutes`` and save the policy at ``--out``."""
    torch.set_num_threads(options.threads)
    env = make_sb3_env(options.envs, options.opponent, seed=options.seed)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=options.steps,
        batch_size=4096,
        n_epochs=4,
        learning_rate=3e-4,
        gamma=0.995,
        gae_lambda=0.95,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [256, 256]},
        seed=options.seed,
        device="cpu",
        verbose=0,
    )
    limit = TimeLimit(options.minutes * 60.0)
    model.learn(total_timesteps=10**12, callback=limit)
    elapsed = time.monotonic() - limit.started
    steps = int(model.num_timesteps)
    model.save(options.out)
    episodes: list[dict[str, Any]] = list(model.ep_info_buffer)
    recent = sum(e["r"] for e in episodes) / len(episodes) if episodes else float("nan")
    print(
        f"{steps:,} steps in {elapsed:.0f} s ({steps / elapsed:,.0f} steps/s); "
        f"mean return of the last {len(episodes)} games {recent:+.3f}; saved {options.out}"
    )


def evaluate(path: Path, opponent: str, games: int, seed: int, workers: int) -> None:
    """Play ``games`` games of the ``ppo`` bot against ``opponent``, seats swapped."""
    bot = f"ppo:path={path}"
    spec, _ = LadderSpec.of("bash", [], [bot, opponent], games, seed).on_engine(EngineChoice.AUTO)
    backend = make_backend(workers, None, None)
    try:
        ladder = play_ladder(spec, backend)
    finally:
        backend.close()
    line = ladder.table()[0]
    low, high = line.win_interval
    print(
        f"ppo against {opponent}: {line.wins} wins, {line.draws} draws in {line.games} games, "
        f"win rate {line.win_rate:.1%} (95 % interval {low:.1%} to {high:.1%})"
    )


def main(argv: list[str] | None = None) -> None:
    """Train, save, evaluate."""
    options = arguments(argv)
    if options.minutes > 0:
        train(options)
    if options.evaluate:
        evaluate(options.out, "greedy", options.evaluate, options.seed, options.workers)
    if options.evaluate_random:
        evaluate(options.out, "random", options.evaluate_random, options.seed, options.workers)


if __name__ == "__main__":
    main()
