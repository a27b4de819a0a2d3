"""How the planner's choices change with the ruling's version: each decision of whole
4-player games is taken twice from the same position and the same bot seed, once with
version 2's rulings and once with version 3's, and the two actions compared.

The games are played by the version-3 planner, with the physics ruling every placement
(``PhysicsOutcomes``, seeds ``--seed``, ``--seed + 1``, ...).  Its last line is
``decisions=N place_changed=P/Q give_changed=G/H``.

    python bench/tower_planner_versions.py [--games 6] [--seed 100] [--players 4]
"""

from __future__ import annotations

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_variable] = "1"

import argparse  # noqa: E402
from collections import Counter  # noqa: E402

from splash.bots.tower_planner import DURATION_S, TowerPlannerBot  # noqa: E402
from splash.core.protocol import CHANCE, TERMINAL  # noqa: E402
from splash.games.tower import TowerState  # noqa: E402
from splash.physics.provider import PhysicsOutcomes, physics_game  # noqa: E402
from splash.physics.ruling import RulingSettings  # noqa: E402

VERSIONS = {
    version: RulingSettings(duration_s=DURATION_S, verdict_only=True, version=version)
    for version in (2, 3)
}
"""The planner's own rulings (its defaults) with each version."""
COMPARED = ("place", "give")
MAX_ACTIONS = 400


def main() -> None:
    """Play the games and print the counts, the summary line last."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    game = physics_game([("options.players", args.players)])
    seen: Counter[str] = Counter()
    changed: Counter[str] = Counter()
    for number in range(args.games):
        state = game.new_initial_state()
        assert isinstance(state, TowerState)
        outcomes = PhysicsOutcomes(args.seed + number)
        for step in range(MAX_ACTIONS):
            if state.to_act() == TERMINAL:
                break
            if state.to_act() == CHANCE:
                state.apply(outcomes.outcome(state))
                continue
            seed = 1000 * (args.seed + number) + step
            chosen = TowerPlannerBot(seed, settings=VERSIONS[3]).act(state)
            if state.phase in COMPARED:
                before = TowerPlannerBot(seed, settings=VERSIONS[2]).act(state)
                seen[state.phase] += 1
                changed[state.phase] += before.to_json() != chosen.to_json()
            state.apply(chosen)
        print(f"game {number}: {dict(seen)} decisions, {dict(changed)} changed", flush=True)
    print(
        f"decisions={sum(seen.values())} place_changed={changed['place']}/{seen['place']}"
        f" give_changed={changed['give']}/{seen['give']}"
    )


if __name__ == "__main__":
    main()
