"""Time the T06 check of a Splash! action mask: one pose at a time against all at once.

On one core, plays random 4-player Splash! games (random bots, the physics ruling every
placement) and, in every position where a gift waits to be placed, builds the placement
grid's mask (216 cells, :mod:`splash.games.tower.placement_grid`) two ways:

- **before** — a loop over the cells calling the game's T06 check of one pose
  (:func:`splash.physics.provider.pose_check`) for each: whether the placement is forced,
  the target and the tower's poses found again, the whole model reset, for every cell;
- **after** — :func:`splash.envs.tower_grid.accepted`, which checks every cell at once
  (:func:`splash.physics.provider.pose_checks`: the tower loaded once, the piece moved).

It prints the median time of a mask both ways, their ratio and the time per cell, over all
positions and over the positions not forced (where the physics checks every cell), and
checks that both masks agree.  The fallback pose (looked for only when no cell is legal) is
not part of either figure.

    python bench/tower_mask.py [--games 4] [--seed 0] [--placements 20] [--repeats 3]
"""

from __future__ import annotations

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_variable] = "1"

import argparse  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402

import numpy as np  # noqa: E402

from splash.bots.tower_random import RandomTowerBot  # noqa: E402
from splash.core.outcomes import RandomOutcomes, RoutedOutcomes  # noqa: E402
from splash.envs.tower_grid import accepted  # noqa: E402
from splash.games.tower import TowerGame, TowerState  # noqa: E402
from splash.games.tower.placement_grid import PlacementGrid  # noqa: E402
from splash.games.tower.rules import forced  # noqa: E402
from splash.physics.provider import PhysicsOutcomes, physics_game, pose_check  # noqa: E402

Mask = np.ndarray


def place_positions(game: TowerGame, seed: int, placements: int) -> list[TowerState]:
    """The positions of one random game (seed ``seed``) where a gift waits to be placed."""
    children = np.random.SeedSequence(seed).spawn(2 + game.num_seats)
    outcomes = RoutedOutcomes(
        {"placement": PhysicsOutcomes(children[0])}, RandomOutcomes(children[1])
    )
    bots = [RandomTowerBot(children[2 + seat]) for seat in range(game.num_seats)]
    state = game.new_initial_state()
    found: list[TowerState] = []
    while not state.is_terminal() and state.placements < placements:
        if state.phase == "place":
            found.append(state.clone())
        if state.is_chance():
            state.apply(outcomes.outcome(state))
        else:
            state.apply(bots[state.to_act()].act(state))
    return found


def one_by_one(grid: PlacementGrid, state: TowerState) -> Mask:
    """The mask with the T06 check of one pose called for each cell (the baseline)."""
    game = state.game
    return np.array(
        [
            p is not None and pose_check(state, game.parse_action(p)) is None
            for p in grid.poses(state)
        ]
    )


def all_at_once(grid: PlacementGrid, state: TowerState) -> Mask:
    """The mask as the AI interfaces build it."""
    return accepted(state, grid.poses(state))


def timed(
    build: Callable[[PlacementGrid, TowerState], Mask],
    grid: PlacementGrid,
    state: TowerState,
    repeats: int,
) -> tuple[float, Mask]:
    """The median seconds of ``repeats`` builds of the mask of ``state``, and the mask."""
    times = []
    mask = np.zeros(0, dtype=np.bool_)
    for _ in range(repeats):
        start = time.perf_counter()
        mask = build(grid, state)
        times.append(time.perf_counter() - start)
    return statistics.median(times), mask


def report(name: str, before: list[float], after: list[float], cells: int) -> None:
    """One row of the table."""
    if not before:
        print(f"{name:<22} (no position)")
        return
    b, a = statistics.median(before), statistics.median(after)
    per_b, per_a = sum(before) / cells * 1e3, sum(after) / cells * 1e3
    print(
        f"{name:<22} {len(before):9d} {b * 1e3:12.2f} {a * 1e3:11.2f} {b / a:7.1f}x"
        f" {per_b:14.3f} {per_a:13.3f}"
    )


def main() -> None:
    """Run the benchmark and print its table."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="random games played")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    parser.add_argument("--placements", type=int, default=20, help="placements per game at most")
    parser.add_argument("--repeats", type=int, default=3, help="timed builds of each mask")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    game = physics_game([("options.players", 4)])
    grid = PlacementGrid(game)
    positions = [
        state
        for index in range(args.games)
        for state in place_positions(game, args.seed + index, args.placements)
    ]
    all_at_once(grid, positions[0])  # untimed warm-up: the model is built, the code loaded
    rows: dict[str, tuple[list[float], list[float], list[int]]] = {
        "all positions": ([], [], []),
        "not forced": ([], [], []),
    }
    disagreements = 0
    for state in positions:
        before, old = timed(one_by_one, grid, state, args.repeats)
        after, new = timed(all_at_once, grid, state, args.repeats)
        disagreements += int((old != new).sum())
        cells = int(sum(p is not None for p in grid.poses(state)))
        is_forced = state.gift is not None and forced(state, state.gift)
        names = ["all positions"] if is_forced else list(rows)
        for name in names:
            rows[name][0].append(before)
            rows[name][1].append(after)
            rows[name][2].append(cells)
    print(
        f"{len(positions)} positions with a gift to place, from {args.games} random 4-player "
        f"games (seeds {args.seed} to {args.seed + args.games - 1}), one core, "
        f"median of {args.repeats} builds per mask"
    )
    print(
        f"{'':<22} {'positions':>9} {'before (ms)':>12} {'after (ms)':>11} {'ratio':>8}"
        f" {'before ms/cell':>14} {'after ms/cell':>13}"
    )
    for name, (before_times, after_times, counts) in rows.items():
        report(name, before_times, after_times, sum(counts))
    print(f"cells on which the two masks disagree: {disagreements}")


if __name__ == "__main__":
    main()
