"""Metrics of a table of games with their 95 % intervals: :func:`estimate`.

A :class:`GamesTable` is a results frame (the columns of :mod:`splash.sim.store`) with who its
players are; a :class:`Metric` (declared in :mod:`splash.report.metric_ids`) says what it
computes and of which kind it is, which decides its interval:

- ``rate``: a share of games, less a reference: the Wilson interval;
- ``mean``: a mean over games: the t interval;
- ``statistic``: any other function of the games (:data:`Reduce`): the seeded percentile
  bootstrap over games, the games resampled as counts of their distinct rows
  (:class:`Distinct`), so the cost does not grow with the games when the rows take few
  values (the outcome metrics take one per winner).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Literal

import numpy as np
from numpy.typing import NDArray

from splash.core.i18n import Message
from splash.report import metrics
from splash.sim.stats import wilson

if TYPE_CHECKING:
    import pandas as pd

    from splash.report.results import Results

Floats = NDArray[np.float64]
Kind = Literal["rate", "mean", "statistic"]

RESAMPLES = 2000
"""Bootstrap resamples of the interval of a ``statistic`` metric."""


@dataclass(frozen=True, eq=False)
class GamesTable:
    """Games of one design: a results frame (the columns of :mod:`splash.sim.store`), its
    seats, the seats of each team, and the seat that moves first."""

    frame: pd.DataFrame
    seats: int
    teams: tuple[tuple[int, ...], ...]
    first_seat: int

    @property
    def games(self) -> int:
        """How many games."""
        return len(self.frame)

    @property
    def first_team(self) -> int:
        """The team of the first seat."""
        return next(t for t, seats in enumerate(self.teams) if self.first_seat in seats)

    @cached_property
    def winning_team(self) -> NDArray[np.int64]:
        """The winning team of each game, ``-1`` without a winner."""
        return np.asarray(self.frame["winner_team"].fillna(-1), dtype=np.int64)

    @cached_property
    def utilities(self) -> Floats:
        """``u``: the ``(games, seats)`` utilities from the ranks (teammates share theirs)."""
        rows = [metrics.utilities(self.seats, team) for team in self.teams]
        rows.append(metrics.utilities(self.seats, ()))
        table = np.asarray(rows, dtype=np.float64)
        return np.asarray(table[self.winning_team], dtype=np.float64).reshape(-1, self.seats)

    @cached_property
    def capped(self) -> NDArray[np.bool_]:
        """Whether each game was stopped by the turn cap."""
        return np.asarray(self.frame["turn_cap"].fillna(False), dtype=bool)

    def column(self, name: str) -> Floats | None:
        """The column ``name`` as floats; ``None`` when the table lacks it or has nulls."""
        frame = self.frame
        if name not in frame.columns or frame[name].isna().any():
            return None
        return np.asarray(frame[name], dtype=np.float64)

    @cached_property
    def trace_metrics(self) -> dict[str, Floats]:
        """Each state-evaluation metric of every game (``nan`` for a game without a move);
        empty without traces.  ``W`` is read from the last row of each trace."""
        frame = self.frame
        if "trace" not in frame.columns or frame["trace"].isna().any():
            return {}
        rows = [
            metrics.trace_metrics(t, metrics.top_players(t[-1].tolist())) if len(t) > 1 else {}
            for t in frame["trace"]
        ]
        keys = next((list(r) for r in rows if r), [])
        return {k: np.asarray([r.get(k, math.nan) for r in rows], dtype=np.float64) for k in keys}


def games_table(results: Results) -> GamesTable:
    """The table of the games of a report's ``results``."""
    from splash.report.games import reported

    return GamesTable(
        results.frame,
        results.seats,
        results.team_seats(),
        reported(results.game).first_player(results),
    )


@dataclass(frozen=True)
class Metric:
    """One metric: see the module."""

    id: str
    """Its id, as targets and tables name it."""
    name: str
    """How the report names it (Ludii's name for Ludii's metrics)."""
    unit: Message
    definition: Message
    kind: Kind
    per_game: Callable[[GamesTable], Floats | None]
    """A value per game (a ``rate``: 0 or 1; ``nan`` leaves a game out of a ``mean``), or for
    a ``statistic`` a row per game; ``None`` when the table lacks what it needs."""
    reduce: Reduce | None = None
    """A ``statistic``'s value from its distinct rows and how many games have each
    (:class:`Reduce`)."""
    reference: Callable[[GamesTable], float] = lambda table: 0.0
    """What is subtracted from a ``rate`` (the fair share)."""
    span: str = "[0, 1]"
    """Its range."""
    direction: Message | None = None
    """Which way is better, when one is."""
    ludii: bool = False
    """Whether it is one of Ludii's metrics."""


