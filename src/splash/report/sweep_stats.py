"""The statistics of a variant sweep: each change's paired tests (see ``docs/sweep.md``).

Every combination (an :class:`Arm`) plays the same seeds.  A *change* sets one varied key
from its first value to another, every other varied key held at one of its values (changes
are not pooled over the other keys, so that each seed is one independent pair).  For each
change, :func:`effects` tests with the pairing by seed: team A's wins by the exact McNemar
test (``scipy.stats.binomtest`` on the discordant pairs), the balance gap
``max_{p<q} |r_p - r_q|`` (Ludii's Balance is 1 minus it) by a paired permutation test
(``scipy.stats.permutation_test``), the turns by the Wilcoxon signed-rank test; the p-values
of each measure are corrected over the changes by Holm's method (:func:`holm`).  Partial
wins: the winner of a game of ``k`` teams scores 1, every other team ``(k-2)/(2(k-1))``, every
team ½ in a game without a winner.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from splash.core.errors import OptionError
from splash.core.i18n import message
from splash.report.power import (
    ALPHA,
    WILCOXON_EFFICIENCY,
    holm_level,
    mcnemar_detectable,
    paired_detectable,
)
from splash.sim.stats import holm

if TYPE_CHECKING:
    import pandas as pd

PERMUTATIONS = 9999
"""Resamples of the permutation test of the balance gap."""

Floats = NDArray[np.float64]
Ints = NDArray[np.int64]


def partial_wins(winners: Ints, teams: int) -> Floats:
    """A ``(games, teams)`` matrix of partial wins: 1 for the winner, ``(k-2)/(2(k-1))`` for
    the other ``k - 1`` teams, ½ for every team of a game without a winner (``-1``)."""
    if teams < 2:
        raise OptionError("teams", teams, message("must be a whole number >= 2"))
    loser = (teams - 2) / (2 * (teams - 1))
    codes = np.asarray(winners)[..., None]
    team = np.arange(teams)
    return np.where(codes == team, 1.0, np.where(codes < 0, 0.5, loser))


def _team_counts(codes: Ints, teams: int) -> Ints:
    """The wins of each team in the games along the last axis."""
    return np.stack([(codes == team).sum(axis=-1) for team in range(teams)], axis=-1)


def _gap_of_counts(counts: Ints, games: int, teams: int) -> Floats:
    loser = (teams - 2) / (2 * (teams - 1))
    spread = counts.max(axis=-1) - counts.min(axis=-1)
    return np.asarray((1.0 - loser) * spread / games, dtype=np.float64)


def balance_gap(winners: Ints, teams: int, axis: int = -1) -> Floats:
    """``max_{p<q} |r_p - r_q|`` (the largest minus the smallest mean partial win) of the
    games along ``axis`` of ``winners``.

    With partial wins of the form ``loser + (1 - loser)·[won]`` in decisive games and ½ for
    every team otherwise, the gap is ``(1 - loser)`` times the gap between win counts,
    divided by the games.
    """
    codes = np.moveaxis(np.asarray(winners), axis, -1)
    games = codes.shape[-1]
    if games == 0:
        return np.zeros(codes.shape[:-1])
    return _gap_of_counts(_team_counts(codes, teams), games, teams)


@dataclass(frozen=True)
class Arm:
    """One combination's games: its assignments and, per game sorted by seed, the winning
    team (``-1`` without a winner), the turns and whether the turn cap stopped it."""

    assignments: tuple[tuple[str, str], ...]
    teams: int
    seeds: Ints
    winners: Ints
    turns: Floats
    turn_cap: NDArray[np.bool_]

    @classmethod
    def of_frame(
        cls, assignments: Sequence[tuple[str, str]], teams: int, frame: pd.DataFrame
    ) -> Arm:
        """The arm of a results frame (columns ``seed``, ``winner_team``, ``turns``,
        ``turn_cap``; any other column is ignored)."""
        ordered = frame.sort_values("seed")
        return cls(
            tuple(assignments),
            teams,
            ordered["seed"].to_numpy(dtype=np.int64),
            ordered["winner_team"].fillna(-1).to_numpy(dtype=np.int64),
            ordered["turns"].to_numpy(dtype=np.float64),
            ordered["turn_cap"].fillna(False).to_numpy(dtype=bool),
        )

    @property
    def games(self) -> int:
        """How many games."""
        return len(self.seeds)

    def wins(self, team: int) -> int:
        """The games team ``team`` won."""
        return int(np.count_nonzero(self.winners == team))

    def win_rate(self, team: int) -> float:
        """``team``'s share of wins (NaN without games)."""
        return self.wins(team) / self.games if self.games else math.nan

    @property
    def advantage(self) -> float:
        """AdvantageP1: the first team's mean partial win."""
        if not self.games:
            return math.nan
        return float(partial_wins(self.winners, self.teams)[:, 0].mean())

    @property
    def balance(self) -> float:
        """Balance: ``1 - max_{p<q} |r_p - r_q|``."""
        return 1.0 - float(balance_gap(self.winners, self.teams)) if self.games else math.nan

    @property
    def capped(self) -> int:
        """Games stopped by the turn cap."""
        return int(np.count_nonzero(self.turn_cap))


