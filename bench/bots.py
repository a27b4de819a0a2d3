"""How long the Splash & Bash bots take to decide, level by level.

Positions are taken from games between two greedy bots (every decision with a real choice,
after the placements, from games seeded ``--seed``, ``--seed + 1``, ...); every bot of
``--bots`` then decides each of them once, timed on one core.  It prints, per bot, the
decisions timed and the mean, median, 95th percentile and largest time of one decision, in
milliseconds.

Run it from the repository root::

    python bench/bots.py
    python bench/bots.py --bots greedy,expectimax,ismcts:iterations=200 --positions 100
"""

from __future__ import annotations

import os

# One core: the thread pools of numpy's linear algebra libraries are sized when numpy is
# first imported, so these must be set before it is (splash imports numpy too).
for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_variable] = "1"

import argparse  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

from splash.bots import make_bot, split_specs  # noqa: E402
from splash.core import CHANCE, RandomOutcomes  # noqa: E402
from splash.games.bash import BashGame, BashState  # noqa: E402

DEFAULT_BOTS = "random,ismcts:iterations=50,greedy,expectimax"


def positions(count: int, seed: int) -> list[BashState]:
    """``count`` decisions with a real choice from seeded greedy-against-greedy games."""
    found: list[BashState] = []
    game = BashGame()
    while len(found) < count:
        state = game.new_initial_state()
        bots = [make_bot("greedy", seed), make_bot("greedy", seed + 1)]
        outcomes = RandomOutcomes(seed)
        while not state.is_terminal() and len(found) < count:
            seat = state.to_act()
            if seat == CHANCE:
                state.apply(outcomes.outcome(state))
                continue
            if state.turns > 0 and len(state.legal_actions()) > 1:
                found.append(state.clone())
            state.apply(bots[seat].act(state))
        seed += 2
    return found


def main() -> None:
    """Time every bot of ``--bots`` on the same positions and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default=DEFAULT_BOTS, help="bot specs, comma-separated")
    parser.add_argument("--positions", type=int, default=60, help="decisions timed per bot")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    states = positions(args.positions, args.seed)
    print(f"{'bot':<28} {'decisions':>9} {'mean ms':>9} {'median':>9} {'p95':>9} {'max':>9}")
    for spec in split_specs([args.bots]):
        bot = make_bot(spec, args.seed)
        times = []
        for state in states:
            start = time.perf_counter()
            bot.act(state)
            times.append(1000 * (time.perf_counter() - start))
        times.sort()
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        print(
            f"{spec:<28} {len(times):>9} {statistics.fmean(times):>9.1f} "
            f"{statistics.median(times):>9.1f} {p95:>9.1f} {times[-1]:>9.1f}"
        )


if __name__ == "__main__":
    main()
