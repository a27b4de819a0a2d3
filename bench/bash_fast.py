"""How fast the compiled Splash & Bash core plays, beside the reference engine and ``maedn``.

Measured in one run, 2 teams, default options, random against random, records built
(``splash.sim.fast_engine.fast_table``: the simulator's Parquet schema), warm compile cache:

- the fast core on one core (this process, pinned), and with 2 worker processes (fresh
  interpreters: their start-up and cache loading are counted); where a game's time goes
  (playing, building its records) and where a fresh worker's start goes (the process,
  its imports, its first game: numba's start and the loading of the compile cache);
- the reference engine with the loop of ``bench/bash_random_games.py`` (``apply``, which
  checks each action again) and with the simulator's trusted path (``apply_legal``);
- OpenSpiel's ``maedn`` with the loop of ``bench/bash_random_games.py`` (when installed);
- the cold compile time, in a subprocess with ``NUMBA_CACHE_DIR`` set to a fresh folder
  (run beside the verification, which is not timed);
- a verification of ``--verify`` games (spread over 2-4 teams, permanent obstacles, short
  lanes, a turn cap): the reference engine replays each fast game and its record.

The last line is exactly::

    ratio_vs_maedn=R games_per_s_2cores=G speedup_vs_reference=S differences=D verified=V

``R``: fast transitions/s on one core over maedn's; ``G``: fast games/s with 2 processes;
``S``: ``G`` over the reference engine's games/s (checked loop, one core).

    python bench/bash_fast.py
    python bench/bash_fast.py --games 20000 --verify 10000
"""

from __future__ import annotations

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_variable] = "1"

import argparse  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable, Sequence  # noqa: E402
from concurrent.futures import ProcessPoolExecutor  # noqa: E402
from multiprocessing import get_context  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import TYPE_CHECKING  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))

if TYPE_CHECKING:
    from splash.fast.records import RecordPlan

# A spawned worker imports this module again: what it needs is imported where it is used, so
# that a fast-core worker loads the core alone (splash.fast.records), not the simulator.

VERIFY_OPTIONS: tuple[tuple[str, ...], ...] = (
    (),
    ("options.teams=3",),
    ("options.teams=4", "options.obstacles=permanent"),
    ("board.lanes.outer=14", "board.lanes.centre=11", "board.lanes.high_tide=9", "board.laps=1"),
    ("options.teams=3", "options.turn_cap=60", "options.hand_limit=1"),
)
COLD = (
    "import time; t = time.perf_counter(); "
    "from splash.fast.batch import play_games; from splash.fast.tables import build_tables; "
    "from splash.games.bash import BashGame; play_games(build_tables(BashGame()), [0]); "
    "print(time.perf_counter() - t)"
)


def timed(play: Callable[[], int]) -> tuple[int, float]:
    """The transitions ``play`` returns and the seconds it took."""
    start = time.perf_counter()
    transitions = play()
    return transitions, time.perf_counter() - start


def default_plan() -> RecordPlan:
    """The record plan of 2 teams, default options, random against random."""
    from splash.sim.fast_engine import record_plan
    from splash.sim.runner import GameSpec

    return record_plan(GameSpec.of("bash"))


def fast_chunk(plan: RecordPlan, seeds: list[int]) -> int:
    """One worker's share: the records of ``seeds``; the transitions played."""
    from splash.fast.records import plan_table

    table = plan_table(plan, seeds)
    return int(table.column("actions").to_numpy().sum())


def worker_start(pickled_plan: bytes) -> tuple[float, float]:
    """In a fresh worker: the seconds its imports took (those the plan needs), then its first
    game (numba's start and the loading of the compile cache)."""
    start = time.perf_counter()
    import pickle

    from splash.fast.records import plan_table

    plan = pickle.loads(pickled_plan)
    imported = time.perf_counter()
    plan_table(plan, [0])
    return imported - start, time.perf_counter() - imported


def start_up(plan: RecordPlan) -> tuple[float, float, float]:
    """A fresh worker's start (the process and its connection), imports and first game."""
    import pickle

    pickled = pickle.dumps(plan)
    start = time.perf_counter()
    with ProcessPoolExecutor(1, mp_context=get_context("spawn")) as pool:
        imports, first = pool.submit(worker_start, pickled).result()
        total = time.perf_counter() - start
    return total - imports - first, imports, first


def records_share(plan: RecordPlan, games: int) -> tuple[float, float]:
    """Seconds a game on one core: playing it, and building its records."""
    from splash.fast.batch import play_games
    from splash.fast.records import games_table

    seeds = list(range(2 * 10**7, 2 * 10**7 + games))
    start = time.perf_counter()
    played = play_games(plan, seeds)
    middle = time.perf_counter()
    games_table(plan, played)
    return (middle - start) / games, (time.perf_counter() - middle) / games


def fast_two_processes(plan: RecordPlan, games: int, chunk: int) -> tuple[int, float]:
    """``games`` games in chunks over 2 fresh worker processes (start-up included); chunks
    of a fraction of a second each, so that neither worker idles long at the end."""
    seeds = list(range(games))
    chunks = [seeds[i : i + chunk] for i in range(0, games, chunk)]
    start = time.perf_counter()
    with ProcessPoolExecutor(2, mp_context=get_context("spawn")) as pool:
        transitions = sum(pool.map(fast_chunk, [plan] * len(chunks), chunks))
    return transitions, time.perf_counter() - start


def verify_share(job: tuple[tuple[str, ...], int, int]) -> tuple[int, list[str]]:
    """One share of the verification: ``count`` games of one option set from ``first``."""
    from splash.sim.fast_engine import verify_records
    from splash.sim.runner import GameSpec

    options, first, count = job
    n, found = verify_records(GameSpec.of("bash", list(options)), range(first, first + count))
    return n, [str(difference) for difference in found]


