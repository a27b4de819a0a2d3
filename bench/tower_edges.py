"""Fair on a knife-edge: where the simulation tips a placement, against the static edge.

Each placement is swept along the direction that lowers its static margin fastest (the
margin of :func:`splash.physics.static_ruling.rule_with_margin`: the smallest one from the
placed piece down to the base, negative beyond the tipping edge).  That direction is minus
the margin's gradient in the plane of the placement's offset (the target's frame), found by
central differences (0.05 mm) at the placement's starting offset, zero tremor.  Along it,
the offset of margin 0 (the *static edge*) is found by bisection, then those of margins
+0.1 ... +1.0 mm and -0.1 ... -1.0 mm: 21 poses from +1.0 to -1.0 mm in 0.1 mm steps, each
ruled by the simulation (:func:`splash.physics.ruling.rule`) with zero tremor.  The ruling
is the quick one with its default settings stopped at a fall's verdict
(``RulingSettings(verdict_only=True)``): the verdicts of ``RulingSettings()``, since both
run alike up to the verdict and a fall stays a fall, without settling the fallen pieces,
which on the corpus's tall towers takes most of the time; ``--settle`` rules with
``RulingSettings()`` itself.

* **The constructed set**: 150 placements on columns built by the simulation, 30 of each
  kind (cube on cube, beam flat on cube, cylinder on its end on cube, beam flat on beam
  flat, prism on beam flat), each on columns of 2, 3 and 4 pieces (under the placement;
  the same shape as the target's, or a turned arch, cylinder and cube under a turned
  target: "mixed") and in 5 directions: offset towards +x, +y, -x, the diagonal (45
  degrees), and towards -y with the piece turned 30 degrees ("turned").  The sweep starts
  where the static margin along that ray is 3 mm.
* **The corpus set** (``tower_corpus.py``): the corpus placements whose static margin with
  zero tremor lies strictly between 0 and 2 mm (81), from their own offsets; the 19 arches
  among them go with the set apart.
* **Apart** (figures of their own, not in the last line): arches on their feet (their
  support region jumps when a foot leaves the target) and cylinders lying on their side (on
  a piece the static ruling always calls them fallen; their margin here is how far their
  centre lies inside their line of support, along it, as
  :func:`splash.physics.statics.line_margin` measures it).  Where the margin jumps at the
  edge, the sweep steps 0.1 mm / |gradient| of offset instead, and the figures use those
  nominal margins.

Measures (over the constructed and corpus sets; the same figures apart):

* ``non_monotone``: sweeps in which a pose stood at a lower static margin than a pose that
  fell (``fell`` and ``spontaneous`` are falls); each is printed, verdict by verdict.
* ``tremor_split``: at margins +0.25, +0.5 and +1.0 mm on the sweep, the share of
  placements whose 8 tremor samples at the game's default steadiness (``HAND``; the same 8
  samples at the three margins, drawn from a generator seeded by ``--seed`` and the
  placement) do not all agree.  Beside it, two predictions of the static model: the
  *normal* one, the mean over placements of ``1 - p**8 - (1 - p)**8`` with
  ``p = Phi(-m / (0.5 mm * |g|))`` (``m`` the static margin, ``|g|`` the margin's gradient
  there: a linear margin under the hand's normal 0.5-mm shift on each axis), and the static
  ruling of the same 8 samples (their shift and turn; it ignores their lift).
* ``edge_mm``: a sweep's simulated edge is the static margin half-way between the last pose
  that stood before the first fall and that fall (positive: the simulation falls inside the
  static edge; +0.05 is one step: stood at +0.1 mm, fell at 0).  A sweep that never falls,
  or falls from +1 mm on, has none (``censored`` in the tables).  ``edge_mm`` is the median
  of ``|edge|``; the tables give each kind's median and band (min..max) of the signed edge
  and how many sweeps lie within one step (0.05 mm); the sweeps further off are listed.

The last line is ``edges=N non_monotone=K tremor_split=A/B/C edge_mm=E``: ``N`` sweeps
counted, ``A/B/C`` the shares at +0.25/+0.5/+1.0 mm.  By default every third placement of
each set runs; ``--full`` runs them all.  ``--workers`` processes, each with a model of its
own; the times printed are wall time and the sweeps' CPU time.

    python bench/tower_edges.py [--full] [--workers 2] [--seed 0] [--settle] [--verbose]
"""

