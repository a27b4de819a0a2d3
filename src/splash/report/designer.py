"""The designer metrics section of the report (Ludii's names and definitions, the values
from :mod:`splash.report.metric_ids`) and the duration section: :func:`metrics_section`,
:func:`duration_section`."""

from __future__ import annotations

import numpy as np

from splash.core.i18n import Message, message
from splash.report import metrics, plots
from splash.report.games import reported
from splash.report.html import Cell, Page, Section, format_number
from splash.report.metric_ids import METRICS, Estimate, GamesTable, estimate, games_table
from splash.report.outcomes import player_names
from splash.report.results import Results

LUDII = tuple(m for m in METRICS.values() if m.ludii)
"""Ludii's metrics, in the order of the table."""


def metric_definitions(game: str) -> list[tuple[str, Message]]:
    """The definition of every Ludii metric, and of the notation, for the page's definition
    list."""
    drama = (
        "Drama",
        message(
            "d_i = the mean over w in W of (max_q v_q(s_i) - v_w(s_i)) over s_0 … s_(T-1); "
            "each game's sequence is reduced by an aggregator, then averaged over games: "
            "Average, Median, Max (starting at 0), Variance (population) and "
            "ChangeLineBestFit (the slope of the least-squares line of d_i against i)."
        ),
    )
    ludii = [(m.name, m.definition) for m in LUDII]
    first_drama = next(i for i, (name, _) in enumerate(ludii) if name.startswith("Drama"))
    return [
        NOTATION,
        *ludii[:first_drama],
        drama,
        *ludii[first_drama:],
        ("v_p", reported(game).evaluation),
    ]


NOTATION = (
    "u_p, w_p, W",
    message(
        "Ranks: 1 is best; tied players share the average rank (the winners share the "
        "top ranks, the others the ranks below). Utility u_p = 1 - 2(rank_p - 1)/(n - 1), "
        "in [-1, 1]; partial win w_p = (u_p + 1)/2. W is the set of players whose final "
        "rank is top: the winners of the game (every player when nobody won). Ludii's "
        "code takes W from a freshly started game, where every player ties; the report "
        "implements the documented intent, the final winners."
    ),
)


def interval_text(found: Estimate) -> str:
    """``low … high`` (an en dash without an interval)."""
    if not (np.isfinite(found.low) and np.isfinite(found.high)):
        return format_number(float("nan"))
    return f"{format_number(found.low)} … {format_number(found.high)}"


def _rows(table: GamesTable) -> tuple[list[list[Cell]], dict[str, Estimate]]:
    rows: list[list[Cell]] = []
    found: dict[str, Estimate] = {}
    for index, metric in enumerate(LUDII):
        value = found[metric.name] = estimate(metric, table, seed=index)
        if not value.available:
            continue
        rows.append(
            [
                metric.name,
                value.value,
                interval_text(value),
                metric.span,
                str(metric.direction or message("no direction")),
            ]
        )
    return rows, found


def metrics_section(page: Page, results: Results) -> None:
    """The Ludii metrics in a table, their definitions, and the per-player partial wins."""
    section = page.section(message("Designer metrics"), anchor="metrics")
    players = reported(results.game).players
    section.paragraph(
        message(
            "The metrics Ludii's designers use, computed as its metric notes define them; the "
            "players are the {players}. Each metric is defined below.",
            players=players,
        )
    )
    table = games_table(results)
    rows, values = _rows(table)
    columns = [
        message("metric"),
        message("value"),
        message("95 % interval"),
        message("range"),
        message("direction"),
    ]
    section.table(columns, rows)
    section.paragraph(
        message(
            "Balance is the largest gap among {pairs} pairs of mean partial wins, each known to "
            "about ±{error} (one standard error) from {games} games: noise alone lowers it by a "
            "few times that.",
            pairs=results.seats * (results.seats - 1) // 2,
            error=format_number(0.5 / np.sqrt(max(1, results.games)), 2),
            games=results.games,
        ),
        note=True,
    )
    traced = bool(table.trace_metrics)
    if not results.has_traces:
        section.paragraph(
            message(
                "The state-evaluation metrics (LeadChange, Stability, DecisivenessThreshold, "
                "DecisivenessMoves, Drama) are unavailable: the results file has no evaluation "
                "traces (it was written by an older version of splash simulate). Simulate "
                "again to get them."
            )
        )
    if not values["DurationMoves"].available:
        section.paragraph(
            message("DurationMoves needs the moves column of a newer results file."), note=True
        )
    u = table.utilities
    names = player_names(results)
    section.table(
        [message("player"), message("mean partial win r_p"), message("mean utility")],
        [
            [name, float(r), float(m)]
            for name, r, m in zip(names, metrics.partial_wins(u), u.mean(axis=0), strict=True)
        ],
        caption=message("Partial wins per player (Balance compares them)."),
    )
    if traced:
        _example_trace(section, results, names)
        shown = ("LeadChange", "DecisivenessMoves", "DramaAverage")
        per_game = table.trace_metrics
        section.figure(
            plots.histograms(
                {key: [float(v) for v in per_game[key] if np.isfinite(v)] for key in shown},
                ylabel=str(message("games")),
            ),
            message("LeadChange, DecisivenessMoves and DramaAverage game by game."),
        )
    section.definitions(metric_definitions(results.game))


def _example_trace(section: Section, results: Results, names: list[str]) -> None:
    traces = results.traces()
    lengths = np.asarray([len(t) for t in traces])
    if not lengths.size or lengths.max() < 2:
        return
    index = int(np.argsort(lengths)[len(lengths) // 2])
    seed = int(results.frame["seed"].iloc[index])
    section.figure(
        plots.trace_lines(
            traces[index],
            names,
            xlabel=str(message("state s_i")),
            ylabel=str(message("evaluation v")),
        ),
        message(
            "The evaluation of every player along one game of median length (seed {seed}); the "
            "last point is the final utility.",
            seed=seed,
        ),
    )


def duration_section(page: Page, results: Results) -> None:
    """The game's length in its own turns: mean, spread, histogram."""
    section = page.section(message("Duration"), anchor="duration")
    turns = np.asarray(results.frame["turns"], dtype=np.float64)
    unit = reported(results.game).turns
    spread = float(turns.std(ddof=1)) if len(turns) > 1 else 0.0
    quartiles = np.percentile(turns, [25, 50, 75])
    table = games_table(results)
    mean = estimate(METRICS["duration_turns"], table)
    rows: list[list[Cell]] = [
        [str(message("mean {unit}", unit=unit)), mean.value],
        [str(message("95 % interval of the mean")), interval_text(mean)],
        [str(message("standard deviation")), spread],
        [str(message("minimum")), float(turns.min())],
        [str(message("quartiles")), " / ".join(format_number(float(q)) for q in quartiles)],
        [str(message("maximum")), float(turns.max())],
    ]
    for column, label in (
        ("decisions", message("decisions per game (mean), set-up included")),
        ("actions", message("actions per game (mean), chance outcomes included")),
    ):
        values = table.column(column)
        if values is not None:
            rows.append([str(label), float(values.mean())])
    section.paragraph(
        message(
            "A turn is one {turn}; the other counts are decisions (the actions the players "
            "chose) and actions (chance outcomes included).",
            turn=reported(results.game).turn,
        )
    )
    section.table([message("measure"), message("value")], rows)
    section.figure(
        plots.histogram(
            turns.tolist(),
            xlabel=str(unit),
            ylabel=str(message("games")),
            mean_label=str(message("mean")),
        ),
        message("Game length in {unit}.", unit=unit),
    )
