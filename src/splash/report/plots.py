"""The figures of the designer report, drawn with matplotlib's object API (no pyplot state,
no display: each figure is drawn to PNG by :meth:`splash.report.html.Section.figure`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

BLUE = "#2b7bb9"
RED = "#b03a2e"
GREY = "#7f8c8d"
COLOURS = ("#2b7bb9", "#e67e22", "#27ae60", "#8e44ad", "#c0392b", "#16a085")


def _figure(width: float = 7.0, height: float = 3.6) -> Figure:
    return Figure(figsize=(width, height), layout="constrained")


def rate_bars(
    labels: Sequence[str],
    rates: Sequence[float],
    intervals: Sequence[tuple[float, float]],
    *,
    fair: float | None,
    ylabel: str,
    fair_label: str = "",
) -> Figure:
    """Bars of rates with their intervals as error bars, and a dashed line at ``fair``."""
    figure = _figure()
    axes = figure.subplots()
    x = np.arange(len(labels))
    low = [max(0.0, r - lo) for r, (lo, _) in zip(rates, intervals, strict=True)]
    high = [max(0.0, hi - r) for r, (_, hi) in zip(rates, intervals, strict=True)]
    axes.bar(x, rates, color=BLUE, alpha=0.8, yerr=[low, high], capsize=6)
    if fair is not None:
        axes.axhline(fair, color=RED, linestyle="--", label=fair_label or None)
        if fair_label:
            axes.legend(loc="upper right")
    axes.set_xticks(x, labels)
    axes.set_ylabel(ylabel)
    axes.set_ylim(0, min(1.0, max([*(h for _, h in intervals), fair or 0.0]) * 1.15 + 0.02))
    axes.grid(axis="y", alpha=0.3)
    return figure


def histogram(values: Sequence[float], *, xlabel: str, ylabel: str, mean_label: str) -> Figure:
    """A histogram of ``values`` with a line at their mean."""
    figure = _figure()
    axes = figure.subplots()
    data = np.asarray(values, dtype=np.float64)
    bins = min(40, max(5, len(np.unique(data))))
    axes.hist(data, bins=bins, color=BLUE, alpha=0.8, edgecolor="white")
    if data.size:
        axes.axvline(float(data.mean()), color=RED, linestyle="--", label=mean_label)
        axes.legend(loc="upper right")
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    axes.grid(axis="y", alpha=0.3)
    return figure


def grouped_bars(
    groups: Sequence[str],
    series: Mapping[str, Sequence[float]],
    *,
    ylabel: str,
    stacked: bool = False,
) -> Figure:
    """Bars per group, one colour per series (side by side, or stacked)."""
    figure = _figure()
    axes = figure.subplots()
    x = np.arange(len(groups))
    count = max(1, len(series))
    width = 0.8 if stacked else 0.8 / count
    bottom = np.zeros(len(groups))
    for index, (name, values) in enumerate(series.items()):
        colour = COLOURS[index % len(COLOURS)]
        if stacked:
            axes.bar(x, values, width, bottom=bottom, label=name, color=colour)
            bottom = bottom + np.asarray(values, dtype=np.float64)
        else:
            offset = (index - (count - 1) / 2) * width
            axes.bar(x + offset, values, width, label=name, color=colour)
    axes.set_xticks(x, groups)
    axes.set_ylabel(ylabel)
    axes.legend(loc="best", fontsize="small")
    axes.grid(axis="y", alpha=0.3)
    return figure


def difference_dots(
    labels: Sequence[str],
    differences: Sequence[float],
    intervals: Sequence[tuple[float, float]],
    significant: Sequence[bool],
    *,
    xlabel: str,
) -> Figure:
    """Differences with horizontal interval bars, one row per label; significant ones red."""
    figure = _figure(7.0, max(2.5, 0.32 * len(labels) + 1.0))
    axes = figure.subplots()
    y = np.arange(len(labels))[::-1]
    for row, d, (low, high), flag in zip(y, differences, intervals, significant, strict=True):
        colour = RED if flag else BLUE
        if np.isfinite(d):
            axes.plot([low, high], [row, row], color=colour, linewidth=2)
            axes.plot([d], [row], "o", color=colour)
    axes.axvline(0.0, color=GREY, linestyle="--")
    axes.set_yticks(y, labels)
    axes.set_xlabel(xlabel)
    axes.grid(axis="x", alpha=0.3)
    return figure


def curve(
    xs: Sequence[float],
    rates: Sequence[float],
    intervals: Sequence[tuple[float, float]],
    *,
    fair: float,
    xlabel: str,
    ylabel: str,
    fair_label: str,
) -> Figure:
    """Points with vertical interval bars joined by a line, and a dashed line at ``fair``."""
    figure = _figure()
    axes = figure.subplots()
    order = np.argsort(np.asarray(xs, dtype=np.float64))
    x = np.asarray(xs, dtype=np.float64)[order]
    r = np.asarray(rates, dtype=np.float64)[order]
    low = np.asarray([i[0] for i in intervals])[order]
    high = np.asarray([i[1] for i in intervals])[order]
    axes.errorbar(x, r, yerr=[r - low, high - r], fmt="o-", color=BLUE, capsize=5)
    axes.axhline(fair, color=RED, linestyle="--", label=fair_label)
    axes.legend(loc="best")
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    axes.set_ylim(0, 1)
    axes.grid(alpha=0.3)
    return figure


def trace_lines(trace: np.ndarray, labels: Sequence[str], *, xlabel: str, ylabel: str) -> Figure:
    """The evaluation of every player along one game (``trace`` is ``(T + 1, players)``)."""
    figure = _figure()
    axes = figure.subplots()
    for player, label in enumerate(labels):
        axes.plot(trace[:, player], label=label, color=COLOURS[player % len(COLOURS)])
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    axes.set_ylim(-1.05, 1.05)
    axes.legend(loc="best", fontsize="small")
    axes.grid(alpha=0.3)
    return figure


def histograms(panels: Mapping[str, Sequence[float]], *, ylabel: str) -> Figure:
    """One small histogram per named series, side by side."""
    figure = _figure(3.0 * max(1, len(panels)), 2.8)
    axes_list = figure.subplots(1, max(1, len(panels)), squeeze=False)[0]
    for axes, (name, values) in zip(axes_list, panels.items(), strict=False):
        data = np.asarray([v for v in values if np.isfinite(v)], dtype=np.float64)
        axes.hist(data, bins=20, color=BLUE, alpha=0.8, edgecolor="white")
        axes.set_title(name, fontsize="medium")
        axes.yaxis.set_major_locator(MaxNLocator(integer=True))
        axes.grid(axis="y", alpha=0.3)
    axes_list[0].set_ylabel(ylabel)
    return figure
