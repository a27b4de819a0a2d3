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
from splash.tune.search import Measure, TuneResult
from splash.tune.targets import Target

if TYPE_CHECKING:
    from matplotlib.figure import Figure

SHOWN_CANDIDATES = 50
"""The candidates the page lists (the best ones)."""


def settings_text(measure: Measure) -> str:
    """``board.lanes.outer=36, decks.high_tide.undertow=2``."""
    return ", ".join(f"{key}={value_text(value)}" for key, value in measure.values.items())


def ended_early_text(result: TuneResult) -> Message | None:
    """The sentence saying that the search stopped before the budget's candidates, if it did."""
    if not result.ended_early:
        return None
    return message(
        "The search ended after {count} candidates, before the {trials} the budget pays for: "
        "the sampler proposed only settings already measured (a setting is played once on "
        "the search seeds).",
        count=len(result.candidates),
        trials=result.plan.trials,
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


def tune_page(result: TuneResult, *, title: str | None = None) -> Page:
    """The page of ``result``."""
    plan = result.plan
    game = GAMES[plan.base.game].name
    page = Page(title or message("Tuning {game}", game=game).render())
    page.introduction += [
        message(
            "{game}, bots {bots} on the {engine} engine; fixed settings: {settings}.",
            game=game,
            bots=", ".join(plan.base.bots),
            engine=plan.base.engine,
            settings=", ".join(plan.settings) or "-",
        ).render(),
        message(
            "{candidates} candidates searched by Optuna's TPE sampler (seed {seed}), each on "
            "the same {games} seeds; the {finalists} best measured again on {final} fresh seeds.",
            candidates=len(result.candidates),
            seed=plan.seed,
            games=plan.games,
            finalists=len(result.finalists),
            final=plan.final_games,
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
    listed = sorted(result.candidates, key=lambda m: m.score)[:SHOWN_CANDIDATES]
    search.table(
        [
            message("Settings").render(),
            message("Miss").render(),
            *(t.metric.id for t in plan.targets),
        ],
        [
            [settings_text(m), format_number(m.score)] + [estimate_text(e) for e in m.estimates]
            for m in listed
        ],
        caption=message(
            "The best {count} candidates on the search seeds (miss: the sum of the targets' "
            "distances, each in units of its own range).",
            count=len(listed),
        ).render(),
    )
    definitions = page.section(message("Metrics").render())
    definitions.definitions(
        [
            (t.metric.id, f"{t.metric.definition.render()} ({t.metric.unit.render()})")
            for t in plan.targets
        ]
    )
    return page
