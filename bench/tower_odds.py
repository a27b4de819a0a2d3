"""Time the ``odds`` of Splash! placements (``options.placement_aid=odds``) in random games.

On one core, plays ``--games`` games (seeds ``--seed``, ``--seed + 1``, ...) of six random
bots with the physics ruling every placement; at every placement that is not forced it asks
the odds (:func:`splash.physics.odds.standing_odds`: 16 rulings with the placer's tremor) of
two poses a person would look at: the steadiest pose of the map's first face and turn (where
the page puts the piece first) and the pose the bot chose. It prints the time of one answer
(the 16 rulings) by the shape placed, and, as the baseline measured in the same run, the
time of one ruling of the placement as the game rules it. The last line is
``odds=N p50_ms=M p95_ms=P ruling_p50_ms=R ratio=X``: ``N`` answers, their median and 95th
percentile in ms, the median of one ruling and the median answer over it.

    python bench/tower_odds.py [--games 4] [--seed 0]
"""

from __future__ import annotations

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_variable] = "1"

import argparse  # noqa: E402
import time  # noqa: E402
from collections import defaultdict  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402

from splash.bots.tower_random import RandomTowerBot  # noqa: E402
from splash.core.outcomes import RandomOutcomes, RoutedOutcomes  # noqa: E402
from splash.games.tower import TowerState  # noqa: E402
from splash.games.tower.rules import forced  # noqa: E402
from splash.physics.map_request import placements  # noqa: E402
from splash.physics.odds import standing_odds  # noqa: E402
from splash.physics.provider import PhysicsOutcomes, physics_game  # noqa: E402


def _first_pose(state: TowerState) -> dict[str, object] | None:
    """The pose the page shows first: the steadiest of the map's first face and turn, from
    the map the page gets (the ``placements`` request)."""
    found: Any = placements(state, state.placer, {})
    for face, turns in found["faces"].items():
        for turn, cell in turns.items():
            if cell["steadiest"] is not None:
                rotation = int(turn) - 360 if int(turn) > 180 else int(turn)
                return {
                    "face": face,
                    "rotation_deg": rotation,
                    "x_mm": cell["steadiest"]["x_mm"],
                    "y_mm": cell["steadiest"]["y_mm"],
                }
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    by_shape: dict[str, list[float]] = defaultdict(list)
    rulings: list[float] = []
    stood: list[float] = []
    for number in range(args.games):
        seed = args.seed + number
        game = physics_game([("options.players", 6), ("options.placement_aid", "odds")])
        state = game.new_initial_state()
        assert isinstance(state, TowerState)
        bots = [RandomTowerBot(np.random.SeedSequence([seed, seat])) for seat in range(6)]
        outcomes = RoutedOutcomes(
            {"placement": PhysicsOutcomes(seed)}, default=RandomOutcomes(seed)
        )
        while not state.is_terminal():
            if state.is_chance():
                if state.phase == "result":
                    started = time.perf_counter()
                    outcome = outcomes.outcome(state)
                    rulings.append((time.perf_counter() - started) * 1000)
                    state.apply(outcome)
                else:
                    state.apply(outcomes.outcome(state))
                continue
            action = bots[state.to_act()].act(state)
            if action.kind == "place" and state.gift is not None and not forced(state, state.gift):
                shape = state.gift.split("-", 1)[1]
                chosen: dict[str, object] = {
                    name: action.param(name) for name in ("face", "rotation_deg", "x_mm", "y_mm")
                }
                for pose in (_first_pose(state), chosen):
                    if pose is None:
                        continue
                    found = standing_odds(state, pose)
                    by_shape[shape].append(found.elapsed_ms)
                    stood.append(found.stood / found.rulings)
            state.apply(action)
        print(f"game {seed}: {sum(len(v) for v in by_shape.values())} answers so far")
    every = [ms for values in by_shape.values() for ms in values]
    for shape, values in sorted(by_shape.items()):
        print(
            f"{shape:9} answers={len(values):4} p50_ms={np.median(values):8.1f}"
            f" p95_ms={np.percentile(values, 95):8.1f}"
        )
    ruling = float(np.median(rulings))
    print(f"one ruling of the game: p50_ms={ruling:.1f} over {len(rulings)} placements")
    print(f"mean odds shown: {np.mean(stood):.2f}")
    p50, p95 = float(np.median(every)), float(np.percentile(every, 95))
    print(
        f"odds={len(every)} p50_ms={p50:.1f} p95_ms={p95:.1f} ruling_p50_ms={ruling:.1f}"
        f" ratio={p50 / ruling:.1f}"
    )


if __name__ == "__main__":
    main()
