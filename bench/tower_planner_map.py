"""The Splash! planner's placements with candidates from the placement map, against random
candidates filtered by T06, on the same positions, timed in the same run.

On one core: plays ``--games`` 4-player games between random bots with the physics ruling
every placement; at each placement on a tower, the planner (``--samples``,
``--candidates``; the default planner's by default) decides it twice from the same bot
seed: with the steadiest poses of the map's faces and turns, ranked by static margin
(``from_map=True``, the planner's way), and with the fit's pose, centred poses and random
poses that the rules accept (``from_map=False``, as before).  It prints each way's median
decision time and the mean estimated chance of standing of the chosen pose (the share of
the planner's own tremor samples it stood in).

The last line is ``placements=N map_ms=M random_ms=R map_stood=A random_stood=B``.

    python bench/tower_planner_map.py [--games 3] [--seed 0] [--samples 8] [--candidates 12]
"""

from __future__ import annotations

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_variable] = "1"

import argparse  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from splash.bots.tower_planner import TowerPlannerBot  # noqa: E402
from splash.bots.tower_random import RandomTowerBot  # noqa: E402
from splash.core.protocol import CHANCE, TERMINAL  # noqa: E402
from splash.games.tower import TowerState  # noqa: E402
from splash.physics.provider import PhysicsOutcomes, physics_game  # noqa: E402

MAX_ACTIONS = 400


def _decide(bot: TowerPlannerBot, state: TowerState) -> tuple[float, float]:
    """The decision's time (s) and the chosen pose's estimated chance of standing."""
    start = time.perf_counter()
    chosen = bot.placement(state)
    seconds = time.perf_counter() - start
    chances = [chance for pose, chance in bot.last if pose == chosen]
    return seconds, chances[0] if chances else 0.0


def main() -> None:
    """Play the games, time both ways, print the figures, the summary line last."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--samples", type=int, default=8)
    parser.add_argument("--candidates", type=int, default=12)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    game = physics_game([("options.players", 4)])
    times: dict[bool, list[float]] = {True: [], False: []}
    stood: dict[bool, list[float]] = {True: [], False: []}
    for number in range(args.games):
        children = np.random.SeedSequence(args.seed + number).spawn(6)
        state = game.new_initial_state()
        assert isinstance(state, TowerState)
        outcomes = PhysicsOutcomes(children[0])
        bots = [RandomTowerBot(children[1 + seat]) for seat in range(4)]
        for step in range(MAX_ACTIONS):
            if state.to_act() == TERMINAL:
                break
            if state.to_act() == CHANCE:
                state.apply(outcomes.outcome(state))
                continue
            if state.phase == "place" and state.tower.pieces:
                for from_map in (True, False):
                    bot = TowerPlannerBot(
                        1000 * number + step,
                        samples=args.samples,
                        candidates=args.candidates,
                        from_map=from_map,
                    )
                    seconds, chance = _decide(bot, state)
                    times[from_map].append(seconds)
                    stood[from_map].append(chance)
            state.apply(bots[state.to_act()].act(state))
        print(f"game {number}: {len(times[True])} placements so far", flush=True)
    for from_map, name in ((True, "map"), (False, "random")):
        print(
            f"{name:>7}: median {statistics.median(times[from_map]) * 1000:7.1f} ms, "
            f"p95 {float(np.percentile(times[from_map], 95)) * 1000:7.1f} ms, "
            f"chosen pose stood in {statistics.mean(stood[from_map]):.2f} of its samples"
        )
    print(
        f"placements={len(times[True])} map_ms={statistics.median(times[True]) * 1000:.1f}"
        f" random_ms={statistics.median(times[False]) * 1000:.1f}"
        f" map_stood={statistics.mean(stood[True]):.2f}"
        f" random_stood={statistics.mean(stood[False]):.2f}"
    )


if __name__ == "__main__":
    main()
