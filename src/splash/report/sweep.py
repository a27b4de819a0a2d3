"""The HTML page and the tables of a variant sweep (see ``docs/sweep.md``); the statistics
are in :mod:`splash.report.sweep_stats`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from splash.core.i18n import N_, message
from splash.report.html import EMPTY, Page, write_page
from splash.report.power import ALPHA, POWER
from splash.report.sweep_stats import (
    PERMUTATIONS,
    Arm,
    Comparison,
    Effect,
    FairShare,
    Persistent,
    _label,
    effects,
    fair_share_tests,
    persistent_imbalances,
)
from splash.sim.stats import wilson

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "ALPHA",
    "Arm",
    "Effect",
    "combination_rows",
    "effect_rows",
    "effects",
    "persistence_text",
    "sweep_page",
    "write_page",
]


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


def _fair_test(test: FairShare) -> str:
    star = " *" if test.significant else ""
    return f"{_p(test.p_value)} ({_p(test.adjusted)}){star}"


def _detectable(value: float, *, percent: bool = False, digits: int = 3) -> str:
    if math.isnan(value):
        return EMPTY
    return f"±{100 * value:.1f} %" if percent else f"±{value:.{digits}g}"


def persistence_text(arms: Sequence[Arm]) -> str:
    """Whether an imbalance is present in every combination, in one sentence."""
    found: list[Persistent] = persistent_imbalances(fair_share_tests(arms))
    if len(arms) < 2:
        return ""
    if not found:
        return message(
            "No team's win rate differs from its fair share in every combination (exact "
            "binomial tests, Holm's correction over every team of every combination)."
        ).render()
    texts = []
    for p in found:
        words = (
            "{team} wins more than its fair share in every combination ({low} to {high}; each "
            "p < {alpha} after Holm's correction, the largest {p}): none of the varied values "
            "removes this imbalance."
            if p.above
            else "{team} wins less than its fair share in every combination ({low} to {high}; "
            "each p < {alpha} after Holm's correction, the largest {p}): none of the varied "
            "values removes this imbalance."
        )
        texts.append(
            message(
                words,
                team=message("team {team}", team="ABCDEFGH"[p.team]),
                low=_percent(p.lowest),
                high=_percent(p.highest),
                alpha=ALPHA,
                p=_p(p.largest_p),
            ).render()
        )
    return " ".join(texts)


def _tested(comparison: Comparison) -> str:
    """``p (adjusted p)``, with a star when significant."""
    star = " *" if comparison.significant else ""
    return f"{_p(comparison.p_value)} ({_p(comparison.adjusted)}){star}"


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
        message("A against its fair share: p (Holm)").render(),
        message("AdvantageP1").render(),
        message("Balance").render(),
        message("Turns (mean ± sd)").render(),
        message("Turn cap hit").render(),
    ]
    rows = []
    fair = fair_share_tests(arms)
    for arm, tests in zip(arms, fair, strict=True):
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
                _fair_test(tests[0]) if tests else EMPTY,
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
    detectable = message("Detectable ({power} %)", power=round(100 * POWER)).render()
    columns = [message("Change").render(), message("Pairs").render()]
    columns += [message("Wins of team A").render(), *([] if compact else [interval])]
    columns += [p_holm, detectable]
    columns += [message("Balance gap").render(), p_holm, detectable]
    columns += [message("Mean turns").render(), *([] if compact else [interval])]
    columns += [p_holm, detectable]
    rows = []
    for e in found:
        w, g, t = e.first_wins, e.gap, e.turns
        change = f"{e.key} {e.first} \u2192 {e.value}"
        if e.held:
            held = _label(e.held, "\n" if compact else ", ")
            change += f"\n{held}" if compact else f" ({held})"
        row = [change, str(e.pairs), f"{_percent(w.baseline)} \u2192 {_percent(w.variant)}"]
        row += [] if compact else [_interval(w.low, w.high, percent=True)]
        row += [_tested(w), _detectable(w.detectable, percent=True)]
        row += [f"{g.baseline:.3f} \u2192 {g.variant:.3f}", _tested(g), _detectable(g.detectable)]
        row += [f"{t.baseline:.1f} \u2192 {t.variant:.1f}"]
        row += [] if compact else [_interval(t.low, t.high)]
        row += [_tested(t), _detectable(t.detectable)]
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
    texts += [
        (
            N_("Detectable"),
            N_(
                "The smallest difference each test finds with {power} % power at the level "
                "{alpha}/m, where Holm's correction over the m changes starts. Team A's wins: "
                "Connor's normal approximation of McNemar's test, from the share of discordant "
                "pairs. Turns: the normal approximation of the paired differences, with the "
                "Wilcoxon test's efficiency 3/π. Balance gap: the normal approximation of "
                "its paired differences, the teams that lead and trail in the first value held "
                "fixed."
            ),
        ),
        (
            N_("Fair share"),
            N_(
                "Each team's wins in each combination against 1/teams: two-sided exact "
                "binomial test, Holm's correction over every team of every combination. An "
                "imbalance present in every combination is named above the table."
            ),
        ),
    ]
    return [
        (
            message(term).render(),
            message(
                text, permutations=PERMUTATIONS, alpha=ALPHA, power=round(100 * POWER)
            ).render(),
        )
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
    persistence = persistence_text(arms)
    if persistence:
        combos.paragraph(persistence)
    columns, rows = combination_rows(arms)
    combos.table(
        columns, rows, emphasis=[bool(t) and t[0].significant for t in fair_share_tests(arms)]
    )
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
