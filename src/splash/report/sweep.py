"""The statistics of a variant sweep and its HTML page (see ``docs/sweep.md``).

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
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from splash.core.errors import DocumentError, OptionError
from splash.core.i18n import N_, message
from splash.report.html import EMPTY, Page
from splash.report.stats import wilson

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

ALPHA = 0.05
"""The level of the tests, after Holm's correction."""

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


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (NaN stays NaN and is left out of the family):
    with the ``m`` p-values sorted, ``p̃_(i) = max_{j≤i} min(1, (m - j + 1) p_(j))``."""
    values = np.asarray(p_values, dtype=np.float64)
    present = np.flatnonzero(~np.isnan(values))
    adjusted = np.full(values.shape, np.nan)
    order = present[np.argsort(values[present], kind="stable")]
    m = len(order)
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (m - rank) * float(values[index])))
        adjusted[index] = running
    return [float(v) for v in adjusted]


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
    (NaN when there is none), the p-value and the Holm-adjusted p-value."""

    baseline: float
    variant: float
    low: float
    high: float
    p_value: float
    adjusted: float = math.nan

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
    test = Comparison(float(before.mean()), float(after.mean()), low, high, float(p))
    return test, (gained, lost)


def _gap_test(a: Arm, b: Arm, ia: Ints, ib: Ints, rng: np.random.Generator) -> Comparison:
    from scipy import stats

    x, y = a.winners[ia], b.winners[ib]
    before = float(balance_gap(x, a.teams))
    after = float(balance_gap(y, b.teams))
    if a.teams != b.teams:
        return Comparison(before, after, math.nan, math.nan, math.nan)
    teams, games = a.teams, len(x)
    # Swapping a pair of equal outcomes changes nothing: only the discordant pairs are
    # permuted, the others enter as fixed counts.
    differ = x != y
    if not differ.any():
        return Comparison(before, after, math.nan, math.nan, 1.0)
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
    return Comparison(before, after, math.nan, math.nan, float(result.pvalue))


def _turns_test(a: Arm, b: Arm, ia: Ints, ib: Ints) -> Comparison:
    from scipy import stats

    x, y = a.turns[ia], b.turns[ib]
    differences = y - x
    p = 1.0 if not np.any(differences) else float(stats.wilcoxon(y, x).pvalue)
    low, high = _paired_interval(differences)
    return Comparison(float(x.mean()), float(y.mean()), low, high, p)


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
        adjusted = holm([getattr(e, measure).p_value for e in raw])
        raw = [
            replace(e, **{measure: replace(getattr(e, measure), adjusted=p)})
            for e, p in zip(raw, adjusted, strict=True)
        ]
    return raw


def _short(arm: Arm) -> str:
    return " \u00b7 ".join(value for _, value in arm.assignments)


def _axis_title(arms: Sequence[Arm]) -> str:
    return " \u00b7 ".join(key for key, _ in arms[0].assignments)


def _new_figure(width: float, height: float) -> Figure:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def win_rate_figure(arms: Sequence[Arm]) -> Figure:
    """Each team's win rate per combination, with 95 % Wilson intervals."""
    teams = max(arm.teams for arm in arms)
    figure = _new_figure(max(6.0, 0.9 * len(arms) + 2), 4.0)
    axes = figure.subplots()
    width = 0.8 / teams
    for team in range(teams):
        xs, rates, below, above = [], [], [], []
        for index, arm in enumerate(arms):
            if team >= arm.teams or not arm.games:
                continue
            rate = arm.win_rate(team)
            low, high = wilson(arm.wins(team), arm.games)
            xs.append(index - 0.4 + width * (team + 0.5))
            rates.append(rate)
            below.append(rate - low)
            above.append(high - rate)
        label = message("team {team}", team="ABCDEFGH"[team]).render()
        axes.errorbar(xs, rates, yerr=[below, above], fmt="o", capsize=3, label=label)
    axes.axhline(1.0 / teams, color="grey", linewidth=0.8, linestyle="--")
    axes.set_xticks(range(len(arms)), [_short(a) for a in arms], rotation=45, ha="right")
    axes.set_xlabel(_axis_title(arms))
    axes.set_ylabel(message("win rate").render())
    axes.set_ylim(0.0, 1.0)
    axes.legend()
    return figure


