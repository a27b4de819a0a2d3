"""The Splash! sections of the report: falls by tower height, how games are won, and the
skill curve (win rate against the placer's steadiness)."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from splash.core.i18n import message
from splash.report import plots
from splash.report.html import Cell, Page
from splash.report.results import Results
from splash.sim.stats import Rate

HEIGHTS = (
    ("falls_height_0_4", "0-4"),
    ("falls_height_5_9", "5-9"),
    ("falls_height_10_14", "10-14"),
    ("falls_height_15_plus", "15+"),
)
"""The falls-by-height columns and their labels (pieces standing when the piece was placed)."""


@dataclass(frozen=True)
class SkillPoint:
    """The wins of the seats that played with one steadiness."""

    position_mm: float
    angle_deg: float
    height_mm: float
    rate: Rate


def skill_points(results: Results) -> list[SkillPoint]:
    """For each steadiness found among the seats of every game, the share of those seats'
    games won by their team (a seat alone without teams)."""
    wins: dict[tuple[float, float, float], list[int]] = {}
    frame = results.frame
    for options, winner in zip(frame["options"], frame["winner_team"], strict=True):
        game = results.tower_game(str(options))
        teams = game.options.team_seats()
        for team, seats in enumerate(teams):
            for seat in seats:
                s = game.options.steadiness_of(seat)
                key = (s.position_mm, s.angle_deg, s.height_mm)
                counts = wins.setdefault(key, [0, 0])
                counts[0] += int(not pd.isna(winner) and int(winner) == team)
                counts[1] += 1
    return [
        SkillPoint(key[0], key[1], key[2], Rate(count, total))
        for key, (count, total) in sorted(wins.items())
    ]


def tower_sections(page: Page, results: Results) -> None:
    """Every Splash! section."""
    frame = results.frame
    section = page.section(message("Falls by tower height"), anchor="falls")
    present = [(c, label) for c, label in HEIGHTS if c in frame.columns]
    totals = [float(frame[c].sum()) for c, _ in present]
    section.paragraph(
        message(
            "Collapses (a piece that fell or knocked the tower over, or a spontaneous collapse) "
            "by the number of pieces standing when the piece was placed, over {games} games.",
            games=results.games,
        )
    )
    all_falls = sum(totals) or 1.0
    section.table(
        [message("pieces standing"), message("collapses"), message("share"), message("per game")],
        [
            [label, int(t), f"{100 * t / all_falls:.1f} %", t / results.games]
            for (_, label), t in zip(present, totals, strict=True)
        ],
    )
    section.figure(
        plots.grouped_bars(
            [label for _, label in present],
            {str(message("collapses")): totals},
            ylabel=str(message("collapses")),
        ),
        message("Collapses by tower height."),
    )
    _per_seat(page, results)
    _won_by(page, results)
    _skill(page, results)


def _per_seat(page: Page, results: Results) -> None:
    frame = results.frame
    section = page.section(message("Placements per seat"), anchor="seats")
    rows: list[list[Cell]] = []
    for seat in range(results.seats):
        placed = int(frame[f"placements_s{seat}"].sum())
        falls = Rate(int(frame[f"falls_caused_s{seat}"].sum()), placed)
        rows.append(
            [
                str(message("seat {seat}", seat=seat)),
                placed,
                falls.count,
                falls.value if placed else None,
                falls.interval_percent(),
                float(frame[f"drops_s{seat}"].mean()),
            ]
        )
    section.table(
        [
            message("seat"),
            message("placements"),
            message("falls caused"),
            message("falls per placement"),
            message("95 % interval"),
            message("drops at the end (mean)"),
        ],
        rows,
    )


def _won_by(page: Page, results: Results) -> None:
    frame = results.frame
    section = page.section(message("How games are won"), anchor="won-by")
    won_by = frame["won_by"] if "won_by" in frame.columns else None
    kinds = [
        ("pieces", message("by pieces: a reserve emptied (T14)")),
        ("drops", message("by drops (T15)")),
    ]
    counts = [int((won_by == kind).sum()) if won_by is not None else 0 for kind, _ in kinds]
    none = results.games - sum(counts)
    labels = [str(text) for _, text in kinds] + [str(message("no winner"))]
    values = [*counts, none]
    section.table(
        [message("ending"), message("games"), message("share")],
        [
            [label, v, f"{100 * v / results.games:.1f} %"]
            for label, v in zip(labels, values, strict=True)
        ],
    )
    section.figure(
        plots.grouped_bars(
            labels,
            {str(message("games")): [float(v) for v in values]},
            ylabel=str(message("games")),
        ),
        message("Games won by pieces, by drops, or without a winner."),
    )


def _skill(page: Page, results: Results) -> None:
    section = page.section(message("Skill curve: win rate against steadiness"), anchor="skill")
    points = skill_points(results)
    teams = len(results.team_seats())
    section.paragraph(
        message(
            "Each seat's steadiness (the tremor of its hand, options.steadiness and "
            "options.seat_steadiness) against the share of its games its team won, with 95 % "
            "intervals; the x axis is the position tremor (mm). Give several results files "
            "(games at different steadiness) to draw a curve."
        )
    )
    section.table(
        [
            message("position (mm)"),
            message("angle (°)"),
            message("height (mm)"),
            message("seat-games"),
            message("wins"),
            message("win rate"),
            message("95 % interval"),
        ],
        [
            [
                p.position_mm,
                p.angle_deg,
                p.height_mm,
                p.rate.total,
                p.rate.count,
                p.rate.value,
                p.rate.interval_percent(),
            ]
            for p in points
        ],
    )
    if len(points) == 1:
        section.paragraph(
            message("Every seat played with the same steadiness: the curve is a single point.")
        )
    section.figure(
        plots.curve(
            [p.position_mm for p in points],
            [p.rate.value for p in points],
            [p.rate.interval for p in points],
            fair=1.0 / teams,
            xlabel=str(message("position tremor (mm, standard deviation)")),
            ylabel=str(message("win rate")),
            fair_label=str(message("fair share")),
        ),
        message("Win rate against steadiness."),
    )