from __future__ import annotations

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_variable] = "1"

import argparse  # noqa: E402
import math  # noqa: E402
import multiprocessing  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable, Sequence  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from functools import cache  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
from numpy.typing import NDArray  # noqa: E402

from splash.games.tower.catalogue import load_catalogue  # noqa: E402
from splash.physics.errors import PlacementError  # noqa: E402
from splash.physics.model import TowerModel  # noqa: E402
from splash.physics.placement import Placement, Tremor, check_tower, placed_pose  # noqa: E402
from splash.physics.poses import TABLE, PieceRest  # noqa: E402
from splash.physics.ruling import RulingSettings, rule  # noqa: E402
from splash.physics.static_ruling import rule_with_margin, support_region_of  # noqa: E402
from splash.physics.statics import region_margin  # noqa: E402
from tower_corpus import CORPUS, HAND, Record, load  # noqa: E402

MM = 1e-3
STEPS = 10
"""Sweep steps on each side of the static edge (0.1 mm of margin each)."""
SPAN = 1.0 * MM
"""The sweep runs from margin +SPAN to -SPAN."""
START = 3.0 * MM
"""A constructed placement starts where its static margin along its ray is this."""
PROBE = 0.05 * MM
"""The step of the central differences."""
TREMOR_MARGINS = (0.25 * MM, 0.5 * MM, 1.0 * MM)
SAMPLES = 8
VERDICT = RulingSettings(verdict_only=True)
"""The quick ruling (default settings) stopped at a fall's verdict: the same verdict as
``RulingSettings()`` (up to the verdict both run alike, and a fall stays a fall), without
settling the fallen pieces (``--settle`` rules with ``RulingSettings()`` itself)."""
CORPUS_BAND = (0.0, 2.0 * MM)
"""The corpus placements swept: zero-tremor static margin strictly inside this band."""

Vector = NDArray[np.float64]
Steps = tuple[tuple[str, str, float], ...]
"""A column bottom to top, each piece centred on the one below: (piece, face, turn)."""

KINDS = {
    # kind: (placed shape, face, target shape, face)
    "cube on cube": ("cube", "bottom", "cube", "bottom"),
    "beam on cube": ("beam", "flat", "cube", "bottom"),
    "cylinder on cube": ("cylinder", "round", "cube", "bottom"),
    "beam on beam": ("beam", "flat", "beam", "flat"),
    "prism on beam": ("prism", "triangle", "beam", "flat"),
}
APART_KINDS = {
    "arch on cube": ("arch", "feet", "cube", "bottom"),
    "arch on beam": ("arch", "feet", "beam", "flat"),
    "lying cylinder on cube": ("cylinder", "side", "cube", "bottom"),
    "lying cylinder on beam": ("cylinder", "side", "beam", "flat"),
}
DIRECTIONS = {
    # name: (direction of the start's offset, degrees in the target's frame; piece turn)
    "+x": (0.0, 0.0),
    "+y": (90.0, 0.0),
    "-x": (180.0, 0.0),
    "diag": (45.0, 0.0),
    "turned": (270.0, 30.0),
}
MIXED = (("yellow-arch", "feet", 0.0), ("yellow-cylinder", "round", 20.0))
"""The pieces under a turned target (bottom first; a third level adds a yellow cube)."""


@dataclass(frozen=True)
class Case:
    """One placement to sweep."""

    index: int
    kind: str
    group: str
    """``constructed``, ``corpus`` or ``apart``."""
    levels: int
    """Pieces under the placement."""
    direction: str
    column: Steps | None
    """The column to build (constructed), or ``None`` with ``tower`` given (corpus)."""
    tower: tuple[PieceRest, ...]
    placement: Placement
    """The placement; a constructed one at offset (0, 0), its ray towards ``direction``."""
    lying: bool = False
    cost: float = 1.0
    """A guess of its time, to start the slow ones first."""


