"""The metrics of a design, by id: what the reports show, computed from a table of games.

Every metric has an id (``first_seat_advantage``, ``duration_turns``, ``balance``, …), a unit,
a definition, and one of three kinds, which say how its 95 % interval is found and how two
designs are compared (:mod:`splash.report.compare`):

- ``rate``: the share of games where something happened (a win of the first team, the turn
  cap), less a reference (the fair share): the Wilson interval; two designs by Pearson's
  chi-square test, the difference with Newcombe's interval;
- ``mean``: the mean over games of a value of each game (its turns, its LeadChange): the t
  interval; two designs by Welch's t-test and its interval;
- ``statistic``: a function of the whole table that is no mean (Balance, OutcomeUniformity):
  the percentile bootstrap over games; two designs by a permutation test of the games.

:data:`METRICS` holds the metrics of every table; :func:`metric` also finds the win rate of
each team, ``team_win_rate_<k>`` (team ``k`` from 0, the team of the first seat being the
first team of the game).  A :class:`GamesTable` is a results frame with who its players are:
:func:`games_table` makes one of a report's results; another tool (a tuner) makes one of its
own frames with the columns of :mod:`splash.sim.store`; both are in
:mod:`splash.report.estimates`, with :func:`estimate`, and importable from here.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping

import numpy as np
from numpy.typing import NDArray

from splash.core.errors import OptionError
from splash.core.i18n import Message, message
from splash.report import metrics
from splash.report.estimates import (
    Estimate,
    Floats,
    GamesTable,
    Metric,
    estimate,
    games_table,
)
from splash.report.html import format_number

__all__ = [
    "METRICS",
    "TEAM_WIN_RATE",
    "Estimate",
    "GamesTable",
    "Metric",
    "estimate",
    "games_table",
    "metric",
    "table_metrics",
    "team_win_rate",
]

IDEAL_MIN, IDEAL_MAX = 0.0, 1000.0
"""IdealDuration's bounds (Ludii's defaults)."""


# ----- the metrics ----------------------------------------------------------------------


def _share(happened: NDArray[np.bool_]) -> Floats:
    return np.asarray(happened, dtype=np.float64)


def _won_by_first(table: GamesTable) -> Floats:
    return _share(table.winning_team == table.first_team)


def _fair_share(table: GamesTable) -> float:
    return 1.0 / len(table.teams)


def _partial_win_rows(table: GamesTable) -> Floats:
    return (table.utilities + 1.0) / 2.0


def _means(rows: Floats, weights: Floats) -> Floats:
    """The mean row of games weighted by ``weights`` (``(..., K)``): ``(..., k)``."""
    return np.asarray((weights @ rows) / weights.sum(axis=-1, keepdims=True), dtype=np.float64)


def _balance(rows: Floats, weights: Floats) -> Floats:
    r = _means(rows, weights)
    return np.asarray(1.0 - (r.max(axis=-1) - r.min(axis=-1)), dtype=np.float64)


def _uniformity(rows: Floats, weights: Floats) -> Floats:
    games = weights.sum(axis=-1)
    mean, square = _means(rows, weights), _means(rows**2, weights)
    with np.errstate(divide="ignore", invalid="ignore"):
        variance = (square - mean**2) * (games / (games - 1.0))[..., None]
        return np.asarray(np.where(games > 1, 1.0 - variance.mean(axis=-1), math.nan), np.float64)


def _ideal(table: GamesTable) -> Floats | None:
    turns = table.column("turns")
    return None if turns is None else metrics.ideal_duration_scores(turns, IDEAL_MIN, IDEAL_MAX)


def _traced(key: str) -> Callable[[GamesTable], Floats | None]:
    def values(table: GamesTable) -> Floats | None:
        return table.trace_metrics.get(key)

    return values


def _column(name: str) -> Callable[[GamesTable], Floats | None]:
    def values(table: GamesTable) -> Floats | None:
        return table.column(name)

    return values


TRAILED = message("higher: the winner trailed more")


def _drama(
    aggregator: str,
    definition: Message,
    *,
    unit: Message | None = None,
    span: str = "[0, 2]",
    direction: Message | None = TRAILED,
) -> Metric:
    """Drama's ``d_i`` reduced per game by ``aggregator`` (``Average``, …), averaged."""
    snake = re.sub(r"(?<!^)(?=[A-Z])", "_", aggregator).lower()
    return Metric(
        f"drama_{snake}",
        f"Drama{aggregator}",
        unit or EVALUATION,
        definition,
        "mean",
        _traced(f"Drama{aggregator}"),
        span=span,
        direction=direction,
        ludii=True,
    )