@dataclass(frozen=True)
class Estimate:
    """A metric's value on a table with its 95 % interval (``nan`` when there is none), and
    the games it was computed from."""

    value: float
    low: float
    high: float
    games: int

    @property
    def available(self) -> bool:
        """Whether the table had what the metric needs."""
        return math.isfinite(self.value)


NO_ESTIMATE = Estimate(math.nan, math.nan, math.nan, 0)


def _t_interval(values: Floats) -> tuple[float, float]:
    from scipy import stats

    n = len(values)
    mean = float(values.mean())
    if n < 2:
        return math.nan, math.nan
    half = float(stats.t.ppf(0.975, n - 1)) * float(values.std(ddof=1)) / math.sqrt(n)
    return mean - half, mean + half


Reduce = Callable[[Floats, Floats], Floats]
"""A ``statistic`` of games as a function of their distinct rows ``U`` (``(K, k)``) and the
number of games of each, ``W`` (``(..., K)``, one line per resample): ``(...)`` values."""


@dataclass(frozen=True)
class Distinct:
    """A ``statistic``'s rows as the distinct rows and the row of each game: a resample is
    then a count per distinct row, whatever the number of games (the rows of the outcome
    metrics take one value per winner)."""

    rows: Floats
    codes: NDArray[np.int64]

    @classmethod
    def of(cls, rows: Floats) -> Distinct:
        """The distinct rows of ``rows`` and the row of each game."""
        unique, codes = np.unique(rows, axis=0, return_inverse=True)
        return cls(np.asarray(unique, dtype=np.float64), np.asarray(codes, np.int64).ravel())

    def counts(self, index: NDArray[np.int64]) -> Floats:
        """The games of each distinct row among the games ``index`` (``(..., n)``)."""
        kinds = len(self.rows)
        codes = self.codes[index]
        lines = codes.reshape(-1, codes.shape[-1]) if codes.ndim > 1 else codes[None, :]
        offsets = lines + kinds * np.arange(len(lines))[:, None]
        flat = np.bincount(offsets.ravel(), minlength=kinds * len(lines))
        return np.asarray(flat.reshape(*codes.shape[:-1], kinds), dtype=np.float64)

    def statistic(self, reduce: Reduce) -> Callable[..., Floats]:
        """``reduce`` of resampled game indices, vectorised for scipy's resampling."""

        def value(index: NDArray[np.int64], axis: int = -1) -> Floats:
            return reduce(self.rows, self.counts(np.moveaxis(index, axis, -1)))

        return value


def bootstrap_interval(rows: Floats, reduce: Reduce, seed: int) -> tuple[float, float]:
    """The 95 % percentile bootstrap interval of ``reduce`` over the games (rows) of ``rows``
    (:data:`RESAMPLES` resamples, seeded)."""
    from scipy import stats

    if len(rows) < 2:
        return math.nan, math.nan
    result = stats.bootstrap(
        (np.arange(len(rows)),),
        Distinct.of(rows).statistic(reduce),
        vectorized=True,
        n_resamples=RESAMPLES,
        batch=500,
        method="percentile",
        rng=np.random.default_rng(seed),
    )
    return float(result.confidence_interval.low), float(result.confidence_interval.high)


def reduce_games(reduce: Reduce, rows: Floats) -> float:
    """``reduce`` of every game of ``rows``."""
    distinct = Distinct.of(rows)
    return float(reduce(distinct.rows, distinct.counts(np.arange(len(rows)))))


def estimate(metric: Metric, table: GamesTable, *, seed: int = 0) -> Estimate:
    """The value of ``metric`` on ``table`` with its 95 % interval (``seed`` seeds the
    bootstrap of a ``statistic``); :data:`NO_ESTIMATE` when the table lacks what it needs."""
    values = metric.per_game(table) if table.games else None
    if values is None:
        return NO_ESTIMATE
    match metric.kind:
        case "rate":
            count, total = int(values.sum()), len(values)
            reference = metric.reference(table)
            low, high = wilson(count, total)
            return Estimate(count / total - reference, low - reference, high - reference, total)
        case "mean":
            kept = values[np.isfinite(values)]
            if not len(kept):
                return NO_ESTIMATE
            low, high = _t_interval(kept)
            return Estimate(float(kept.mean()), low, high, len(kept))
        case "statistic":
            if metric.reduce is None:
                return NO_ESTIMATE
            value = reduce_games(metric.reduce, values)
            if not math.isfinite(value):
                return NO_ESTIMATE
            low, high = bootstrap_interval(values, metric.reduce, seed)
            return Estimate(value, low, high, len(values))