@dataclass(frozen=True)
class Sweep:
    """What one sweep found (margins in mm)."""

    case: Case
    gradient: float
    heading_deg: float
    margins: tuple[float, ...]
    verdicts: tuple[str, ...]
    jump: bool
    split_margins: tuple[float, ...]
    split: tuple[bool, ...]
    static_split: tuple[bool, ...]
    predicted: tuple[float, ...]
    seconds: float
    """CPU time of the sweep (its process's)."""
    error: str | None = None

    @property
    def falls(self) -> tuple[bool, ...]:
        """Whether each pose fell (``fell`` or ``spontaneous``)."""
        return tuple(v != "stood" for v in self.verdicts)

    @property
    def positions(self) -> tuple[float, ...]:
        """Where each pose lies on the sweep (mm): its static margin, or, where the margin
        jumps at the edge, the nominal one (+1.0 to -1.0, 0.1 mm of offset / |gradient|
        apart)."""
        if not self.jump:
            return self.margins
        return tuple((STEPS - k) * SPAN / STEPS / MM for k in range(2 * STEPS + 1))

    @property
    def non_monotone(self) -> bool:
        """Whether a pose stood at a lower static margin than a pose that fell."""
        fell = [m for m, f in zip(self.positions, self.falls, strict=True) if f]
        stood = [m for m, f in zip(self.positions, self.falls, strict=True) if not f]
        return bool(fell and stood and min(stood) < max(fell))

    @property
    def edge(self) -> float | None:
        """The position (mm, :attr:`positions`) half-way between the last pose that stood
        before the first fall and that fall; ``None`` when the sweep never falls or falls
        from its first pose on."""
        falls = self.falls
        if not any(falls) or falls[0]:
            return None
        first = falls.index(True)
        return (self.positions[first - 1] + self.positions[first]) / 2


@cache
def _model() -> TowerModel:
    return TowerModel(load_catalogue())


@cache
def _column(column: Steps) -> tuple[PieceRest, ...]:
    """The column built by the simulation, piece by piece (each centred on the one below)."""
    model = _model()
    tower: list[PieceRest] = []
    for piece, face, turn in column:
        target = tower[-1].piece if tower else TABLE
        outcome = rule(model, tower, Placement(piece, face, turn, (0.0, 0.0), target))
        if outcome.result != "stood":
            raise RuntimeError(f"the column {column} did not stand at {piece}")
        tower = list(outcome.tower())
    return tuple(tower)


def _margin_function(
    model: TowerModel, tower: Sequence[PieceRest], placement: Placement, lying: bool
) -> Callable[[float, float], float]:
    """The static margin (metres) of ``placement`` moved to an offset, zero tremor."""
    if not lying:

        def margin(x: float, y: float) -> float:
            try:
                _, value = rule_with_margin(
                    model, tower, _at(placement, x, y), Tremor(), forced=False
                )
                return value
            except PlacementError:
                return -math.inf  # off its target (T06): far beyond any edge

        return margin
    catalogue = model.catalogue
    rests = check_tower(catalogue, tower)
    below = rests[placement.target]
    shape = catalogue.shape_of(placement.piece)

    def line(x: float, y: float) -> float:
        pose = placed_pose(catalogue, rests, _at(placement, x, y))
        rest = PieceRest(placement.piece, placement.face, placement.target, pose)
        region, on_line = support_region_of(catalogue, rest, below)
        centre = pose.transform().apply(shape.centre_of_mass)
        return region_margin(centre[:2], region, on_line)

    return line


def _gradient(margin: Callable[[float, float], float], x: float, y: float) -> Vector:
    gx = (margin(x + PROBE, y) - margin(x - PROBE, y)) / (2 * PROBE)
    gy = (margin(x, y + PROBE) - margin(x, y - PROBE)) / (2 * PROBE)
    return np.array([gx, gy])


def _solve(f: Callable[[float], float], target: float, good: float, bad: float) -> float:
    """A parameter where f crosses ``target`` (within 1e-7), between ``good`` (f >= target)
    and ``bad`` (f < target): each end is first moved away from the other, step doubling,
    until it holds; then regula falsi (Illinois), by halves where f is infinite.  Where f
    jumps over ``target``, the last parameter before the jump (within 1e-9) on its good
    side."""
    for end in ("good", "bad"):
        step = bad - good
        for _ in range(30):
            if (f(good) >= target) if end == "good" else (f(bad) < target):
                break
            if end == "good":
                good -= step
            else:
                bad += step
            step *= 2
        else:
            raise ValueError(f"the margin never crosses {target / MM:+.2f} mm")
    above, below = f(good) - target, f(bad) - target
    side = 0
    middle = good
    for _ in range(100):
        if math.isfinite(below) and above - below > 0:
            middle = (good * below - bad * above) / (below - above)
        if not math.isfinite(below) or not min(good, bad) < middle < max(good, bad):
            middle = (good + bad) / 2
        value = f(middle) - target
        if abs(value) < 1e-7:
            break
        if abs(bad - good) < 1e-9:
            return good  # a jump: the last parameter on its good side
        if value >= 0:
            good, above = middle, value
            if side > 0:
                below /= 2
            side = 1
        else:
            bad, below = middle, value
            if side < 0:
                above /= 2
            side = -1
    return middle


