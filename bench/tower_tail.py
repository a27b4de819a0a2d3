"""The slow tail of the Splash! ruling: ways to rule who stands after a collapse without
simulating all of it, each measured against the fixed 3-s simulation.

Variants (``--variants`` picks some by name):

* ``settle``: the default ruling (version 3): after a fall's verdict, simulate until nothing
  that moves can change who stands;
* ``sleep-1e-4``, ``sleep-1e-3``: the same, with MuJoCo's sleeping islands (a contact island
  whose velocities stay under the tolerance, m/s, is not simulated until something touches
  it): *simulating only the contact islands still moving*;
* ``statics-0``, ``statics-0.1``, ``statics-0.2``: stop 0, 0.1 or 0.2 simulated seconds after
  the verdict and rule the standing part statically (each piece with its standing load
  inside its support region): *statics for the pieces the falling ones cannot reach*;
* ``statics-0.1-moving``: the same at 0.1 s, a standing piece moving faster than 10 cm/s
  counted as falling;
* ``reach-0.1-cap-0.2``: stop once no fallen piece still moving can reach a standing one
  within 0.1 s at its present speed (*a bound on distance rather than a fixed time*), at the
  latest 0.2 s after the verdict, then as ``statics``;
* ``guard-0.05``: from 0.05 s after the verdict, stop once every fallen piece still moving
  (faster than 2 mm/s) is more than 5 mm from every standing piece (the shapes' distance)
  and every standing piece moves slower than 3 cm/s, then as ``statics``;
  ``guard-0.05-2mm``: the same with 2 mm and 2 cm/s;
* ``verdict``: the ruling stopped at the verdict, the pieces where they are then: not a
  ruling of who stands, the bound on the speed-up of any method that simulates the fall.

For each variant, on one core: the agreement with the stored 3-s outcomes over the whole
corpus (the same verdict and, after a fall, the same pieces standing and on the table,
T11), that of its falls, and, on a seeded sample of the placements on 25-30 pieces, the
median and 5th-percentile speed-up against the fixed 3-s simulation timed in the same run
(``p95_speedup_30``: the speed-up of the ruling at its 95th percentile).

Its last line is ``tail_best=NAME p95_speedup_30=P agreement=A/N``: the variant with the
highest p95 speed-up among those that agree on at least 99.5 % of the corpus.

    python bench/tower_tail.py [--sample 109] [--repeats 1] [--variants settle,statics-0]
"""

from __future__ import annotations

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_variable] = "1"

import argparse  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from splash.games.tower.catalogue import load_catalogue  # noqa: E402
from splash.physics.model import ModelSettings, TowerModel  # noqa: E402
from splash.physics.ruling import RulingSettings, rule  # noqa: E402
from tower_corpus import CORPUS, Record, load, same_sets  # noqa: E402


@dataclass(frozen=True)
class Variant:
    """One way to rule: the model's settings and the ruling's."""

    model: ModelSettings
    ruling: RulingSettings
    rules_standing: bool = True
    """Whether it rules who stands (``verdict`` does not: its agreement is not counted)."""


VARIANTS: dict[str, Variant] = {
    "settle": Variant(ModelSettings(), RulingSettings()),
    "sleep-1e-4": Variant(ModelSettings(sleep_tolerance=1e-4), RulingSettings()),
    "sleep-1e-3": Variant(ModelSettings(sleep_tolerance=1e-3), RulingSettings()),
    "statics-0": Variant(ModelSettings(), RulingSettings(tail="statics")),
    "statics-0.1": Variant(ModelSettings(), RulingSettings(tail="statics", tail_grace_s=0.1)),
    "statics-0.2": Variant(ModelSettings(), RulingSettings(tail="statics", tail_grace_s=0.2)),
    "statics-0.1-moving": Variant(
        ModelSettings(), RulingSettings(tail="statics", tail_grace_s=0.1, tail_fall_speed=0.1)
    ),
    "reach-0.1-cap-0.2": Variant(
        ModelSettings(), RulingSettings(tail="reach", reach_horizon_s=0.1, tail_cap_s=0.2)
    ),
    "guard-0.05": Variant(ModelSettings(), RulingSettings(tail="guard", tail_grace_s=0.05)),
    "guard-0.05-2mm": Variant(
        ModelSettings(),
        RulingSettings(tail="guard", tail_grace_s=0.05, guard_gap=0.002, guard_speed=0.02),
    ),
    "verdict": Variant(ModelSettings(), RulingSettings(verdict_only=True), rules_standing=False),
}
LONG = RulingSettings(mode="long")
GOAL = 0.995


