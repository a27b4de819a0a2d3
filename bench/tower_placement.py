"""Time one Splash! placement ruling against the same placement simulated for a fixed 3 s.

For towers of 5, 15, 25 and 30 pieces (the last one being the placement timed), prints the
median time of a quick ruling, the median time of the same placements in ``long`` mode (a
fixed 3 s), and their ratio; then the median time of a whole 4-player game between random
bots with the physics ruling every placement (see ``tower_game.py``).  Runs on one core.
Target: a ruling in at most 30 ms at 30 pieces.

    python bench/tower_placement.py [--repeats 15] [--seed 0] [--games 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

from centred_towers import timed_placements
from splash.games.tower.catalogue import load_catalogue
from splash.physics.model import TowerModel
from splash.physics.placement import Placement, Steadiness, Tremor
from splash.physics.poses import PieceRest
from splash.physics.ruling import RulingSettings, rule

HEIGHTS = (5, 15, 25, 30)
HAND = Steadiness(position_mm=0.5, angle_deg=3.0, height_mm=1.0)
LONG = RulingSettings(mode="long")


def _time(
    model: TowerModel,
    tower: list[PieceRest],
    placement: Placement,
    tremors: list[Tremor],
    settings: RulingSettings,
) -> list[float]:
    times = []
    for tremor in tremors:
        start = time.perf_counter()
        rule(model, tower, placement, tremor, settings)
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    """Run the benchmark and print its table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15, help="quick rulings per height")
    parser.add_argument("--long-repeats", type=int, default=3, help="3-s simulations per height")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games", type=int, default=5, help="whole 4-player games timed")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    model = TowerModel(load_catalogue())
    rng = np.random.default_rng(args.seed)
    print("pieces  ruling median (ms)  ruling p95 (ms)  fixed 3 s median (ms)  ratio")
    for height, tower, placement in timed_placements(model, HEIGHTS):
        tremors = [HAND.sample(rng) for _ in range(args.repeats)]
        quick = _time(model, tower, placement, tremors, RulingSettings())
        long = _time(model, tower, placement, tremors[: args.long_repeats], LONG)
        q, lg = statistics.median(quick), statistics.median(long)
        p95 = float(np.percentile(quick, 95))
        print(
            f"{height:6d}  {q * 1000:19.1f}  {p95 * 1000:15.1f}  {lg * 1000:21.1f}  {lg / q:5.0f}x"
        )
    if args.games > 0:
        _whole_games(args.games, args.seed)


def _whole_games(games: int, seed: int) -> None:
    from splash.physics.provider import physics_game
    from tower_game import one_game

    game = physics_game([("options.players", 4)])
    one_game(game, seed + 10_000)
    runs = [one_game(game, seed + i) for i in range(games)]
    seconds = statistics.median(r[0] for r in runs)
    placements = statistics.mean(r[1] for r in runs)
    print(
        f"whole 4-player random game: median {seconds:.2f} s over {games} games, "
        f"{placements:.1f} placements a game"
    )


if __name__ == "__main__":
    main()