def _phi(z: float) -> float:
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


def sweep(case: Case, seed: int, settings: RulingSettings = VERDICT) -> Sweep:
    """Sweep ``case`` (module docs), ruling with ``settings``."""
    start_time = time.process_time()
    model = _model()
    try:
        tower = _column(case.column) if case.column is not None else case.tower
        return _sweep(model, case, tower, seed=seed, settings=settings, start_time=start_time)
    except (PlacementError, ValueError, RuntimeError) as error:
        return Sweep(
            case, 0.0, 0.0, (), (), False, (), (), (), (), time.process_time() - start_time,
            error=f"{type(error).__name__}: {error}",
        )  # fmt: skip


def _sweep(
    model: TowerModel,
    case: Case,
    tower: Sequence[PieceRest],
    *,
    seed: int,
    settings: RulingSettings,
    start_time: float,
) -> Sweep:
    placement = case.placement
    margin = _margin_function(model, tower, placement, case.lying)
    origin, ray = _start(case, margin)
    gradient = _gradient(margin, *origin)
    norm = float(np.hypot(*gradient))
    if norm > 1e-3:
        u = -gradient / norm
    elif ray is not None:  # a flat margin (an arch's): along the ray, 0.1 mm steps
        u, norm = ray, 1.0
    else:
        raise ValueError("the static margin has no gradient at the start")

    def along(s: float) -> float:
        return margin(*(origin + u * s))

    m0 = along(0.0)
    if not m0 > 0.0:
        raise ValueError("the start has no positive margin")
    edge = _solve(along, 0.0, 0.0, 1.2 * m0 / norm + 0.01 * MM)
    step = SPAN / STEPS
    jump = abs(along(edge - 1e-6) - along(edge + 1e-6)) > step / 2
    offsets = {0: edge}  # k: the offset along the sweep of margin k * step
    for sign in (1, -1):
        s, slope = edge, norm
        for k in range(1, STEPS + 1):
            if jump:
                offsets[sign * k] = edge - sign * k * step / norm
                continue
            near = s - sign * 1.2 * step / slope
            target = sign * k * step
            s = _solve(along, target, near, s) if sign > 0 else _solve(along, target, s, near)
            slope = min(max(k * step / max(abs(s - edge), 1e-9), 1e-3), 100.0)
            offsets[sign * k] = s
    quarter = TREMOR_MARGINS[0]
    if jump:
        between = edge - quarter / norm
    else:
        between = _solve(along, quarter, offsets[round(2 * quarter / step)], edge)
    tremor_offsets = [between, *(offsets[round(m / step)] for m in TREMOR_MARGINS[1:])]
    margins, verdicts = [], []
    for k in range(2 * STEPS + 1):
        x, y = origin + u * offsets[STEPS - k]
        margins.append(margin(x, y) / MM)
        verdicts.append(rule(model, tower, _at(placement, x, y), Tremor(), settings).result)

    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(case.index,)))
    tremors = [HAND.sample(rng) for _ in range(SAMPLES)]
    split_margins, split, static_split, predicted = [], [], [], []
    for place in tremor_offsets:
        x, y = origin + u * place
        moved = _at(placement, x, y)
        m = margin(x, y)
        g = float(np.hypot(*_gradient(margin, x, y)))
        results = {rule(model, tower, moved, t, settings).result != "stood" for t in tremors}
        static = {
            rule_with_margin(model, tower, moved, t, forced=False)[0].result != "stood"
            for t in tremors
        }
        p = _phi(-m / (HAND.position_mm * MM * g)) if g > 0 else float(m <= 0)
        split_margins.append(m / MM)
        split.append(len(results) > 1)
        static_split.append(len(static) > 1)
        predicted.append(1.0 - p**SAMPLES - (1.0 - p) ** SAMPLES)
    return Sweep(
        case=case,
        gradient=norm,
        heading_deg=math.degrees(math.atan2(u[1], u[0])),
        margins=tuple(margins),
        verdicts=tuple(verdicts),
        jump=jump,
        split_margins=tuple(split_margins),
        split=tuple(split),
        static_split=tuple(static_split),
        predicted=tuple(predicted),
        seconds=time.process_time() - start_time,
    )


