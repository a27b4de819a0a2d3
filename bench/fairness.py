"""Fairness re-measured: a stored finalist of ``splash tune`` and the draft, on fresh seeds, at
every skill level.

The finalist is the recommended one of a tuning run's folder (``--tune TUNE``: its fixed
settings and its searched values) or settings given with ``--set``; the draft is the same
fixed settings without the searched values (the shipped draft with ``--set``).  Both play
``random`` and ``greedy`` games (``--games``, 2,900 by default: the count at which a design
whose true edge is 0 passes "interval inside ±3 points" with 80 % power) on the compiled
core, and the finalist plays the strong level (``--strong``, default
:data:`splash.tune.levels.STRONG`) on ``--strong-games`` games (300 by default) on the
reference engine; ``--draft-strong-games`` adds the draft at the strong level.  Every game
uses seeds from ``--seed`` on (1,000,000 by default: far from a tuning run's own).

For each design and level it prints the first team's edge in points with its 95 % Wilson
interval and the game length; the last line is exactly::

    levels=L best_worst_edge=E ci_halfwidth=H length_change=C strong_games=N

E is the finalist's largest |edge| over the levels, in points; H the half-width of that
level's interval, in points; C the finalist's game length at ``greedy`` as a change from the
draft's (a fraction); N the finalist's games at the strong level.

    python bench/fairness.py --tune TUNE
    python bench/fairness.py --set options.turn_order=snake --set options.start_stagger=1
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from splash.report.estimates import Estimate, estimate, games_table
from splash.report.metric_ids import metric
from splash.report.results import Results, Run, results_frame
from splash.sim.backends import Backend, LocalProcesses, Sequential
from splash.sim.engines import choose_engine
from splash.sim.runner import GameSpec
from splash.sim.sweep import value_text
from splash.tune.levels import STRONG
from splash.tune.search import load_finalists


@dataclass(frozen=True)
class Measured:
    """One design at one level: its edge and its game length on fresh seeds."""

    design: str
    level: str
    edge: Estimate
    length: Estimate
    seconds: float


def play(
    backend: Backend, settings: Sequence[str], bot: str, seeds: Sequence[int], design: str
) -> Measured:
    """The games of ``settings`` with ``bot`` in every seat on ``seeds``."""
    import pyarrow as pa

    spec, _ = choose_engine(GameSpec.of("bash", settings, [bot]), "auto")
    started = time.perf_counter()
    table = pa.concat_tables(list(backend.tables(spec, seeds))).drop_columns(["trace"])
    seconds = time.perf_counter() - started
    frame = results_frame(table.sort_by("seed"))
    run = Run(Path("fairness"), spec.game, spec.options, spec.bots, len(frame), None)
    games = games_table(Results(spec.game, spec.seats, (run,), frame))
    return Measured(
        design,
        bot,
        estimate(metric("first_seat_advantage"), games),
        estimate(metric("duration_turns"), games),
        seconds,
    )


def designs(tune: Path | None, given: Sequence[str]) -> tuple[list[str], list[str]]:
    """The draft's settings and the finalist's (``KEY=VALUE`` texts)."""
    if tune is None:
        return [], list(given)
    document, finalists = load_finalists(tune)
    fixed = [f"{key}={value_text(value)}" for key, value in json.loads(document["options"]).items()]
    best = finalists[0]
    searched = [f"{key}={value_text(value)}" for key, value in best.values.items()]
    return fixed, [*fixed, *searched, *given]


def line(found: Measured) -> str:
    """One design at one level, in words."""
    e, n = found.edge, found.edge.games
    return (
        f"{found.design:>8} {found.level:<14} edge {e.value * 100:+6.2f} points "
        f"[{e.low * 100:+.2f}, {e.high * 100:+.2f}] on {n} games, "
        f"{found.length.value:6.1f} team turns, {found.seconds / max(1, n):.3f} s a game"
    )


def main() -> None:
    """Measure and print (see the module)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tune", type=Path, help="a tuning run's folder (its best finalist)")
    parser.add_argument("--set", action="append", default=[], help="KEY=VALUE of the finalist")
    parser.add_argument("--games", type=int, default=2900, help="games at random and greedy")
    parser.add_argument("--strong", default=STRONG, help="the strong level's bot")
    parser.add_argument("--strong-games", type=int, default=300)
    parser.add_argument("--draft-strong-games", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1_000_000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if args.tune is None and not args.set:
        parser.error("give --tune TUNE or the finalist's --set KEY=VALUE")
    draft, finalist = designs(args.tune, args.set)
    print(f"draft: {', '.join(draft) or 'the shipped draft'}")
    print(f"finalist: {', '.join(finalist)}")
    backend: Backend = Sequential() if args.workers == 1 else LocalProcesses(args.workers)
    started = time.perf_counter()
    seeds = list(range(args.seed, args.seed + args.games))
    strong_seeds = list(range(args.seed, args.seed + args.strong_games))
    found: dict[tuple[str, str], Measured] = {}
    try:
        for level in ("random", "greedy"):
            for design, settings in (("draft", draft), ("finalist", finalist)):
                found[design, level] = play(backend, settings, level, seeds, design)
                print(line(found[design, level]), flush=True)
        found["finalist", args.strong] = play(
            backend, finalist, args.strong, strong_seeds, "finalist"
        )
        print(line(found["finalist", args.strong]), flush=True)
        if args.draft_strong_games:
            draft_seeds = strong_seeds[: args.draft_strong_games]
            found["draft", args.strong] = play(backend, draft, args.strong, draft_seeds, "draft")
            print(line(found["draft", args.strong]), flush=True)
    finally:
        backend.close()
    levels = ("random", "greedy", args.strong)
    mine = [found["finalist", level] for level in levels]
    worst = max(mine, key=lambda m: abs(m.edge.value))
    half = (worst.edge.high - worst.edge.low) / 2
    change = found["finalist", "greedy"].length.value / found["draft", "greedy"].length.value - 1
    print(f"{time.perf_counter() - started:.0f} s in all, {args.workers} workers")
    print(
        f"levels={len(levels)} best_worst_edge={abs(worst.edge.value) * 100:.2f} "
        f"ci_halfwidth={half * 100:.2f} length_change={change:+.3f} "
        f"strong_games={found['finalist', args.strong].edge.games}"
    )


if __name__ == "__main__":
    main()