@dataclass(frozen=True)
class Row:
    """One variant's figures."""

    name: str
    agree: int
    falls_agree: int
    speedup: float
    p95_speedup: float
    p95_ms: float


def _time(model: TowerModel, record: Record, settings: RulingSettings, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        rule(model, record.tower, record.placement, record.tremor, settings)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def agreement(variant: Variant, records: list[Record]) -> tuple[int, int]:
    """How many placements of ``records`` the variant rules as the stored 3-s outcome, and
    how many of the falls among them."""
    model = TowerModel(load_catalogue(), variant.model)
    agree = falls_agree = 0
    for record in records:
        outcome = rule(model, record.tower, record.placement, record.tremor, variant.ruling)
        same = same_sets(record, outcome)
        agree += same
        falls_agree += same and record.result != "stood"
    return agree, falls_agree


def timings(
    variants: dict[str, Variant], sample: list[Record], repeats: int
) -> tuple[list[float], dict[str, list[float]]]:
    """The fixed 3-s simulation's time of each placement of ``sample`` and each variant's
    (median of ``repeats``), timed one placement after another so that a change of the
    machine's load touches them alike."""
    reference = TowerModel(load_catalogue())
    models = {name: TowerModel(load_catalogue(), v.model) for name, v in variants.items()}
    long_times: list[float] = []
    quick: dict[str, list[float]] = {name: [] for name in variants}
    for record in sample:
        long_times.append(_time(reference, record, LONG, 1))
        for name, variant in variants.items():
            quick[name].append(_time(models[name], record, variant.ruling, repeats))
    return long_times, quick


def main() -> None:
    """Measure the variants and print the table, the summary line last."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sample", type=int, default=109, help="timed placements, 25-30 pieces")
    parser.add_argument("--repeats", type=int, default=1, help="timings per placement (median)")
    parser.add_argument("--variants", default=",".join(VARIANTS), help="comma-separated names")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    args = parser.parse_args()
    names = [name.strip() for name in args.variants.split(",") if name.strip()]
    unknown = [name for name in names if name not in VARIANTS]
    if unknown:
        parser.error(f"unknown variants {', '.join(unknown)} (known: {', '.join(VARIANTS)})")
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    records = load(args.corpus)
    falls = sum(record.result != "stood" for record in records)
    band = [r for r in records if 25 <= r.height <= 30]
    rng = np.random.default_rng(args.seed)
    chosen = rng.choice(len(band), size=min(args.sample, len(band)), replace=False)
    sample = [band[int(i)] for i in sorted(chosen)]
    chosen_variants = {name: VARIANTS[name] for name in names}
    print(f"{len(records)} placements ({falls} falls); {len(sample)} timed on 25-30 pieces")
    agreements = {name: agreement(v, records) for name, v in chosen_variants.items()}
    long_times, quick = timings(chosen_variants, sample, args.repeats)
    print(f"fixed 3 s median {statistics.median(long_times) * 1000:.0f} ms")
    print(
        f"{'variant':<20} {'agreement':>10} {'falls':>7} {'speedup':>8} {'p95 speedup':>12}"
        f" {'p95 ms':>8}"
    )
    rows = []
    for name, variant in chosen_variants.items():
        ratios = [slow / fast for slow, fast in zip(long_times, quick[name], strict=True)]
        agree, falls_agree = agreements[name]
        row = Row(
            name=name,
            agree=agree,
            falls_agree=falls_agree,
            speedup=statistics.median(ratios),
            p95_speedup=float(np.percentile(ratios, 5)),
            p95_ms=float(np.percentile(quick[name], 95)) * 1000.0,
        )
        rows.append(row)
        counted = variant.rules_standing
        shown = f"{row.agree}/{len(records)}" if counted else "-"
        fell = f"{row.falls_agree}/{falls}" if counted else "-"
        print(
            f"{name:<20} {shown:>10} {fell:>7} {row.speedup:8.0f} {row.p95_speedup:12.1f}"
            f" {row.p95_ms:8.1f}",
            flush=True,
        )
    good = [
        row
        for row in rows
        if VARIANTS[row.name].rules_standing and row.agree >= GOAL * len(records)
    ]
    if good:
        best = max(good, key=lambda row: row.p95_speedup)
        print(
            f"tail_best={best.name} p95_speedup_30={best.p95_speedup:.1f}"
            f" agreement={best.agree}/{len(records)}"
        )
    else:
        print(f"tail_best=none p95_speedup_30=0 agreement=0/{len(records)}")


if __name__ == "__main__":
    main()
