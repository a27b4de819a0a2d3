"""The HTML page of a tuning run: the recommended settings with their measured metrics and
intervals, each target plotted against each parameter over the candidates, every candidate."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from splash.core.i18n import Message, message
from splash.games import GAMES
from splash.report.estimates import Estimate
from splash.report.html import Page, format_number
from splash.sim.sweep import value_text
from splash.tune.measure import Measure, settings_text
from splash.tune.search import TuneResult
from splash.tune.targets import Target
from splash.tune.verdict import verdict_sentences

if TYPE_CHECKING:
    from matplotlib.figure import Figure

SHOWN_CANDIDATES = 50
"""The candidates the page lists (the best ones)."""


def ended_early_text(result: TuneResult) -> Message | None:
    """The sentence saying that the search stopped before the budget was spent, if it did."""
    if not result.ended_early:
        return None
    spent = sum(m.games for m in result.candidates)
    return message(
        "The search ended after {count} candidates, {left} games of its budget unspent: the "
        "sampler proposed only settings already measured (a setting is played once on the "
        "search seeds).",
        count=len(result.candidates),
        left=max(0, result.plan.search_budget - spent),
    )


def estimate_text(found: Estimate) -> str:
    """``0.012 [-0.018, 0.043]``, or — without a value."""
    if not found.available:
        return "—"
    if not (math.isfinite(found.low) and math.isfinite(found.high)):
        return format_number(found.value)
    return f"{format_number(found.value)} [{format_number(found.low)}, {format_number(found.high)}]"


def verdict_text(target: Target, found: Estimate) -> str:
    """Whether the estimate meets ``target``: by its whole interval, by its value, or not."""
    if target.met_by_interval(found.low, found.high):
        return message("met (its 95 % interval too)").render()
    if target.met(found.value):
        return message("met by the estimate, not by its whole interval").render()
    return message("missed by {miss}", miss=format_number(target.miss(found.value))).render()


def band_limits(target: Target, values: Sequence[float]) -> tuple[float, float] | None:
    """The part of ``target`` a plot of ``values`` shades: the target cut to the values'
    extent widened by their spread on each side, or, when the target lies wholly outside
    that, the whole target (an open end a spread beyond its bound); ``None`` without a
    finite value."""
    finite = [v for v in values if math.isfinite(v)]
    if not finite:
        return None
    low = -target.high if target.absolute else target.low
    high = target.high
    span = max(finite) - min(finite) or 1.0
    bottom, top = max(low, min(finite) - span), min(high, max(finite) + span)
    if bottom < top:
        return bottom, top
    if not math.isfinite(low):
        return high - span, high
    if not math.isfinite(high):
        return low, low + span
    return low, high


def target_figure(result: TuneResult, index: int) -> Figure:
    """One target's metric over the candidates, against each parameter (one panel each),
    the target's band shaded and the recommended candidate circled."""
    from matplotlib.figure import Figure

    plan = result.plan
    target = plan.targets[index]
    panels = len(plan.parameters)
    figure = Figure(figsize=(max(4.0, 3.6 * panels), 3.4), layout="constrained")
    axes_list = figure.subplots(1, panels, squeeze=False)[0]
    ys = [m.estimates[index].value for m in result.candidates]
    best = result.best
    for axes, parameter in zip(axes_list, plan.parameters, strict=True):
        xs = [_position(parameter.choices, m.values[parameter.key]) for m in result.candidates]
        axes.scatter(xs, ys, s=14, alpha=0.7, label=message("candidates").render())
        band = band_limits(target, ys)
        if band is not None:
            axes.axhspan(*band, color="tab:green", alpha=0.15)
        if best is not None:
            axes.scatter(
                [_position(parameter.choices, best.values[parameter.key])],
                [best.estimates[index].value],
                s=90,
                facecolors="none",
                edgecolors="tab:red",
                label=message("recommended").render(),
            )
        if parameter.kind == "list":
            axes.set_xticks(range(len(parameter.choices)), list(parameter.choices))
        axes.set_xlabel(parameter.key)
        axes.set_ylabel(target.metric.id)
    axes_list[0].legend(loc="best", fontsize="small")
    return figure


def _position(choices: Sequence[str], value: object) -> float:
    if choices:
        texts = [value_text(_read(c)) for c in choices]
        return float(texts.index(value_text(value)))
    return float(value) if isinstance(value, int | float) else math.nan


def _read(text: str) -> object:
    from splash.core.settings import parse_value

    return parse_value(text)


def levels_text(result: TuneResult) -> str:
    """Each level's bots, engine and games: ``greedy (fast engine; 2000 games a candidate,
    10000 fresh)``."""
    plan = result.plan
    return "; ".join(
        message(
            "{bots} ({engine} engine; {games} games a candidate, {final} fresh)",
            bots=level.bot,
            engine=level.engine,
            games=games,
            final=final,
        ).render()
        for level, games, final in zip(plan.levels, plan.games, plan.final_games, strict=True)
    )