def _start(case: Case, margin: Callable[[float, float], float]) -> tuple[Vector, Vector | None]:
    """Where a sweep starts, and the ray of a constructed placement: a corpus placement at
    its offset; a constructed one where its margin along its ray is :data:`START` (2 mm
    inside where the margin jumps, an arch's)."""
    if case.column is None:
        return np.array(case.placement.offset, dtype=np.float64), None
    angle = math.radians(DIRECTIONS[_direction(case)][0])
    ray = np.array([math.cos(angle), math.sin(angle)])

    def on_ray(s: float) -> float:
        return margin(*(ray * s))

    if on_ray(0.0) <= START:
        raise ValueError("the centred placement has no 3 mm of margin")
    s = _solve(on_ray, START, 0.0, 5 * MM)
    if abs(on_ray(s) - START) > 0.1 * MM:
        s -= 2 * MM
    return ray * s, ray


def _at(placement: Placement, x: float, y: float) -> Placement:
    """``placement`` moved to offset ``(x, y)``."""
    return Placement(
        placement.piece, placement.face, placement.rotation_deg, (x, y), placement.target
    )


def _sweep_job(job: tuple[Case, int, RulingSettings]) -> Sweep:
    return sweep(*job)


def constructed_cases() -> list[Case]:
    """The constructed set (150) and the constructed part of the set apart."""
    cases: list[Case] = []
    for kind, pieces in KINDS.items():
        for levels in (2, 3, 4):
            for mixed in (False, True):
                for direction in DIRECTIONS:
                    cases.append(
                        _constructed(
                            len(cases), kind, "constructed", pieces,
                            levels=levels, mixed=mixed, direction=direction,
                        )
                    )  # fmt: skip
    apart = [
        ("arch on cube", 2, False, "+x"),
        ("arch on cube", 3, True, "+y"),
        ("arch on cube", 4, False, "diag"),
        ("arch on beam", 2, False, "+x"),
        ("arch on beam", 3, True, "+y"),
        ("arch on beam", 4, False, "turned"),
        ("lying cylinder on cube", 2, False, "+x"),
        ("lying cylinder on cube", 3, True, "-x"),
        ("lying cylinder on cube", 4, False, "turned"),
        ("lying cylinder on beam", 2, False, "+x"),
        ("lying cylinder on beam", 3, True, "-x"),
        ("lying cylinder on beam", 4, False, "turned"),
    ]
    for kind, levels, mixed, direction in apart:
        cases.append(
            _constructed(
                len(cases), kind, "apart", APART_KINDS[kind],
                levels=levels, mixed=mixed, direction=direction,
            )
        )  # fmt: skip
    return cases


def _constructed(
    index: int,
    kind: str,
    group: str,
    pieces: tuple[str, str, str, str],
    *,
    levels: int,
    mixed: bool,
    direction: str,
) -> Case:
    shape, face, target_shape, target_face = pieces
    if mixed:
        under = [*MIXED, ("yellow-cube", "bottom", 45.0)][: levels - 1]
        column = (*under, (f"blue-{target_shape}", target_face, 15.0))
    else:
        colours = ("red", "orange", "yellow")
        column = tuple(
            [(f"{c}-{target_shape}", target_face, 0.0) for c in colours[: levels - 1]]
            + [(f"blue-{target_shape}", target_face, 0.0)]
        )
    turn = DIRECTIONS[direction][1]
    placement = Placement(f"purple-{shape}", face, turn, (0.0, 0.0), f"blue-{target_shape}")
    return Case(
        index=index,
        kind=kind,
        group=group,
        levels=levels,
        direction=direction + (" mixed" if mixed else ""),
        column=column,
        tower=(),
        placement=placement,
        lying=face == "side",
        cost=1.0 + levels,
    )