FRACTION = message("fraction")
TURNS = message("turns")
EVALUATION = message("evaluation")
HIGHER = message("higher is better")
LOWER = message("lower is better")

_LIST: tuple[Metric, ...] = (
    Metric(
        "first_seat_advantage",
        "first_seat_advantage",
        FRACTION,
        message(
            "The win rate of the first team (the team of the seat that moves first) less its "
            "fair share 1/teams: 0 when fair."
        ),
        "rate",
        _won_by_first,
        reference=_fair_share,
        span="[-1/teams, 1 - 1/teams]",
        direction=message("0 is fair"),
    ),
    Metric(
        "advantage_p1",
        "AdvantageP1",
        FRACTION,
        message("(1/N)·Σ w_1: the mean partial win of the player who moves first."),
        "mean",
        lambda t: (t.utilities[:, t.first_seat] + 1.0) / 2.0,
        direction=message("fair ≈ 0.5"),
        ludii=True,
    ),
    Metric(
        "balance",
        "Balance",
        FRACTION,
        message(
            "r_p = (1/N)·Σ w_p; Balance = 1 - max over pairs p<q of |r_p - r_q|. Computed "
            "with real numbers, as documented (Ludii's code adds into integers, so only sole "
            "outright wins count)."
        ),
        "statistic",
        _partial_win_rows,
        reduce=_balance,
        direction=HIGHER,
        ludii=True,
    ),
    Metric(
        "completion",
        "Completion",
        FRACTION,
        message("The share of games with a winner."),
        "rate",
        lambda t: _share(t.winning_team >= 0),
        direction=HIGHER,
        ludii=True,
    ),
    Metric(
        "drawishness",
        "Drawishness",
        FRACTION,
        message(
            "The share of games that end with u_p = 0 for every player, games that hit the "
            "turn cap not counted, as Ludii's comment says (its code counts them)."
        ),
        "rate",
        lambda t: _share(np.all(t.utilities == 0.0, axis=1) & ~t.capped),
        direction=LOWER,
        ludii=True,
    ),
    Metric(
        "timeouts",
        "Timeouts",
        FRACTION,
        message("The share of games ended by the turn cap."),
        "rate",
        lambda t: _share(t.capped),
        direction=LOWER,
        ludii=True,
    ),
    Metric(
        "outcome_uniformity",
        "OutcomeUniformity",
        message("score"),
        message(
            "1 - (1/n)·Σ_p Var(u_p), the sample variance over games (divisor N - 1): near 1 "
            "when outcomes are predictable, near 0 for a fair, decisive two-player game."
        ),
        "statistic",
        lambda t: t.utilities,
        reduce=_uniformity,
        span="≈[0, 1]",
        direction=message("high: predictable outcomes"),
        ludii=True,
    ),
    Metric(
        "duration_turns",
        "DurationTurns",
        TURNS,
        message(
            "The mean number of turns per game, a turn being one team's turn (Splash & Bash: "
            "the winning turn included; Splash!: one placement each), the turns column. "
            "Ludii counts a turn at each change of mover; a team turn is that count when "
            "every team decides at least once in its turn."
        ),
        "mean",
        _column("turns"),
        span="[0, ∞)",
        ludii=True,
    ),
    Metric(
        "duration_moves",
        "DurationMoves",
        message("decisions"),
        message(
            "The mean number of moves T: the decisions of the players after set-up (the moves "
            "column), never a chance outcome."
        ),
        "mean",
        _column("moves"),
        span="[0, ∞)",
        ludii=True,
    ),
    Metric(
        "duration_actions",
        "DurationActions",
        message("actions"),
        message("The mean number of atomic actions: every action, chance outcomes included."),
        "mean",
        _column("actions"),
        span="[0, ∞)",
        ludii=True,
    ),
    Metric(
        "ideal_duration",
        "IdealDuration",
        message("score"),
        message(
            "Each game scores t/min if t < min, 1 - min(1, (t - max)/max) if t > max, 1 "
            "otherwise, t its turns (as in DurationTurns); the mean over games. min = {low}, "
            "max = {high} (Ludii's defaults).",
            low=format_number(IDEAL_MIN),
            high=format_number(IDEAL_MAX),
        ),
        "mean",
        _ideal,
        direction=HIGHER,
        ludii=True,
    ),
    Metric(
        "lead_change",
        "LeadChange",
        FRACTION,
        message(
            "L_i = the set of players with the highest evaluation at s_i (exact ties); "
            "#{{i < T : L_i ≠ L_(i-1)}}/T with L_(-1) = ∅, so the first state counts; the mean "
            "over games."
        ),
        "mean",
        _traced("LeadChange"),
        direction=message("higher: more swaps of the lead"),
        ludii=True,
    ),
    Metric(
        "stability",
        "Stability",
        message("evaluation²"),
        message(
            "Σ_p of the population variance of v_p over s_0 … s_(T-1); the mean over games. "
            "Ludii declares the range [0, 1], the real bound is n."
        ),
        "mean",
        _traced("Stability"),
        span="[0, n]",
        direction=message("higher: less stable"),
        ludii=True,
    ),
    Metric(
        "decisiveness_threshold",
        "DecisivenessThreshold",
        EVALUATION,
        message(
            "θ = the highest evaluation of any player not in W over s_0 … s_(T-1), starting "
            "at -1; the mean over games."
        ),
        "mean",
        _traced("DecisivenessThreshold"),
        span="[-1, 1]",
        ludii=True,
    ),
    Metric(
        "decisiveness_moves",
        "DecisivenessMoves",
        FRACTION,
        message(
            "i*/T, i* the first i at which some winner's evaluation exceeds θ (T if none); "
            "a real division, as documented (Ludii's code divides integers, so each game "
            "scores 0 or 1); the mean over games."
        ),
        "mean",
        _traced("DecisivenessMoves"),
        direction=message("low: the winner was clear early"),
        ludii=True,
    ),
    _drama("Average", message("Drama's d_i averaged over the game; the mean over games.")),
    _drama("Median", message("The median of Drama's d_i over the game; the mean over games.")),
    _drama(
        "Max", message("The largest of Drama's d_i over the game, from 0; the mean over games.")
    ),
    _drama(
        "Variance",
        message("The population variance of Drama's d_i over the game; the mean over games."),
        unit=message("evaluation²"),
        span="[0, 1]",
        direction=None,
    ),
    _drama(
        "ChangeLineBestFit",
        message(
            "The slope of the least-squares line of Drama's d_i against i; the mean over games."
        ),
        unit=message("evaluation per move"),
        span="(-∞, ∞)",
        direction=None,
    ),
)