def levels_figure(result: TuneResult) -> Figure:
    """Each level's first-seat advantage (points) for the draft and each finalist with its
    95 % interval, the ±3 points band shaded; beside it, the game length at each level."""
    from matplotlib.figure import Figure

    from splash.tune.verdict import EDGE_TOLERANCE

    plan = result.plan
    designs: list[tuple[str, Measure]] = []
    if result.draft is not None:
        designs.append((message("the draft").render(), result.draft))
    designs += [(f"{rank + 1}. {settings_text(m)}", m) for rank, m in enumerate(result.finalists)]
    count = len(plan.levels)
    figure = Figure(figsize=(max(8.0, 2.2 * count + 5.0), 3.8), layout="constrained")
    edge_axes, length_axes = figure.subplots(1, 2, squeeze=True)
    width = 0.8 / max(1, len(designs))
    for rank, (label, found) in enumerate(designs):
        if len(found.levels) != count:
            continue
        xs = [i - 0.4 + width * (rank + 0.5) for i in range(count)]
        for axes, key, scale in ((edge_axes, "edge", 100.0), (length_axes, "length", 1.0)):
            values = [found.edge(i) if key == "edge" else found.length(i) for i in range(count)]
            ys = [v.value * scale for v in values]
            below = [max(0.0, (v.value - v.low) * scale) for v in values]
            above = [max(0.0, (v.high - v.value) * scale) for v in values]
            axes.errorbar(xs, ys, yerr=[below, above], fmt="o", capsize=3, label=label[:40])
    edge_axes.axhspan(-EDGE_TOLERANCE * 100, EDGE_TOLERANCE * 100, color="tab:green", alpha=0.15)
    edge_axes.axhline(0.0, color="grey", linewidth=0.8)
    for axes in (edge_axes, length_axes):
        axes.set_xticks(range(count), [level.bot[:24] for level in plan.levels])
    edge_axes.set_ylabel(message("first-seat advantage (points)").render())
    length_axes.set_ylabel(message("team turns per game").render())
    edge_axes.legend(loc="best", fontsize="small")
    return figure


def tune_page(result: TuneResult, *, title: str | None = None) -> Page:
    """The page of ``result``."""
    plan = result.plan
    game = GAMES[plan.base.game].name
    page = Page(title or message("Tuning {game}", game=game).render())
    page.introduction += [
        message(
            "{game}, fixed settings: {settings}; levels: {levels}.",
            game=game,
            settings=", ".join(plan.settings) or "-",
            levels=levels_text(result),
        ).render(),
        message(
            "{candidates} candidates searched by Optuna's TPE sampler (seed {seed}), each on "
            "the same seeds, by successive halving in {rungs} rungs ({pruned} stopped early); "
            "the {finalists} best measured again on fresh seeds, beside the draft.",
            candidates=len(result.candidates),
            seed=plan.seed,
            rungs=len(plan.rung_games),
            pruned=sum(m.pruned for m in result.candidates),
            finalists=len(result.finalists),
        ).render(),
        message("Targets: {targets}.", targets="; ".join(t.text for t in plan.targets)).render(),
    ]
    early = ended_early_text(result)
    if early is not None:
        page.introduction.append(early.render())
    recommended = page.section(message("Recommended settings").render())
    best = result.best
    if best is None:
        recommended.paragraph(message("No finalist was measured (--finalists 0).").render())
    else:
        recommended.paragraph(settings_text(best))
        rows = [
            [t.text, estimate_text(e), verdict_text(t, e)]
            for t, e in zip(plan.targets, best.estimates, strict=True)
        ]
        recommended.table(
            [
                message("Target").render(),
                message("Measured on fresh seeds (95 % interval)").render(),
                message("Verdict").render(),
            ],
            rows,
        )
        finalists = [
            [str(rank + 1), settings_text(m), format_number(m.score)]
            + [estimate_text(e) for e in m.estimates]
            for rank, m in enumerate(result.finalists)
        ]
        recommended.table(
            [
                message("Rank").render(),
                message("Settings").render(),
                message("Miss").render(),
                *(t.metric.id for t in plan.targets),
            ],
            finalists,
            caption=message("The finalists on the fresh seeds, best first.").render(),
        )
    search = page.section(message("The search").render())
    for index, target in enumerate(plan.targets):
        search.figure(
            target_figure(result, index),
            message(
                "{metric} of every candidate against each parameter; green: the target "
                "{target}; circled: the recommended settings.",
                metric=target.metric.id,
                target=target.text,
            ).render(),
        )
    listed = sorted(result.candidates, key=lambda m: (m.pruned, m.score))[:SHOWN_CANDIDATES]
    search.table(
        [
            message("Settings").render(),
            message("Games").render(),
            message("Miss").render(),
            *(t.metric.id for t in plan.targets),
        ],
        [
            [settings_text(m), str(m.games), format_number(m.score)]
            + [estimate_text(e) for e in m.estimates]
            for m in listed
        ],
        caption=message(
            "The best {count} candidates on the search seeds, those stopped early by successive "
            "halving last (miss: the sum of the targets' distances, each in units of its own "
            "range, at the level where it is largest).",
            count=len(listed),
        ).render(),
    )
    if result.finalists:
        fairness = page.section(message("Fairness at every level").render())
        fairness.figure(
            levels_figure(result),
            message(
                "Left: the first-seat advantage at each level, in points, with its 95 % "
                "interval, for the draft and each finalist on the fresh seeds; green: ±3 "
                "points. Right: the game length in team turns at each level."
            ).render(),
        )
        for sentence in verdict_sentences(result):
            fairness.paragraph(sentence.render())
    definitions = page.section(message("Metrics").render())
    definitions.definitions(
        [
            (t.metric.id, f"{t.metric.definition.render()} ({t.metric.unit.render()})")
            for t in plan.targets
        ]
    )
    return page