def turns_figure(arms: Sequence[Arm]) -> Figure:
    """The distribution of the game length (turns) per combination, as box plots."""
    figure = _new_figure(max(6.0, 0.9 * len(arms) + 2), 4.0)
    axes = figure.subplots()
    axes.boxplot([arm.turns for arm in arms], showmeans=True)
    axes.set_xticks(range(1, len(arms) + 1), [_short(a) for a in arms], rotation=45, ha="right")
    axes.set_xlabel(_axis_title(arms))
    axes.set_ylabel(message("turns").render())
    return figure


def effect_figure(found: Sequence[Effect]) -> Figure:
    """Each change's effect on the first team's win rate, on the balance gap and on the mean
    turns, with 95 % intervals where there are; significant effects in red."""
    figure = _new_figure(13.0, max(2.5, 0.45 * len(found) + 1.5))
    panels = figure.subplots(1, 3, sharey=True)
    ys = np.arange(len(found))[::-1]
    titles = (
        ("first_wins", message("change of team A's win rate")),
        ("gap", message("change of the balance gap")),
        ("turns", message("change of the mean turns")),
    )
    for axes, (measure, title) in zip(panels, titles, strict=True):
        for y, effect in zip(ys, found, strict=True):
            shown: Comparison = getattr(effect, measure)
            colour = "#b03a2e" if shown.significant else "#2b7bb9"
            low, high = np.nan_to_num([shown.difference - shown.low, shown.high - shown.difference])
            axes.errorbar(
                [shown.difference], [y], xerr=[[low], [high]], fmt="o", color=colour, capsize=3
            )
        axes.axvline(0.0, color="grey", linewidth=0.8)
        axes.set_title(title.render())
    panels[0].set_yticks(ys, [effect.label for effect in found])
    return figure


def _percent(value: float) -> str:
    return EMPTY if math.isnan(value) else f"{100 * value:.1f} %"


def _interval(low: float, high: float, *, percent: bool = False) -> str:
    if math.isnan(low) or math.isnan(high):
        return EMPTY
    if percent:
        return f"{100 * low:+.1f} .. {100 * high:+.1f} %"
    return f"{low:+.3g} .. {high:+.3g}"


def _fixed(value: float) -> str:
    return EMPTY if math.isnan(value) else f"{value:.3f}"


def _p(value: float) -> str:
    return EMPTY if math.isnan(value) else f"{value:.3g}"


def _tested(comparison: Comparison) -> str:
    """``p (adjusted p)``, with a star when significant."""
    star = " *" if comparison.significant else ""
    return f"{_p(comparison.p_value)} ({_p(comparison.adjusted)}){star}"


def _label(assignments: Sequence[tuple[str, str]], separator: str) -> str:
    return separator.join(f"{key}={value}" for key, value in assignments)


def combination_rows(
    arms: Sequence[Arm], *, compact: bool = False
) -> tuple[list[str], list[list[str]]]:
    """The columns and rows of the table of combinations (texts for people); ``compact``
    (for a terminal) puts each assignment on a line of its own."""
    columns = [
        message("Combination").render(),
        message("Games").render(),
        message("Wins of team A").render(),
        message("95 % Wilson interval").render(),
        message("AdvantageP1").render(),
        message("Balance").render(),
        message("Turns (mean ± sd)").render(),
        message("Turn cap hit").render(),
    ]
    rows = []
    for arm in arms:
        low, high = wilson(arm.wins(0), arm.games)
        sd = float(arm.turns.std(ddof=1)) if arm.games > 1 else 0.0
        mean = float(arm.turns.mean()) if arm.games else math.nan
        cap = arm.capped / arm.games if arm.games else math.nan
        rows.append(
            [
                _label(arm.assignments, "\n" if compact else ", "),
                str(arm.games),
                _percent(arm.win_rate(0)),
                f"{100 * low:.1f} - {100 * high:.1f} %",
                _fixed(arm.advantage),
                _fixed(arm.balance),
                f"{mean:.1f} ± {sd:.1f}" if arm.games else EMPTY,
                f"{arm.capped} ({_percent(cap)})",
            ]
        )
    return columns, rows