@dataclass(frozen=True)
class Comparison:
    """One measure of one change: both values, their difference with its 95 % interval
    (NaN when there is none), the p-value and the Holm-adjusted p-value, and the smallest
    difference the test could find."""

    baseline: float
    variant: float
    low: float
    high: float
    p_value: float
    adjusted: float = math.nan
    spread: float = math.nan
    """What the test's power depends on besides the pairs: the share of discordant pairs (team
    A's wins) or the standard deviation of the paired differences (the gap, the turns)."""
    detectable: float = math.nan
    """The smallest difference the test finds with 80 % power at the level ``0.05/m`` of the
    first of Holm's ``m`` tests (:mod:`splash.report.power`)."""

    @property
    def difference(self) -> float:
        """``variant - baseline``."""
        return self.variant - self.baseline

    @property
    def significant(self) -> bool:
        """The adjusted p-value is below :data:`ALPHA`."""
        return not math.isnan(self.adjusted) and self.adjusted < ALPHA


@dataclass(frozen=True)
class Effect:
    """One change: ``key`` from its first value to ``value``, the other varied keys held at
    ``held``; ``baseline`` and ``variant`` are the indices of the two combinations, compared
    over ``pairs`` seeds.  ``discordant`` counts the pairs where only the variant's game was
    won by team A, then those where only the baseline's was."""

    key: str
    value: str
    first: str
    held: tuple[tuple[str, str], ...]
    baseline: int
    variant: int
    pairs: int
    discordant: tuple[int, int]
    first_wins: Comparison
    gap: Comparison
    turns: Comparison

    @property
    def label(self) -> str:
        """``board.lanes.outer 36 → 40 (decks.high_tide.undertow=0)``."""
        held = _label(self.held, ", ")
        text = f"{self.key} {self.first} \u2192 {self.value}"
        return f"{text} ({held})" if held else text


def _paired_interval(differences: Floats) -> tuple[float, float]:
    """The 95 % t interval of the mean of paired differences."""
    from scipy import stats

    n = len(differences)
    if n < 2:
        return math.nan, math.nan
    mean = float(differences.mean())
    half = float(stats.t.ppf(0.975, n - 1)) * float(differences.std(ddof=1)) / math.sqrt(n)
    return mean - half, mean + half


def _win_test(a: Arm, b: Arm, ia: Ints, ib: Ints) -> tuple[Comparison, tuple[int, int]]:
    from scipy import stats

    before = a.winners[ia] == 0
    after = b.winners[ib] == 0
    gained = int(np.count_nonzero(after & ~before))
    lost = int(np.count_nonzero(before & ~after))
    p = stats.binomtest(gained, gained + lost).pvalue if gained + lost else 1.0
    low, high = _paired_interval(after.astype(np.float64) - before.astype(np.float64))
    discordant = (gained + lost) / len(before)
    test = Comparison(
        float(before.mean()), float(after.mean()), low, high, float(p), spread=discordant
    )
    return test, (gained, lost)


