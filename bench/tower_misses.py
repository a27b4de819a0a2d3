"""What ruling version 3 changes: placements at T06's limit, released with a tremor that may
take them off their target, ruled by version 2 and version 3 (quick, and the fixed 3-s
simulation: ``simulation-long/1`` against ``simulation-long/2``).

Each placement is constructed: a column of 2 to 4 pieces (cubes, beams and upright
cylinders), a piece (a cube, a beam lying flat, an upright cylinder or a prism) chosen at
T06's limit on the column's top in one of 8 directions (every 45 degrees, some turned
30 degrees), the limit found by bisection with the server's own check
(:class:`~splash.physics.placement.PoseProbe`), 0.1 mm inside it; and a seeded tremor of
0.2 to 6 mm, outwards give or take 60 degrees, with a small turn and lift.

A change is *this fix* when version 2 said ``spontaneous`` and version 3 says ``fell``, and
nothing else differs: every settled pose, the pieces left standing and those on the table,
the placed piece among them. Every other placement must be ruled alike, bit for bit (the
outcome documents equal, the method's name aside). The bench lists each change, counts
those that are not this fix (``other``, expected 0), and those where a piece of the tower
fell too (the placed piece, on the table, struck the column after it touched something:
a fall that T10 charges to its giver, as any other).

Its last line is ``misses=N changed_quick=A changed_long=B fix=F other=K``.

    python bench/tower_misses.py [--seed 0] [--tremors 3]
"""

from __future__ import annotations

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_variable] = "1"

import argparse  # noqa: E402
import math  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from collections.abc import Sequence  # noqa: E402
from dataclasses import dataclass, replace  # noqa: E402

import numpy as np  # noqa: E402

from splash.core.errors import SplashError  # noqa: E402
from splash.games.tower.catalogue import load_catalogue  # noqa: E402
from splash.physics.model import TowerModel  # noqa: E402
from splash.physics.outcome import RulingOutcome  # noqa: E402
from splash.physics.placement import Placement, PoseProbe, Tremor  # noqa: E402
from splash.physics.poses import TABLE, PieceRest  # noqa: E402
from splash.physics.ruling import RulingSettings, rule  # noqa: E402

COLUMNS: dict[str, tuple[tuple[str, str, float], ...]] = {
    "cubes-2": (("red-cube", "bottom", 0.0), ("orange-cube", "bottom", 0.0)),
    "cube-beam": (("red-cube", "bottom", 0.0), ("orange-beam", "flat", 30.0)),
    "cubes-3": (
        ("red-cube", "bottom", 0.0),
        ("green-cube", "bottom", 0.0),
        ("orange-cube", "bottom", 15.0),
    ),
    "cube-cylinder-cube": (
        ("red-cube", "bottom", 0.0),
        ("green-cylinder", "round", 0.0),
        ("orange-cube", "bottom", 0.0),
    ),
    "cubes-4": (
        ("red-cube", "bottom", 0.0),
        ("green-cube", "bottom", 0.0),
        ("yellow-cube", "bottom", 0.0),
        ("orange-cube", "bottom", 0.0),
    ),
}
"""The columns built under the placement, bottom first: (piece, face, turn in degrees)."""
PLACED: tuple[tuple[str, str], ...] = (
    ("blue-cube", "bottom"),
    ("blue-beam", "flat"),
    ("blue-cylinder", "round"),
    ("blue-prism", "triangle"),
)
"""The pieces placed at the limit, with their faces."""
DIRECTIONS_DEG = tuple(range(0, 360, 45))
TURNS_DEG = (0.0, 30.0)
INSIDE_M = 0.0001
"""How far inside T06's limit the chosen pose lies."""


@dataclass(frozen=True)
class Case:
    """One constructed placement with its tremor."""

    column: str
    tower: tuple[PieceRest, ...]
    placement: Placement
    tremor: Tremor


def _column(model: TowerModel, name: str) -> tuple[PieceRest, ...]:
    """The column ``name``, each piece centred on the one under it, settled by the 3-s
    simulation (each placement must stand)."""
    tower: list[PieceRest] = []
    target = TABLE
    for piece, face, turn in COLUMNS[name]:
        outcome = rule(model, tower, Placement(piece, face, turn, (0.0, 0.0), target), None, _LONG3)
        if outcome.result != "stood":
            raise SystemExit(f"column {name}: {piece} did not stand ({outcome.result})")
        tower = list(outcome.tower())
        target = piece
    return tuple(tower)


def _limit(probe: PoseProbe, centred: Placement, angle: float) -> float:
    """The farthest offset (metres) along ``angle`` (radians) at which T06 accepts
    ``centred`` moved that way."""
    low, high = 0.0, 0.08
    for _ in range(32):
        middle = (low + high) / 2
        try:
            probe.check(
                replace(centred, offset=(middle * math.cos(angle), middle * math.sin(angle)))
            )
            low = middle
        except SplashError:
            high = middle
    return low


