"""How fast ``splash simulate`` plays: games per second per bot on one core, and the speed-up
with 2 worker processes.

For each bot spec given (every seat played by that bot), the script plays the same seeded
games through :func:`splash.sim.runner.run_one`, first in this process pinned to one CPU
(:class:`~splash.sim.backends.Sequential`), then on
:class:`~splash.sim.backends.LocalProcesses` with ``--workers`` processes (process start-up
included, as a user sees it). It prints games per second for both and the speed-up, the
ratio of the two wall times, and checks that both runs gave the same records.

Run it from the repository root::

    python bench/simulate.py
    python bench/simulate.py --game tower --bots random --games 8
    python bench/simulate.py --game bash --bots random,greedy --games 40 --workers 2
"""

from __future__ import annotations

import os

# One core per process: numpy's thread pools are sized when numpy is first imported.
for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_variable] = "1"

import argparse  # noqa: E402
import contextlib  # noqa: E402
import platform  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Sequence  # noqa: E402
from dataclasses import dataclass  # noqa: E402

from splash.bots import split_specs  # noqa: E402
from splash.sim.backends import LocalProcesses, Sequential, cpu_count  # noqa: E402
from splash.sim.runner import GameSpec, Record  # noqa: E402

DEFAULT_BOTS = {"bash": "random,greedy,ismcts:iterations=50", "tower": "random"}
"""The bots measured when ``--bots`` is not given."""
DEFAULT_GAMES = {"bash": 40, "tower": 8}
"""Games per bot when ``--games`` is not given."""


@dataclass(frozen=True)
class Line:
    """The figures of one bot."""

    bot: str
    games: int
    one_core_s: float
    workers_s: float
    same: bool

    @property
    def one_core_rate(self) -> float:
        """Games per second in one process on one core."""
        return self.games / self.one_core_s

    @property
    def workers_rate(self) -> float:
        """Games per second with the worker processes."""
        return self.games / self.workers_s

    @property
    def speed_up(self) -> float:
        """One-core wall time over the workers' wall time."""
        return self.one_core_s / self.workers_s


def _pin_to_one_cpu() -> str:
    try:
        cpus = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpus[0]})
        return f"pinned to CPU {cpus[0]}"
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return "not pinned"


def _unpin(cpus: set[int]) -> None:
    with contextlib.suppress(AttributeError, OSError):
        os.sched_setaffinity(0, cpus)


def _by_seed(records: Sequence[Record]) -> list[Record]:
    return sorted(records, key=lambda record: int(str(record["seed"])))


def measure(game: str, bot: str, games: int, seed: int, workers: int) -> Line:
    """Play ``games`` games of ``bot`` against itself on one core, then on ``workers``."""
    spec = GameSpec.of(game, (), [bot])
    seeds = list(range(seed, seed + games))
    try:
        all_cpus = set(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        all_cpus = set()
    _pin_to_one_cpu()
    start = time.perf_counter()
    alone = list(Sequential().map(spec, seeds))
    one_core = time.perf_counter() - start
    _unpin(all_cpus)
    backend = LocalProcesses(workers)
    try:
        start = time.perf_counter()
        spread = list(backend.map(spec, seeds))
        on_workers = time.perf_counter() - start
    finally:
        backend.close()
    return Line(bot, games, one_core, on_workers, _by_seed(alone) == _by_seed(spread))


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the options, measure every bot, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("bash", "tower"), default="bash")
    parser.add_argument("--bots", help="comma-separated bot specs (default: per game)")
    parser.add_argument("--games", type=int, help="games per bot (default: per game)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    bots = split_specs([args.bots or DEFAULT_BOTS[args.game]])
    games = args.games or DEFAULT_GAMES[args.game]
    print(
        f"splash simulate {args.game}: {games} games per bot, seeds {args.seed}..{args.seed + games - 1}; "
        f"Python {platform.python_version()}, {cpu_count()} CPUs available, "
        f"{args.workers} workers"
    )
    print(
        f"{'bot':<28} {'games/s (1 core)':>17} {'games/s (' + str(args.workers) + ' workers)':>20}"
        f" {'speed-up':>9} {'same records':>13}"
    )
    for bot in bots:
        line = measure(args.game, bot, games, args.seed, args.workers)
        print(
            f"{bot:<28} {line.one_core_rate:>17.3f} {line.workers_rate:>20.3f}"
            f" {line.speed_up:>9.2f} {'yes' if line.same else 'NO':>13}"
        )
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