def _gap_test(a: Arm, b: Arm, ia: Ints, ib: Ints, rng: np.random.Generator) -> Comparison:
    from scipy import stats

    x, y = a.winners[ia], b.winners[ib]
    before = float(balance_gap(x, a.teams))
    after = float(balance_gap(y, b.teams))
    if a.teams != b.teams:
        return Comparison(before, after, math.nan, math.nan, math.nan)
    teams, games = a.teams, len(x)
    spread = _gap_spread(x, y, teams)
    # Swapping a pair of equal outcomes changes nothing: only the discordant pairs are
    # permuted, the others enter as fixed counts.
    differ = x != y
    if not differ.any():
        return Comparison(before, after, math.nan, math.nan, 1.0, spread=spread)
    fixed = _team_counts(x[~differ], teams)

    def statistic(u: Ints, v: Ints, axis: int) -> Floats:
        counts_u = fixed + _team_counts(np.moveaxis(u, axis, -1), teams)
        counts_v = fixed + _team_counts(np.moveaxis(v, axis, -1), teams)
        return _gap_of_counts(counts_v, games, teams) - _gap_of_counts(counts_u, games, teams)

    result = stats.permutation_test(
        (x[differ], y[differ]),
        statistic,
        permutation_type="samples",
        vectorized=True,
        n_resamples=PERMUTATIONS,
        batch=1000,
        rng=rng,
    )
    return Comparison(before, after, math.nan, math.nan, float(result.pvalue), spread=spread)


def _gap_spread(x: Ints, y: Ints, teams: int) -> float:
    """The standard deviation of the paired differences of the gap, linearised: the teams
    that lead and trail in the baseline ``x`` held fixed, a game adds ``c = 1 - loser`` to
    the gap when the leader wins it and takes ``c`` away when the trailing team does."""
    if len(x) < 2:
        return math.nan
    counts = _team_counts(x, teams)
    leader, trailer = int(np.argmax(counts)), int(np.argmin(counts))
    c = 1.0 - (teams - 2) / (2 * (teams - 1))

    def gain(codes: Ints) -> Floats:
        return np.asarray(c * ((codes == leader) * 1.0 - (codes == trailer) * 1.0), np.float64)

    return float((gain(y) - gain(x)).std(ddof=1))


def _turns_test(a: Arm, b: Arm, ia: Ints, ib: Ints) -> Comparison:
    from scipy import stats

    x, y = a.turns[ia], b.turns[ib]
    differences = y - x
    p = 1.0 if not np.any(differences) else float(stats.wilcoxon(y, x).pvalue)
    low, high = _paired_interval(differences)
    spread = float(differences.std(ddof=1)) if len(differences) > 1 else math.nan
    return Comparison(float(x.mean()), float(y.mean()), low, high, p, spread=spread)


def effects(arms: Sequence[Arm], *, seed: int = 0) -> list[Effect]:
    """Every change of the sweep whose combinations are ``arms`` (in plan order, each with
    the same keys in the same order; the first arm holds every key's first value), tested
    on the seeds both combinations played, with Holm's correction over the changes.

    ``seed`` seeds the permutation tests (one child of ``SeedSequence(seed)`` per change).
    """
    if not arms:
        return []
    keys = [key for key, _ in arms[0].assignments]
    firsts = dict(arms[0].assignments)
    where = {arm.assignments: index for index, arm in enumerate(arms)}
    found: list[tuple[int, int, int]] = []
    for position, key in enumerate(keys):
        for index, arm in enumerate(arms):
            values = list(arm.assignments)
            if values[position][1] == firsts[key]:
                continue
            values[position] = (key, firsts[key])
            baseline = where.get(tuple(values))
            if baseline is not None:
                found.append((position, baseline, index))
    rngs = [
        np.random.default_rng(child) for child in np.random.SeedSequence(seed).spawn(len(found))
    ]
    raw: list[Effect] = []
    for (position, base, index), rng in zip(found, rngs, strict=True):
        a, b = arms[base], arms[index]
        _, ia, ib = np.intersect1d(a.seeds, b.seeds, assume_unique=True, return_indices=True)
        key, value = b.assignments[position]
        if len(ia):
            wins, discordant = _win_test(a, b, ia, ib)
            measured = (wins, _gap_test(a, b, ia, ib, rng), _turns_test(a, b, ia, ib))
        else:
            nothing = Comparison(math.nan, math.nan, math.nan, math.nan, math.nan)
            discordant, measured = (0, 0), (nothing, nothing, nothing)
        held = tuple(kv for k, kv in enumerate(b.assignments) if k != position)
        raw.append(
            Effect(key, value, firsts[key], held, base, index, len(ia), discordant, *measured)
        )
    for measure in ("first_wins", "gap", "turns"):
        p_values = [getattr(e, measure).p_value for e in raw]
        adjusted = holm(p_values)
        level = holm_level(max(1, sum(1 for p in p_values if not math.isnan(p))))
        raw = [
            replace(
                e,
                **{
                    measure: replace(
                        getattr(e, measure),
                        adjusted=p,
                        detectable=_detectable(measure, e.pairs, getattr(e, measure).spread, level),
                    )
                },
            )
            for e, p in zip(raw, adjusted, strict=True)
        ]
    return raw