METRICS: Mapping[str, Metric] = {m.id: m for m in _LIST}
"""Every metric of every table, by id, in the order the reports show them."""

TEAM_WIN_RATE = "team_win_rate_<k>"
"""The id pattern of the win rate of each team."""

_TEAM_ID = re.compile(r"team_win_rate_(\d+)")


def team_win_rate_definition(team: int | str) -> Message:
    """The definition of the win rate of team ``team`` (a number from 0, or ``"k"`` for the
    id pattern :data:`TEAM_WIN_RATE`)."""
    return message(
        "The share of games won by team {team} (from 0: the first team of the game).",
        team=team,
    )


def team_win_rate(team: int) -> Metric:
    """The win rate of team ``team`` (from 0), against no reference."""
    return Metric(
        f"team_win_rate_{team}",
        f"team_win_rate_{team}",
        FRACTION,
        team_win_rate_definition(team),
        "rate",
        lambda t: _share(t.winning_team == team) if team < len(t.teams) else None,
        direction=message("fair: 1/teams"),
    )


def metric(metric_id: str) -> Metric:
    """The metric of ``metric_id``; an :class:`OptionError` naming it when there is none."""
    found = METRICS.get(metric_id)
    if found is not None:
        return found
    team = _TEAM_ID.fullmatch(metric_id)
    if team is not None:
        return team_win_rate(int(team.group(1)))
    raise OptionError(
        "metric",
        metric_id,
        message("no such metric: give one of {ids}", ids=", ".join([*METRICS, TEAM_WIN_RATE])),
    )


def table_metrics(table: GamesTable) -> list[Metric]:
    """Every metric of ``table``: those of :data:`METRICS`, then each team's win rate."""
    return [*_LIST, *(team_win_rate(t) for t in range(len(table.teams)))]