def effect_rows(
    found: Sequence[Effect], *, compact: bool = False
) -> tuple[list[str], list[list[str]]]:
    """The columns and rows of the table of effects (texts for people); ``compact`` (for a
    terminal) leaves out the intervals and puts the held keys on lines of their own."""
    p_holm = message("p (Holm)").render()
    interval = message("Difference (95 %)").render()
    columns = [message("Change").render(), message("Pairs").render()]
    columns += [message("Wins of team A").render(), *([] if compact else [interval]), p_holm]
    columns += [message("Balance gap").render(), p_holm]
    columns += [message("Mean turns").render(), *([] if compact else [interval]), p_holm]
    rows = []
    for e in found:
        w, g, t = e.first_wins, e.gap, e.turns
        change = f"{e.key} {e.first} \u2192 {e.value}"
        if e.held:
            held = _label(e.held, "\n" if compact else ", ")
            change += f"\n{held}" if compact else f" ({held})"
        row = [change, str(e.pairs), f"{_percent(w.baseline)} \u2192 {_percent(w.variant)}"]
        row += [] if compact else [_interval(w.low, w.high, percent=True)]
        row += [_tested(w)]
        row += [f"{g.baseline:.3f} \u2192 {g.variant:.3f}", _tested(g)]
        row += [f"{t.baseline:.1f} \u2192 {t.variant:.1f}"]
        row += [] if compact else [_interval(t.low, t.high)]
        row += [_tested(t)]
        rows.append(row)
    return columns, rows


def _definitions() -> list[tuple[str, str]]:
    texts = [
        (
            N_("Partial wins"),
            N_(
                "In a game won by one of k teams the winner scores 1 and every other team "
                "(k-2)/(2(k-1)); in a game without a winner every team scores 1/2 (Ludii's "
                "ranks and utilities)."
            ),
        ),
        (N_("AdvantageP1"), N_("The mean partial win of team A, the team that moves first.")),
        (
            N_("Balance"),
            N_(
                "1 - max over pairs of teams of |r_p - r_q|, r the mean partial wins (Ludii's "
                "definition, with partial wins as documented rather than sole wins only); the "
                "balance gap is max |r_p - r_q|."
            ),
        ),
        (
            N_("Change"),
            N_(
                "One varied key set from its first value to another, every other varied key "
                "held at the values shown. Each combination plays the same seeds, so the two "
                "games of a seed form a pair; changes are not pooled over the other keys, so "
                "that every seed is one independent pair."
            ),
        ),
        (
            N_("Tests"),
            N_(
                "Team A's wins: exact McNemar test (two-sided binomial test on the pairs where "
                "only one of the two games was won by team A). Balance gap: paired "
                "permutation test, the two games of a seed swapped at random ({permutations} "
                "resamples); not tested when the team counts differ. Turns: Wilcoxon "
                "signed-rank test on the paired differences. Intervals of differences: 95 % "
                "t intervals of the paired differences."
            ),
        ),
        (
            N_("Holm"),
            N_(
                "The p-values of each measure are adjusted over all the changes by Holm's "
                "step-down method; rows in red have an adjusted p-value below {alpha} for at "
                "least one measure."
            ),
        ),
    ]
    return [
        (message(term).render(), message(text, permutations=PERMUTATIONS, alpha=ALPHA).render())
        for term, text in texts
    ]


def sweep_page(
    arms: Sequence[Arm], found: Sequence[Effect], *, title: str, facts: Sequence[str] = ()
) -> Page:
    """The HTML page of a sweep: the combinations (table, win rates, turns), the effects of
    the changes (table, plot) and the definitions; ``facts`` open the page."""
    page = Page(title, introduction=list(facts))
    if not arms:
        return page
    combos = page.section(message("Combinations").render())
    columns, rows = combination_rows(arms)
    combos.table(columns, rows)
    combos.figure(
        win_rate_figure(arms),
        message("Win rate of each team per combination, with 95 % Wilson intervals.").render(),
    )
    combos.figure(
        turns_figure(arms),
        message(
            "Game length (turns) per combination: quartiles, whiskers, mean (triangle)."
        ).render(),
    )
    changes = page.section(message("Effects of the changes").render())
    if found:
        columns, rows = effect_rows(found)
        emphasis = [
            e.first_wins.significant or e.gap.significant or e.turns.significant for e in found
        ]
        changes.table(columns, rows, emphasis=emphasis)
        changes.figure(
            effect_figure(found),
            message(
                "Effect of each change with its 95 % interval where there is one; red: significant (Holm)."
            ).render(),
        )
    else:
        changes.paragraph(message("No change to compare.").render())
    page.section(message("Definitions").render()).definitions(_definitions())
    return page


def write_page(path: Path, page: Page) -> None:
    """Write ``page`` to ``path`` as one HTML file."""
    try:
        path.write_text(page.render(), encoding="utf-8")
    except OSError as error:
        raise DocumentError(
            message("cannot write {file}: {error}", file=str(path), error=str(error))
        ) from None