def corpus_cases(records: Sequence[Record], margins: Sequence[float], first: int) -> list[Case]:
    """The corpus placements whose zero-tremor static margin (``margins``, metres) lies
    strictly inside :data:`CORPUS_BAND`, numbered from ``first``."""
    catalogue = _model().catalogue
    cases: list[Case] = []
    for record, margin in zip(records, margins, strict=True):
        if not CORPUS_BAND[0] < margin < CORPUS_BAND[1]:
            continue
        shape = catalogue.piece(record.placement.piece).shape
        below = catalogue.piece(record.tower[-1].piece).shape if record.tower else "table"
        cases.append(
            Case(
                index=first + len(cases),
                kind=f"corpus {shape}",
                group="apart" if shape == "arch" else "corpus",
                levels=len(record.tower),
                direction=f"on {below}",
                column=None,
                tower=record.tower,
                placement=record.placement,
                cost=5.0 + len(record.tower),
            )
        )
    return cases


def _zero_tremor_margin(record: Record) -> float:
    return rule_with_margin(_model(), record.tower, record.placement, Tremor(), forced=False)[1]


def _table(title: str, sweeps: Sequence[Sweep]) -> None:
    kinds = sorted({s.case.kind for s in sweeps}, key=lambda k: (k.startswith("corpus"), k))
    print(title)
    print(
        f"  {'kind':<24}{'sweeps':>7}{'non_mono':>9}{'edge med':>10}{'band (mm)':>15}"
        f"{'|edge| med':>11}{'one step':>9}{'censored':>9}{'split .25/.5/1':>16}"
    )
    for kind in [*kinds, "all"]:
        group = [s for s in sweeps if kind in ("all", s.case.kind)]
        edges = [e for e in (s.edge for s in group) if e is not None]
        shares = "/".join(f"{_share([s.split[i] for s in group]):.2f}" for i in range(3))
        band = f"{min(edges):+.2f}..{max(edges):+.2f}" if edges else "-"
        median = f"{statistics.median(edges):+.2f}" if edges else "-"
        distance = f"{statistics.median(abs(e) for e in edges):.2f}" if edges else "-"
        close = sum(1 for e in edges if abs(e) < 0.051)
        print(
            f"  {kind:<24}{len(group):>7}{sum(s.non_monotone for s in group):>9}{median:>10}"
            f"{band:>15}{distance:>11}{close:>9}{len(group) - len(edges):>9}{shares:>16}"
        )


def _share(flags: Sequence[bool]) -> float:
    return sum(flags) / len(flags) if flags else 0.0


def _verdicts(s: Sweep) -> str:
    return "".join({"stood": "S", "fell": "F"}.get(v, "X") for v in s.verdicts)


def _describe(s: Sweep) -> str:
    c = s.case
    margins = " ".join(f"{m:+.2f}" for m in s.margins)
    return (
        f"  #{c.index} {c.kind}, {c.levels} levels, {c.direction}: {c.placement}\n"
        f"    heading {s.heading_deg:+.1f} deg, |gradient| {s.gradient:.3f}, verdicts "
        f"{_verdicts(s)} (S stood, F fell, X spontaneous)\n    margins (mm) {margins}"
    )