def verify(games: int, workers: int = 2, share: int = 100) -> tuple[int, int]:
    """Games verified and differences found, over the option sets in turn, in ``workers``
    processes; progress is printed as shares finish."""
    jobs = []
    per_set = -(-games // len(VERIFY_OPTIONS))
    left = games
    for i, options in enumerate(VERIFY_OPTIONS):
        count = min(per_set, left)
        left -= count
        for first in range(0, count, share):
            jobs.append((options, i * 10**6 + first, min(share, count - first)))
    checked = differences = 0
    with ProcessPoolExecutor(workers, mp_context=get_context("spawn")) as pool:
        for n, found in pool.map(verify_share, jobs):
            checked += n
            differences += len(found)
            for line in found[:3]:
                print(f"  difference: {line}", flush=True)
            print(f"  verified {checked}/{games}, {differences} differences", flush=True)
    return checked, differences


def row(name: str, games: int, transitions: int, seconds: float) -> str:
    """One line of the table."""
    return (
        f"{name:<34} {games:>7} {transitions:>11} {seconds:>8.2f} "
        f"{games / seconds:>10.1f} {transitions / seconds:>13.0f}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Measure, print the table and the last line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10000, help="fast games, 2 processes (10000)")
    parser.add_argument("--games-1core", type=int, default=3000, help="fast games, one core (3000)")
    parser.add_argument("--reference-games", type=int, default=30, help="reference games (30)")
    parser.add_argument("--maedn-games", type=int, default=300, help="maedn games (300)")
    parser.add_argument("--verify", type=int, default=500, help="games verified (500)")
    parser.add_argument("--no-cold", action="store_true", help="skip the cold compile")
    args = parser.parse_args(argv)
    if (
        min(args.games, args.games_1core, args.reference_games, args.maedn_games) < 1
        or args.verify < 0
    ):
        parser.error("the numbers of games must be positive")

    from bash_random_games import load_pyspiel, pin_to_one_cpu, play_bash_games, play_maedn_games
    from splash.games.bash import BashGame

    plan = default_plan()
    fast_chunk(plan, [0])  # warm the compile cache (compiles once on a fresh checkout)
    with ProcessPoolExecutor(2, mp_context=get_context("spawn")) as pool:
        list(pool.map(fast_chunk, [plan, plan], [[0], [1]]))
    two = fast_two_processes(plan, args.games, max(250, args.games // 32))
    spawned, imports, first = start_up(plan)
    allowed = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    cpu = pin_to_one_cpu()
    print(
        f"one core: {'CPU ' + str(cpu) if cpu is not None else 'not pinned'}; 2 processes: spawned workers"
    )
    one = timed(lambda: fast_chunk(plan, list(range(10**7, 10**7 + args.games_1core))))
    kernel_s, records_s = records_share(plan, min(1000, args.games_1core))
    game = BashGame()
    play_bash_games(game, 0, 2)
    reference = timed(lambda: play_bash_games(game, 0, args.reference_games))
    trusted = timed(lambda: play_bash_games(game, 0, args.reference_games, trusted=True))
    pyspiel = load_pyspiel()
    maedn = None
    if pyspiel is not None:
        spiel_game = pyspiel.load_game("maedn")
        play_maedn_games(spiel_game, 0, 5)
        maedn = timed(lambda: play_maedn_games(spiel_game, 0, args.maedn_games))

    if allowed is not None:
        os.sched_setaffinity(0, allowed)  # the cold compile and the verification use them all
    cold_process = None
    if not args.no_cold:
        cache = tempfile.mkdtemp(prefix="numba-cold-")
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        cold_process = subprocess.Popen(
            [sys.executable, "-c", COLD], env=env, stdout=subprocess.PIPE, text=True
        )
    checked, differences = verify(args.verify)
    cold = (
        float(cold_process.communicate()[0].strip()) if cold_process is not None else float("nan")
    )

    print(
        f"{'engine':<34} {'games':>7} {'transitions':>11} {'seconds':>8} {'games/s':>10} {'transitions/s':>13}"
    )
    print(row("fast core, one core", args.games_1core, *one))
    print(row("fast core, 2 processes", args.games, *two))
    print(row("reference (apply, checked)", args.reference_games, *reference))
    print(row("reference (apply_legal, trusted)", args.reference_games, *trusted))
    if maedn is not None:
        print(row("maedn (OpenSpiel, Python loop)", args.maedn_games, *maedn))
    fast_tps = one[0] / one[1]
    g2 = args.games / two[1]
    ref_gps = args.reference_games / reference[1]
    print(f"reference speed-up of the trusted path: {reference[1] / trusted[1]:.2f}x")
    print(f"fast one core vs reference: {args.games_1core / one[1] / ref_gps:.1f}x games/s")
    print(
        f"fast core, one core, a game: {kernel_s * 1e6:.0f} us played, "
        f"{records_s * 1e6:.0f} us its records"
    )
    print(
        f"a worker's start: {spawned:.2f} s process, {imports:.2f} s imports, "
        f"{first:.2f} s first game (numba's start, cache loading)"
    )
    print(f"cold compile (fresh NUMBA_CACHE_DIR): {cold:.1f} s")
    print(f"verified: {checked} games, {differences} differences")
    ratio = fast_tps / (maedn[0] / maedn[1]) if maedn is not None else float("nan")
    print(
        f"ratio_vs_maedn={ratio:.2f} games_per_s_2cores={g2:.0f} "
        f"speedup_vs_reference={g2 / ref_gps:.1f} differences={differences} verified={checked}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