def cases(model: TowerModel, seed: int, tremors: int) -> list[Case]:
    """Every constructed placement, each with ``tremors`` seeded tremor samples."""
    rng = np.random.default_rng(seed)
    found: list[Case] = []
    for name in COLUMNS:
        tower = _column(model, name)
        probe = PoseProbe(model, tower)
        target = tower[-1].piece
        for piece, face in PLACED:
            for index, degrees in enumerate(DIRECTIONS_DEG):
                turn = TURNS_DEG[index % len(TURNS_DEG)]
                angle = math.radians(degrees)
                centred = Placement(piece, face, turn, (0.0, 0.0), target)
                reach = _limit(probe, centred, angle) - INSIDE_M
                if reach <= 0.0:
                    continue
                offset = (reach * math.cos(angle), reach * math.sin(angle))
                placement = replace(centred, offset=offset)
                for _ in range(tremors):
                    size = float(rng.uniform(0.0002, 0.006))
                    heading = angle + float(rng.uniform(-math.pi / 3, math.pi / 3))
                    tremor = Tremor(
                        dx=size * math.cos(heading),
                        dy=size * math.sin(heading),
                        rotation_deg=float(rng.normal(0.0, 1.0)),
                        lift=float(abs(rng.normal(0.0, 0.0005))),
                    )
                    found.append(Case(name, tower, placement, tremor))
    return found


_LONG3 = RulingSettings(mode="long")
PAIRS: dict[str, tuple[RulingSettings, RulingSettings]] = {
    "quick": (RulingSettings(version=2), RulingSettings(version=3)),
    "long": (RulingSettings(mode="long", version=2), RulingSettings(mode="long", version=3)),
}
"""For each mode, the version-2 settings and the version-3 ones."""


def _document(outcome: RulingOutcome) -> dict[str, object]:
    doc = outcome.to_json()
    doc.pop("method", None)
    return doc


def is_the_fix(before: RulingOutcome, after: RulingOutcome) -> bool:
    """Whether a changed ruling is the version-3 fix (module docs)."""
    return (
        before.result == "spontaneous"
        and after.result == "fell"
        and before.pieces == after.pieces
        and before.stacks == after.stacks
        and before.on_table == after.on_table
        and after.placement.piece in after.on_table
    )


def _describe(case: Case, before: RulingOutcome, after: RulingOutcome) -> str:
    p, t = case.placement, case.tremor
    shift = math.hypot(t.dx, t.dy) * 1000.0
    return (
        f"{case.column:>18} {p.piece:>13}/{p.face:<8} turn {p.rotation_deg:4.0f}"
        f" at ({p.offset[0] * 1000:6.1f}, {p.offset[1] * 1000:6.1f}) mm"
        f" tremor {shift:4.1f} mm: {before.result} -> {after.result}"
        f" (on the table: {', '.join(after.on_table)})"
    )


def compare(
    model: TowerModel, all_cases: Sequence[Case]
) -> tuple[Counter[str], Counter[str], list[str]]:
    """For each mode, the count of changed rulings and of those that are the fix; the
    description of every change."""
    changed: Counter[str] = Counter()
    fixes: Counter[str] = Counter()
    lines: list[str] = []
    for case in all_cases:
        for mode, (old, new) in PAIRS.items():
            before = rule(model, case.tower, case.placement, case.tremor, old)
            after = rule(model, case.tower, case.placement, case.tremor, new)
            if _document(before) == _document(after):
                continue
            changed[mode] += 1
            fix = is_the_fix(before, after)
            fixes[mode] += fix
            tag = "OTHER" if not fix else "fix+" if len(after.on_table) > 1 else "fix"
            lines.append(f"{mode:>5} {tag:<5} {_describe(case, before, after)}")
    return changed, fixes, lines


def main() -> None:
    """Run the comparison and print every change, the summary line last."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tremors", type=int, default=3, help="tremor samples per placement")
    args = parser.parse_args()
    start = time.perf_counter()
    model = TowerModel(load_catalogue())
    all_cases = cases(model, args.seed, args.tremors)
    changed, fixes, lines = compare(model, all_cases)
    for line in lines:
        print(line)
    results = Counter(rule(model, c.tower, c.placement, c.tremor).result for c in all_cases)
    print(
        f"{len(all_cases)} placements ({len({(c.column, c.placement) for c in all_cases})}"
        f" poses), version 3 quick: {dict(results)}; {time.perf_counter() - start:.0f} s"
    )
    other = sum(changed.values()) - sum(fixes.values())
    print(
        f"misses={len(all_cases)} changed_quick={changed['quick']}"
        f" changed_long={changed['long']} fix={sum(fixes.values())} other={other}"
    )


if __name__ == "__main__":
    main()
