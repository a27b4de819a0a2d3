"""Time whole 4-player Splash! games between random bots, the physics ruling every placement.

On one core, plays ``--games`` games (seeds ``--seed``, ``--seed + 1``, ...) with the
default options (default steadiness, TD14) and prints the median wall time of a game, the
placements per game and the rulings per second.  An untimed warm-up game comes first (the
model is built, the code paths are loaded).  The yardstick, timed in the same run, is the
fixed 3-s simulation of the last placement of the centred 30-piece tower
(``centred_towers.py``): the last line is ``game_ratio=G worst_ratio=W``, the median and
the slowest game time over that.

    python bench/tower_game.py [--games 20] [--seed 0] [--players 4] [--tail guard]
"""

from __future__ import annotations

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_variable] = "1"

import argparse  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from typing import get_args  # noqa: E402

import numpy as np  # noqa: E402

from splash.bots.tower_random import RandomTowerBot  # noqa: E402
from splash.core.outcomes import RandomOutcomes, RoutedOutcomes  # noqa: E402
from splash.core.play import play  # noqa: E402
from splash.games.tower import TowerGame  # noqa: E402
from splash.games.tower.catalogue import load_catalogue  # noqa: E402
from splash.physics.errors import PlacementError  # noqa: E402
from splash.physics.provider import PhysicsOutcomes, physics_game  # noqa: E402
from splash.physics.ruling import RulingSettings, Tail  # noqa: E402


def one_game(
    game: TowerGame, seed: int, settings: RulingSettings | None = None
) -> tuple[float, int, int, bool]:
    """Seconds, placements, grid searches of one game with seed ``seed`` (rulings with
    ``settings``), and whether it stopped early (no pose of a gift accepted: the physics
    refuses the centred one)."""
    seats = game.num_seats
    children = np.random.SeedSequence(seed).spawn(2 + seats)
    physics = PhysicsOutcomes(children[0], settings=settings)
    outcomes = RoutedOutcomes({"placement": physics}, RandomOutcomes(children[1]))
    bots = [RandomTowerBot(children[2 + seat]) for seat in range(seats)]
    state = game.new_initial_state()
    start = time.perf_counter()
    stopped = False
    try:
        play(state, bots, outcomes)
    except PlacementError:
        stopped = True
    seconds = time.perf_counter() - start
    placements = sum(1 for action in state.history if action.kind == "result")
    return seconds, placements, sum(bot.searches for bot in bots), stopped


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="timed games")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    parser.add_argument("--players", type=int, default=4, help="players (options.players)")
    parser.add_argument("--version", type=int, default=RulingSettings().version)
    parser.add_argument(
        "--tail",
        choices=get_args(Tail),
        default=RulingSettings().tail,
        help="how a fall's ruling ends (version 3 on: physics.ruling's RulingSettings.tail)",
    )
    parser.add_argument("--grace", type=float, default=0.05, help="the tail's grace, seconds")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    game = physics_game([("options.players", args.players)])
    settings = RulingSettings(version=args.version, tail=args.tail, tail_grace_s=args.grace)
    one_game(game, args.seed + args.games, settings)
    results = [one_game(game, args.seed + index, settings) for index in range(args.games)]
    times = [r[0] for r in results]
    placements = [r[1] for r in results]
    searches = sum(r[2] for r in results)
    stopped = sum(1 for r in results if r[3])
    print(
        f"{args.games} games of {args.players} players, seeds {args.seed} to "
        f"{args.seed + args.games - 1}, one core, {settings.method}, tail {settings.tail}"
    )
    print(
        f"median time per game   {statistics.median(times):8.2f} s"
        f"  (min {min(times):.2f}, max {max(times):.2f})"
    )
    print(
        f"placements per game    {statistics.mean(placements):8.1f}"
        f"  (min {min(placements)}, max {max(placements)})"
    )
    print(f"rulings per second     {sum(placements) / sum(times):8.1f}")
    print(f"grid searches          {searches:8d}  (placements with no random pose accepted)")
    print(f"games stopped early    {stopped:8d}  (no pose of a gift accepted at all)")
    yardstick = _centred_three_seconds()
    print(f"fixed 3 s, centred 30  {yardstick:8.2f} s")
    print(
        f"game_ratio={statistics.median(times) / yardstick:.2f} "
        f"worst_ratio={max(times) / yardstick:.2f}"
    )


def _centred_three_seconds(repeats: int = 3) -> float:
    """The median time of the fixed 3-s simulation of the centred 30-piece placement."""
    from centred_towers import timed_placements
    from splash.physics.model import TowerModel
    from splash.physics.ruling import rule

    model = TowerModel(load_catalogue())
    ((_, tower, placement),) = timed_placements(model, [30])
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        rule(model, tower, placement, settings=RulingSettings(mode="long"))
        times.append(time.perf_counter() - start)
    return statistics.median(times)


if __name__ == "__main__":
    main()