def _detectable(measure: str, pairs: int, spread: float, alpha: float) -> float:
    """The smallest difference of ``measure`` its paired test finds with 80 % power."""
    match measure:
        case "first_wins":
            return mcnemar_detectable(pairs, spread, alpha=alpha)
        case "turns":
            return paired_detectable(pairs, spread, alpha=alpha, efficiency=WILCOXON_EFFICIENCY)
        case _:
            return paired_detectable(pairs, spread, alpha=alpha)


@dataclass(frozen=True)
class FairShare:
    """A team's wins in one combination against its fair share ``1/teams``: the two-sided
    exact binomial test and its Holm-adjusted p-value over every team of every combination."""

    team: int
    rate: float
    fair: float
    p_value: float
    adjusted: float = math.nan

    @property
    def significant(self) -> bool:
        """The adjusted p-value is below :data:`ALPHA`."""
        return not math.isnan(self.adjusted) and self.adjusted < ALPHA


def fair_share_tests(arms: Sequence[Arm]) -> list[list[FairShare]]:
    """For each combination, each team's wins against its fair share, Holm's correction over
    all of them."""
    from scipy import stats

    found = [
        [
            FairShare(
                team,
                arm.win_rate(team),
                1.0 / arm.teams,
                float(stats.binomtest(arm.wins(team), arm.games, 1.0 / arm.teams).pvalue),
            )
            for team in range(arm.teams)
        ]
        if arm.games
        else []
        for arm in arms
    ]
    adjusted = iter(holm([t.p_value for tests in found for t in tests]))
    return [[replace(t, adjusted=next(adjusted)) for t in tests] for tests in found]


@dataclass(frozen=True)
class Persistent:
    """An imbalance present in every combination: ``team`` wins more (``above``) or less than
    its fair share in each, significantly after Holm's correction."""

    team: int
    above: bool
    lowest: float
    highest: float
    """The lowest and highest win rate of the team over the combinations."""
    largest_p: float
    """The largest adjusted p-value over the combinations."""


def persistent_imbalances(tests: Sequence[Sequence[FairShare]]) -> list[Persistent]:
    """The teams whose win rate is significantly above, or below, their fair share in every
    combination of :func:`fair_share_tests`, in the same direction.  With two teams in every
    combination, a team below is the mirror of the other above: only the one above is kept."""
    if not tests or any(not row for row in tests):
        return []
    mirrored = all(len(row) == 2 for row in tests)
    found = []
    for team in range(min(len(row) for row in tests)):
        column = [row[team] for row in tests]
        signs = {t.rate > t.fair for t in column}
        if (
            all(t.significant for t in column)
            and len(signs) == 1
            and not (mirrored and signs == {False})
        ):
            rates = [t.rate for t in column]
            found.append(
                Persistent(
                    team, signs.pop(), min(rates), max(rates), max(t.adjusted for t in column)
                )
            )
    return found


def _label(assignments: Sequence[tuple[str, str]], separator: str) -> str:
    return separator.join(f"{key}={value}" for key, value in assignments)