def main() -> None:
    """Run the benchmark and print its figures, the summary line last."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--full", action="store_true", help="every placement (else a third)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes")
    parser.add_argument("--seed", type=int, default=0, help="seed of the tremor samples")
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="the stored corpus")
    parser.add_argument("--verbose", action="store_true", help="print every sweep")
    parser.add_argument(
        "--settle",
        action="store_true",
        help="rule with RulingSettings() (falls settled: slower, the same verdicts)",
    )
    args = parser.parse_args()
    started = time.perf_counter()
    settings = RulingSettings() if args.settle else VERDICT
    records = load(args.corpus)
    results: list[Sweep] = []
    with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
        margins = pool.map(_zero_tremor_margin, records, chunksize=20)
        built = constructed_cases()
        cases = built + corpus_cases(records, margins, len(built))
        if not args.full:
            cases = [
                c
                for group in ("constructed", "corpus", "apart")
                for i, c in enumerate(x for x in cases if x.group == group)
                if i % 3 == 0
            ]
        jobs = [(c, args.seed, settings) for c in sorted(cases, key=lambda c: -c.cost)]
        for result in pool.imap_unordered(_sweep_job, jobs):
            results.append(result)
            if len(results) % 10 == 0 or len(results) == len(jobs):
                print(
                    f"{len(results)}/{len(jobs)} sweeps, {time.perf_counter() - started:.0f} s",
                    file=sys.stderr,
                    flush=True,
                )
    results.sort(key=lambda s: s.case.index)
    failed = [s for s in results if s.error is not None]
    done = [s for s in results if s.error is None]
    counted = [s for s in done if s.case.group != "apart"]
    apart = [s for s in done if s.case.group == "apart"]
    for s in failed:
        print(f"not swept: #{s.case.index} {s.case.kind} {s.case.direction}: {s.error}")
    if args.verbose:
        for s in done:
            print(_describe(s))
    cpu = ", ".join(
        f"{group} {sum(s.seconds for s in results if s.case.group == group):.0f} s"
        for group in ("constructed", "corpus", "apart")
    )
    print(
        f"{len(results)} sweeps of 21 rulings ({'full' if args.full else 'a third'}, "
        f"{settings.method}), {args.workers} workers, {time.perf_counter() - started:.0f} s; "
        f"CPU in the sweeps {sum(s.seconds for s in results):.0f} s ({cpu})"
    )
    _table("counted (constructed and corpus sets):", counted)
    constructed = [s for s in counted if s.case.group == "constructed"]
    for key, name in ((lambda s: s.case.levels, "levels"), (_direction, "direction")):
        values = sorted({key(s) for s in constructed}, key=str)
        parts = []
        for value in values:
            group = [s for s in constructed if key(s) == value]
            edges = [e for e in (s.edge for s in group) if e is not None]
            band = f"{min(edges):+.2f}..{max(edges):+.2f}" if edges else "-"
            parts.append(f"{value}: {len(group)} sweeps, {band}")
        print(f"  constructed, edge by {name}: " + "; ".join(parts))
    _table("apart (arches, lying cylinders; not in the last line):", apart)
    jumps = sum(s.jump for s in apart)
    print(f"  sweeps apart whose margin jumps at the edge: {jumps} of {len(apart)}")
    for label, group in (("counted", counted), ("apart", apart)):
        print(f"tremor split ({label}, {SAMPLES} samples, default steadiness):")
        for i, target in enumerate(TREMOR_MARGINS):
            actual = [s.split_margins[i] for s in group]
            band = f"{min(actual):+.2f}..{max(actual):+.2f}" if actual else "-"
            print(
                f"  +{target / MM:.2f} mm (actual {band}): simulation "
                f"{_share([s.split[i] for s in group]):.2f}, static model (normal shift) "
                f"{statistics.fmean(s.predicted[i] for s in group) if group else 0.0:.2f}, "
                f"static ruling of the same samples "
                f"{_share([s.static_split[i] for s in group]):.2f}"
            )
    odd = [s for s in done if s.non_monotone]
    print(f"non-monotone sweeps: {len(odd)} ({sum(s.case.group != 'apart' for s in odd)} counted)")
    for s in odd:
        print(_describe(s))
    far = [s for s in done if s.edge is not None and abs(s.edge) > 0.051]
    print(f"sweeps whose simulated edge lies more than one step (0.1 mm) off: {len(far)}")
    for s in far:
        c = s.case
        print(
            f"  #{c.index} {c.kind}, {c.levels} levels, {c.direction}: edge {s.edge:+.2f} mm, "
            f"|gradient| {s.gradient:.3f}, {_verdicts(s)}"
        )
    censored = [s for s in done if s.edge is None]
    if censored:
        print("sweeps without a simulated edge (never fell, or fell from +1 mm on):")
        for s in censored:
            print(_describe(s))
    edges = [abs(e) for e in (s.edge for s in counted) if e is not None]
    shares = "/".join(f"{_share([s.split[i] for s in counted]):.2f}" for i in range(3))
    print(
        f"edges={len(counted)} non_monotone={sum(s.non_monotone for s in counted)} "
        f"tremor_split={shares} edge_mm={statistics.median(edges) if edges else 0.0:.2f}"
    )


def _direction(item: Sweep | Case) -> str:
    case = item.case if isinstance(item, Sweep) else item
    return case.direction.split()[0]


if __name__ == "__main__":
    main()
