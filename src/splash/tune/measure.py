"""A candidate of ``splash tune`` measured: its games at every skill level, each level's
metrics with their 95 % intervals, and its score.

At every level the games give the metric of each target and the two metrics of the verdict
(:data:`VERDICT_METRICS`: the first-seat advantage and the game length).  A target applies to
one level or to all (:attr:`Target.level <splash.tune.targets.Target.level>`); its miss is
its *worst* miss over those levels, and a candidate's score is the sum of those worst misses
over the targets (0 when every target is met at every level).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from splash.core.i18n import message
from splash.report.estimates import Estimate, estimate, games_table
from splash.report.metric_ids import metric
from splash.sim.backends import Backend
from splash.sim.sweep import value_text
from splash.tune.targets import Target

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa

    from splash.tune.plan import TunePlan

Values = dict[str, Any]
"""A candidate's settings: a value per parameter key."""

EDGE = "first_seat_advantage"
LENGTH = "duration_turns"
VERDICT_METRICS = (EDGE, LENGTH)
"""The metrics measured at every level whatever the targets: what "met" is judged on."""

LevelEstimates = Mapping[str, Estimate]
"""A level's metrics: an estimate per metric id."""


@dataclass(frozen=True)
class Measure:
    """A candidate measured: its settings, each target's estimate at the level where it
    misses most, its score, on how many games in all, every level's metrics, and whether
    successive halving stopped it before its last rung."""

    values: Values
    estimates: tuple[Estimate, ...]
    score: float
    games: int
    levels: tuple[LevelEstimates, ...] = ()
    pruned: bool = False

    def edge(self, level: int) -> Estimate:
        """The first-seat advantage at ``level``."""
        return self.levels[level][EDGE]

    def length(self, level: int) -> Estimate:
        """The game length (team turns) at ``level``."""
        return self.levels[level][LENGTH]

    def to_json(self) -> dict[str, Any]:
        """As the study keeps it."""
        return {
            "values": self.values,
            "estimates": [_row(e) for e in self.estimates],
            "score": self.score if math.isfinite(self.score) else None,
            "games": self.games,
            "levels": [{key: _row(e) for key, e in level.items()} for level in self.levels],
            "pruned": self.pruned,
        }

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> Measure:
        """The measure of :meth:`to_json`."""
        score = doc["score"]
        return cls(
            dict(doc["values"]),
            tuple(_estimate(row) for row in doc["estimates"]),
            math.inf if score is None else float(score),
            int(doc["games"]),
            tuple(
                {key: _estimate(row) for key, row in level.items()}
                for level in doc.get("levels", [])
            ),
            bool(doc.get("pruned", False)),
        )


def settings_text(found: Measure) -> str:
    """``board.lanes.outer=36, decks.high_tide.undertow=2`` (``the draft`` without any)."""
    if not found.values:
        return message("the draft").render()
    return ", ".join(f"{key}={value_text(value)}" for key, value in found.values.items())


def _row(e: Estimate) -> list[float | int | None]:
    return [_finite(e.value), _finite(e.low), _finite(e.high), e.games]


def _estimate(row: Sequence[Any]) -> Estimate:
    return Estimate(_float(row[0]), _float(row[1]), _float(row[2]), int(row[3]))


def _float(value: float | None) -> float:
    return math.nan if value is None else float(value)


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


def score(targets: Sequence[Target], estimates: Sequence[Estimate]) -> float:
    """The sum of the targets' misses by the estimates' values."""
    return sum(t.miss(e.value) for t, e in zip(targets, estimates, strict=True))


def level_metrics(targets: Sequence[Target]) -> tuple[str, ...]:
    """The metric ids measured at every level: the verdict's, then the targets'."""
    ids = list(VERDICT_METRICS)
    ids += [t.metric.id for t in targets if t.metric.id not in ids]
    return tuple(dict.fromkeys(ids))


def worst(
    targets: Sequence[Target],
    scopes: Sequence[Sequence[int]],
    levels: Sequence[LevelEstimates],
) -> tuple[Estimate, ...]:
    """Each target's estimate at the level of its scope where it misses most (the first
    such level on a tie)."""
    found = []
    for target, scope in zip(targets, scopes, strict=True):
        choices = [levels[i][target.metric.id] for i in scope]
        found.append(max(choices, key=lambda e: target.miss(e.value)))
    return tuple(found)


def play(
    plan: TunePlan,
    values: Values,
    level: int,
    seeds: Sequence[int],
    backend: Backend,
    *,
    on_games: Callable[[int], None] | None = None,
) -> pa.Table:
    """The games of the candidate ``values`` at ``level`` on ``seeds``, as a table."""
    import pyarrow as pa

    spec = plan.spec(values, level)
    tables = []
    for table in backend.tables(spec, seeds):
        tables.append(table)
        if on_games is not None:
            on_games(table.num_rows)
    table = pa.concat_tables(tables)
    if not any(t.metric.ludii for t in plan.targets):
        table = table.drop_columns(["trace"])
    return table


def level_estimates(
    plan: TunePlan, values: Values, level: int, table: pa.Table
) -> tuple[LevelEstimates, pd.DataFrame]:
    """The metrics of :func:`level_metrics` on the games of ``table``."""
    from splash.report.results import Results, Run, results_frame

    spec = plan.spec(values, level)
    frame = results_frame(table.sort_by("seed"))
    run = Run(Path("tune.json"), spec.game, spec.options, spec.bots, len(frame), spec.data or None)
    games = games_table(Results(spec.game, spec.seats, (run,), frame))
    found = {
        key: estimate(metric(key), games, seed=plan.seed) for key in level_metrics(plan.targets)
    }
    return found, frame


def evaluate(
    plan: TunePlan, values: Values, tables: Sequence[pa.Table], *, pruned: bool = False
) -> Measure:
    """The measure of the candidate ``values`` from its games at each level."""
    levels = tuple(
        level_estimates(plan, values, index, table)[0] for index, table in enumerate(tables)
    )
    estimates = worst(plan.targets, plan.scopes, levels)
    games = sum(t.num_rows for t in tables)
    return Measure(values, estimates, score(plan.targets, estimates), games, levels, pruned)


def measure(
    plan: TunePlan,
    values: Values,
    seeds: Sequence[Sequence[int]],
    backend: Backend,
    on_games: Callable[[int], None] | None = None,
) -> Measure:
    """Play the candidate ``values`` on each level's ``seeds`` and measure it."""
    tables = [
        play(plan, values, level, level_seeds, backend, on_games=on_games)
        for level, level_seeds in enumerate(seeds)
    ]
    return evaluate(plan, values, tables)
