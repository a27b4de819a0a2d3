"""The first-seat advantage at each skill level, when the games read hold several.

A *level* is the bots of a game (the ``bots`` column: ``["greedy", "greedy"]``); results that
pool games of several (``splash report random.parquet greedy.parquet``, the runs of a tuning
run's levels) get one row per level, in the order the games come: the games, the first
team's edge with its 95 % Wilson interval, whether that interval lies inside the tolerance,
and the game length (team turns) with its t interval.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

from splash.core.i18n import Message, message
from splash.report.estimates import Estimate, estimate, games_table
from splash.report.html import Page
from splash.report.metric_ids import metric
from splash.report.results import Results


@dataclass(frozen=True)
class LevelEdge:
    """One level's games: its bots, the first-seat advantage and the game length."""

    bots: str
    """The bots of its seats: one spec when every seat plays it, else the specs joined."""
    edge: Estimate
    length: Estimate

    @property
    def games(self) -> int:
        """How many games it has."""
        return self.edge.games

    def within(self, delta: float) -> bool:
        """Whether the edge's 95 % interval lies inside ``±delta``."""
        return -delta <= self.edge.low and self.edge.high <= delta


def level_label(bots_json: str) -> str:
    """``greedy`` for ``["greedy", "greedy"]``; ``random,greedy`` for two bots."""
    bots = json.loads(bots_json)
    return str(bots[0]) if len(set(bots)) == 1 else ",".join(bots)


def level_edges(results: Results) -> list[LevelEdge]:
    """Each level's edge and length, in the order of their first game; empty when the
    games hold one level only (or do not say their bots)."""
    if "bots" not in results.frame.columns:
        return []
    column = results.frame["bots"]
    levels = list(dict.fromkeys(column))
    if len(levels) < 2:
        return []
    table = games_table(results)
    found = []
    for bots in levels:
        part = replace(table, frame=results.frame[column == bots])
        found.append(
            LevelEdge(
                level_label(bots),
                estimate(metric("first_seat_advantage"), part),
                estimate(metric("duration_turns"), part),
            )
        )
    return found


def _points(value: float) -> str:
    return f"{value * 100:+.1f}"


def level_line(level: LevelEdge, delta: float) -> Message:
    """``At level greedy (2900 games) the first-seat advantage is +11.0 points (95 %: +9.2
    to +12.8), outside ±3.``"""
    edge = level.edge
    parts = {
        "level": level.bots,
        "games": level.games,
        "value": _points(edge.value),
        "low": _points(edge.low),
        "high": _points(edge.high),
        "tolerance": f"{delta * 100:g}",
        "turns": f"{level.length.value:.1f}",
    }
    if level.within(delta):
        return message(
            "At level {level} ({games} games) the first-seat advantage is {value} points (95 %: "
            "{low} to {high}), inside ±{tolerance}; {turns} team turns a game.",
            **parts,
        )
    return message(
        "At level {level} ({games} games) the first-seat advantage is {value} points (95 %: "
        "{low} to {high}), outside ±{tolerance}; {turns} team turns a game.",
        **parts,
    )


def level_lines(results: Results, delta: float) -> list[Message]:
    """One :func:`level_line` per level (none for one level)."""
    return [level_line(level, delta) for level in level_edges(results)]


def levels_section(page: Page, results: Results, delta: float, *, heading: str = "") -> None:
    """The table of each level's edge and length (nothing for one level)."""
    found = level_edges(results)
    if not found:
        return
    title = message("First-seat advantage by level")
    section = page.section(f"{title} {heading}".strip(), anchor=f"levels{heading}".lower())
    section.table(
        [
            message("level (bots)"),
            message("games"),
            message("first-seat advantage, points (95 %)"),
            message("inside ±{tolerance}", tolerance=f"{delta * 100:g}"),
            message("team turns (95 %)"),
        ],
        [
            [
                level.bots,
                level.games,
                f"{_points(level.edge.value)} [{_points(level.edge.low)}, "
                f"{_points(level.edge.high)}]",
                str(message("yes") if level.within(delta) else message("no")),
                f"{level.length.value:.1f} [{level.length.low:.1f}, {level.length.high:.1f}]",
            ]
            for level in found
        ],
        caption=message(
            "The games read hold several levels of play (the bots of their seats): the first "
            "team's edge at each, with its Wilson interval."
        ),
    )
