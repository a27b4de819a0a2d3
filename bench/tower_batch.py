"""Time the Splash! planner's placements and a placement's tremor samples ruled in a batch.

* **The planner** (``planner:samples=1,candidates=3`` and the default planner), on one core
  (the process pinned to one CPU where the system allows it, so a batch runs one ruling after
  another): 4-player games between planners, the physics ruling every placement (default
  options and steadiness, TD14); the median time of a placement decision
  (``TowerPlannerBot.placement``: the candidates' T06 checks and their rulings).
* **The OpenSpiel game's samples** (``python_splash_tower``, ``samples=8``, the simulation):
  at the placements of those games, the 8 samples of a placement ruled one after another
  (one model) and in one batch (:mod:`splash.physics.batch`, one thread a core, at most 8),
  on every core this process may use, in the same run; ``batch_ratio`` is the batch's
  total time over the one-after-another total (the goal: at most 0.6).

The last line is ``planner_ms=P default_planner_ms=D batch_ratio=B cores=C``.

    python bench/tower_batch.py [--games 2] [--default-placements 6] [--seed 0]
"""

from __future__ import annotations

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_variable] = "1"

import argparse  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402

from splash.bots.tower_planner import TowerPlannerBot  # noqa: E402
from splash.core.outcomes import RandomOutcomes, RoutedOutcomes  # noqa: E402
from splash.core.play import play  # noqa: E402
from splash.games.tower import TowerState  # noqa: E402
from splash.physics.batch import ModelPool, available_cores  # noqa: E402
from splash.physics.provider import (  # noqa: E402
    PhysicsOutcomes,
    physics_game,
    placement_outcomes_at_once,
)


class TimedPlanner(TowerPlannerBot):
    """The planner, timing each placement decision and keeping the states it placed on."""

    def __init__(self, seed: Any, **kwargs: Any) -> None:
        super().__init__(seed, **kwargs)
        self.times: list[float] = []

    def placement(self, state: TowerState) -> dict[str, Any]:
        start = time.perf_counter()
        pose = super().placement(state)
        self.times.append(time.perf_counter() - start)
        return pose


def planner_games(
    games: int, seed: int, *, limit: int | None = None, **params: Any
) -> tuple[list[float], list[TowerState]]:
    """Placement decision times of planners with ``params`` over ``games`` games (at most
    ``limit`` placements), and the states waiting for a placement's outcome."""
    game = physics_game([("options.players", 4)])
    times: list[float] = []
    waiting: list[TowerState] = []
    for index in range(games):
        children = np.random.SeedSequence(seed + index).spawn(6)
        physics = PhysicsOutcomes(children[0])
        outcomes = RoutedOutcomes({"placement": physics}, RandomOutcomes(children[1]))
        bots = [TimedPlanner(children[2 + seat], **params) for seat in range(4)]
        state = game.new_initial_state()

        def keep(state: Any, action: Any) -> None:
            event = state.chance_event()
            if event is not None and event.kind == "placement" and isinstance(state, TowerState):
                waiting.append(state.clone())

        while not state.is_terminal():
            play(state, bots, outcomes, max_actions=1, on_action=keep)
            done = sum(len(bot.times) for bot in bots)
            if limit is not None and len(times) + done >= limit:
                break
        times += [t for bot in bots for t in bot.times]
        if limit is not None and len(times) >= limit:
            break
    return times, waiting


def sample_batches(states: list[TowerState], samples: int = 8) -> tuple[float, float]:
    """Seconds to rule ``samples`` tremor samples of each state one after another, and in
    one batch per state."""
    pool = ModelPool(states[0].tower_game.catalogue, min(samples, available_cores()))
    pool.map(lambda model, item: item, list(range(pool.threads)))
    serial = batch = 0.0
    for index, state in enumerate(states):
        seeds = [np.random.SeedSequence([index, k]) for k in range(samples)]
        start = time.perf_counter()
        one = placement_outcomes_at_once(state, [PhysicsOutcomes(s) for s in seeds])
        serial += time.perf_counter() - start
        start = time.perf_counter()
        many = placement_outcomes_at_once(state, [PhysicsOutcomes(s) for s in seeds], pool)
        batch += time.perf_counter() - start
        if one != many:
            raise RuntimeError("a batch ruled otherwise than one ruling after another")
    return serial, batch


def main() -> None:
    """Run the benchmark and print its figures, the summary line last."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="games of the small planner")
    parser.add_argument("--default-placements", type=int, default=6)
    parser.add_argument("--batch-placements", type=int, default=12)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    cores = available_cores()
    everyone = os.sched_getaffinity(0) if hasattr(os, "sched_setaffinity") else None
    if everyone is not None:
        os.sched_setaffinity(0, {min(everyone)})
    small, waiting = planner_games(args.games, args.seed, samples=1, candidates=3)
    print(
        f"planner:samples=1,candidates=3  {len(small)} placements over {args.games} games, "
        f"one core: median {statistics.median(small) * 1000:.1f} ms, "
        f"p95 {float(np.percentile(small, 95)) * 1000:.1f} ms"
    )
    default, _ = planner_games(1, args.seed, limit=args.default_placements)
    print(
        f"planner (samples=8, candidates=12)  {len(default)} placements, one core: "
        f"median {statistics.median(default) * 1000:.0f} ms"
    )
    if everyone is not None:
        os.sched_setaffinity(0, everyone)
    rng = np.random.default_rng(args.seed)
    count = min(args.batch_placements, len(waiting))
    chosen = [waiting[int(i)] for i in sorted(rng.choice(len(waiting), count, replace=False))]
    serial, batch = sample_batches(chosen)
    print(
        f"8 tremor samples of {count} placements on {cores} cores: one after another "
        f"{serial * 1000 / count:.1f} ms a placement, in one batch {batch * 1000 / count:.1f} ms"
    )
    print(
        f"planner_ms={statistics.median(small) * 1000:.1f} "
        f"default_planner_ms={statistics.median(default) * 1000:.0f} "
        f"batch_ratio={batch / serial:.2f} cores={cores}"
    )


if __name__ == "__main__":
    main()
