"""What the T06 check of a Splash! placement costs the server: one pose at a time (a
``check`` message, while a person moves the piece) against the placement grid's accepted
cells once per turn (carried in the seat's view).

On one core, plays random 4-player Splash! games (random bots, the physics ruling every
placement) and, in every position where a gift waits to be placed and is not forced (where
the physics checks every pose), times:

- **one check** — ``state.why_illegal`` of one pose on the page's lattice (a face, a turn by
  15 degrees, an offset in whole millimetres within 10 mm of the centre): exactly what
  the server's legality of a ``place`` action runs;
- **the grid** — :meth:`splash.games.tower.placement_grid.PlacementGrid.choices` of the position
  (216 cells, all checked at once by :func:`splash.envs.tower_grid.accepted`), what the view
  would have to carry each turn.

It prints the median of each, their ratio, and how many of the page's poses are cells of
the grid (the grid turns by 22.5 degrees and offsets by half the target's half extent; the
page by 15 degrees and 1 mm), then last::

    check: one pose X ms, the grid Y ms a turn (Z poses for the grid's cost)

    python bench/tower_check.py [--games 3] [--seed 0] [--placements 12] [--poses 20]
"""

from __future__ import annotations

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_variable] = "1"

import argparse  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from splash.bots.tower_random import RandomTowerBot  # noqa: E402
from splash.core.actions import Json  # noqa: E402
from splash.core.outcomes import RandomOutcomes, RoutedOutcomes  # noqa: E402
from splash.envs.tower_grid import accepted  # noqa: E402
from splash.games.tower import TowerGame, TowerState  # noqa: E402
from splash.games.tower.placement_grid import PlacementGrid  # noqa: E402
from splash.games.tower.rules import forced  # noqa: E402
from splash.physics.provider import PhysicsOutcomes, physics_game  # noqa: E402

PAGE_TURN_DEG = 15
PAGE_REACH_MM = 10


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


def page_poses(state: TowerState, rng: np.random.Generator, count: int) -> list[dict[str, Json]]:
    """``count`` poses as the page makes them: a face, 15-degree turns, whole millimetres."""
    assert state.gift is not None
    faces = list(state.tower_game.catalogue.shape_of(state.gift).faces)
    return [
        {
            "kind": "place",
            "face": faces[int(rng.integers(len(faces)))],
            "rotation_deg": float(PAGE_TURN_DEG * int(rng.integers(-11, 13))),
            "x_mm": float(rng.integers(-PAGE_REACH_MM, PAGE_REACH_MM + 1)),
            "y_mm": float(rng.integers(-PAGE_REACH_MM, PAGE_REACH_MM + 1)),
        }
        for _ in range(count)
    ]


def on_grid(grid: PlacementGrid, state: TowerState, poses: list[dict[str, Json]]) -> int:
    """How many of ``poses`` are cells of the grid."""
    cells = [p for p in grid.poses(state) if p is not None]
    game = state.game
    return sum(any(grid.same(game.parse_action(p), c) for c in cells) for p in poses)


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="random games played")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    parser.add_argument("--placements", type=int, default=12, help="placements per game at most")
    parser.add_argument("--poses", type=int, default=20, help="page poses checked per position")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    game = physics_game([("options.players", 4)])
    positions = [
        state
        for index in range(args.games)
        for state in place_positions(game, args.seed + index, args.placements)
        if state.gift is not None and not forced(state, state.gift)
    ]
    rng = np.random.default_rng(args.seed)
    PlacementGrid(game, accepted).choices(positions[0])  # untimed warm-up: the model is built
    one: list[float] = []
    whole: list[float] = []
    legal = total = cells = 0
    for state in positions:
        poses = page_poses(state, rng, args.poses)
        for pose in poses:
            start = time.perf_counter()
            verdict = state.why_illegal(pose)
            one.append(time.perf_counter() - start)
            legal += verdict is None
        grid = PlacementGrid(game, accepted)  # a fresh grid: its memo of the last position is empty
        start = time.perf_counter()
        grid.choices(state)
        whole.append(time.perf_counter() - start)
        cells += on_grid(grid, state, poses)
        total += len(poses)
    per_pose, per_turn = statistics.median(one) * 1e3, statistics.median(whole) * 1e3
    print(
        f"{len(positions)} positions with a gift to place (not forced), from {args.games} "
        f"random 4-player games (seeds {args.seed} to {args.seed + args.games - 1}), one core"
    )
    print(f"page poses checked: {total}, accepted: {legal}, cells of the grid: {cells}")
    print(
        f"one check, median: {per_pose:.2f} ms; the grid's accepted cells, median: {per_turn:.2f} ms"
    )
    print(
        f"check: one pose {per_pose:.2f} ms, the grid {per_turn:.2f} ms a turn "
        f"({per_turn / per_pose:.0f} poses for the grid's cost)"
    )


if __name__ == "__main__":
    main()
