"""Time the Splash! placement ruling against the fixed 3-s simulation, on the stored corpus.

The corpus (``tower_corpus.py``) holds placements grown by a careful placer, each with the
outcome of its fixed 3-s simulation.  On one core, this bench

* rules every placement of the corpus with the quick ruling and counts how many agree with
  the stored outcome (the same verdict and, after a fall, the same pieces standing and on the
  table, T11);
* times, on a seeded sample of the placements on 25-30 pieces, the quick ruling (median of
  ``--repeats``) and the fixed 3-s simulation of the same placement, in the same run: the
  speed-up of a placement is their ratio; ``speedup_30`` is the median speed-up and
  ``p95_speedup_30`` the speed-up of the slow tail (the 5th percentile of the speed-ups: the
  ruling at its 95th percentile);
* re-simulates a seeded sample of ``--stale`` stored placements for 3 s and counts those whose
  outcome no longer matches the stored digest (``stale``: 0 when the corpus matches the code).

Its last line is ``speedup_30=S p95_speedup_30=P agreement=A/N tall=T falls=F stale=K``:
``tall`` counts the agreement placements on 20-30 pieces, ``falls`` is the fall share of the
speed sample.

    python bench/tower_placement.py [--sample 30] [--repeats 3] [--stale 40] [--seed 0]
"""

from __future__ import annotations

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_variable] = "1"

import argparse  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from splash.games.tower.catalogue import load_catalogue  # noqa: E402
from splash.physics.model import TowerModel  # noqa: E402
from splash.physics.outcome import RulingOutcome  # noqa: E402
from splash.physics.ruling import RulingSettings, rule  # noqa: E402
from tower_corpus import CORPUS, Record, digest, load, same_sets  # noqa: E402

LONG = RulingSettings(mode="long")


def _timed(
    model: TowerModel, record: Record, settings: RulingSettings
) -> tuple[float, RulingOutcome]:
    start = time.perf_counter()
    outcome = rule(model, record.tower, record.placement, record.tremor, settings)
    return time.perf_counter() - start, outcome


def main() -> None:
    """Run the benchmark and print its figures, the summary line last."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sample", type=int, default=30, help="timed placements on 25-30 pieces")
    parser.add_argument("--repeats", type=int, default=3, help="quick rulings per timed placement")
    parser.add_argument("--stale", type=int, default=40, help="stored outcomes re-simulated")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--version", type=int, default=RulingSettings().version)
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="the stored corpus")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    records = load(args.corpus)
    model = TowerModel(load_catalogue())
    quick = RulingSettings(version=args.version)
    rng = np.random.default_rng(args.seed)

    agree = 0
    misses: Counter[str] = Counter()
    for record in records:
        outcome = rule(model, record.tower, record.placement, record.tremor, quick)
        if same_sets(record, outcome):
            agree += 1
        else:
            misses[f"{record.result} ruled {outcome.result}"] += 1
    tall = sum(1 for r in records if 20 <= r.height <= 30)
    print(f"agreement with the stored 3-s outcomes: {agree}/{len(records)} ({quick.method})")
    for kind, count in sorted(misses.items()):
        print(f"  disagreements, {kind}: {count}")

    band = [r for r in records if 25 <= r.height <= 30]
    chosen = rng.choice(len(band), size=min(args.sample, len(band)), replace=False)
    sample = [band[int(i)] for i in sorted(chosen)]
    ratios, quick_times, long_times = [], [], []
    for record in sample:
        times = [_timed(model, record, quick)[0] for _ in range(args.repeats)]
        q = statistics.median(times)
        long_s, _ = _timed(model, record, LONG)
        quick_times.append(q)
        long_times.append(long_s)
        ratios.append(long_s / q)
    falls = sum(1 for r in sample if r.result != "stood") / len(sample)
    print(
        f"{len(sample)} placements on 25-30 pieces: ruling median "
        f"{statistics.median(quick_times) * 1000:.1f} ms, p95 "
        f"{float(np.percentile(quick_times, 95)) * 1000:.1f} ms; fixed 3 s median "
        f"{statistics.median(long_times) * 1000:.0f} ms"
    )

    stale = 0
    picked = rng.choice(len(records), size=min(args.stale, len(records)), replace=False)
    for i in sorted(picked):
        record = records[int(i)]
        _, outcome = _timed(model, record, LONG)
        if digest(outcome) != record.digest:
            stale += 1
    speedup = statistics.median(ratios)
    tail = float(np.percentile(ratios, 5))
    print(
        f"speedup_30={speedup:.0f} p95_speedup_30={tail:.0f} agreement={agree}/{len(records)} "
        f"tall={tall} falls={falls:.2f} stale={stale}"
    )


if __name__ == "__main__":
    main()
