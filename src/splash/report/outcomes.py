"""Who wins: win rates per seat and team with intervals, the first seat's advantage, games
that end without a winner.  The computations are plain functions of counts (tested on
synthetic tables); :func:`outcome_section` puts them on the page."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.stats import binomtest

from splash.core.i18n import Message, message
from splash.report import plots
from splash.report.games import reported
from splash.report.html import Cell, Page, Section
from splash.report.power import one_proportion_games
from splash.report.results import Results
from splash.report.verdicts import Quantity
from splash.sim.stats import Rate, percent

ALPHA = 0.05
"""The significance level of the report's tests and the complement of its intervals."""


@dataclass(frozen=True)
class Advantage:
    """The first seat's (or team's) wins against its fair share, with an exact test."""

    rate: Rate
    fair: float
    p_value: float

    @property
    def significant(self) -> bool:
        """Whether the two-sided exact binomial test rejects the fair share at 5 %."""
        return self.p_value < ALPHA


def win_rates(winners: Sequence[int | None], players: int) -> list[Rate]:
    """The wins of each of ``players`` out of all the games (``None``: no winner)."""
    total = len(winners)
    counts = np.bincount([w for w in winners if w is not None], minlength=players)
    return [Rate(int(counts[p]), total) for p in range(players)]


def advantage(wins: int, games: int, fair: float) -> Advantage:
    """``wins`` out of ``games`` against the rate ``fair``: the two-sided exact binomial
    test (``scipy.stats.binomtest``)."""
    p_value = float(binomtest(wins, games, fair).pvalue) if games else 1.0
    return Advantage(Rate(wins, games), fair, p_value)


def _winners(frame: pd.DataFrame, column: str) -> list[int | None]:
    return [None if pd.isna(v) else int(v) for v in frame[column]]


def player_names(results: Results) -> list[str]:
    """The players of the Ludii metrics: teams (A, B, …) in Splash & Bash, seats in Splash!."""
    name = reported(results.game).player_name
    return [str(name(p)) for p in range(results.seats)]


def _rate_table(
    section: Section, labels: Sequence[str], rates: Sequence[Rate], fair: float
) -> None:
    section.table(
        [
            message("who"),
            message("wins"),
            message("games"),
            message("win rate"),
            message("95 % interval"),
            message("fair share"),
        ],
        [
            [label, r.count, r.total, r.percent(), r.interval_percent(), percent(fair)]
            for label, r in zip(labels, rates, strict=True)
        ],
    )


def outcome_section(page: Page, results: Results) -> None:
    """Win rates per seat and per team, the first seat's advantage, games without a winner."""
    frame = results.frame
    games = results.games
    seats = results.seats
    section = page.section(message("Who wins"), anchor="wins")
    names = player_names(results)
    rates = win_rates(_winners(frame, "winner"), seats)
    section.paragraph(
        message(
            "Win rate of each {who} over the {games} games, with its 95 % Wilson interval; the "
            "dashed line is the fair share, one game in {seats}.",
            who=reported(results.game).player,
            games=games,
            seats=seats,
        )
    )
    _rate_table(section, names, rates, 1.0 / seats)
    section.figure(
        plots.rate_bars(
            names,
            [r.value for r in rates],
            [r.interval for r in rates],
            fair=1.0 / seats,
            ylabel=str(message("win rate")),
            fair_label=str(message("fair share")),
        ),
        message(
            "Win rate per {who} with 95 % intervals.",
            who=reported(results.game).player,
        ),
    )
    teams = results.team_seats()
    if len(teams) < seats:
        team_rates = win_rates(_winners(frame, "winner_team"), len(teams))
        labels = [str(message("team {team}", team=t)) for t in range(len(teams))]
        section.paragraph(
            message(
                "Win rate of each team (its seats: {seats}).",
                seats="; ".join(
                    f"{label}: {', '.join(str(s) for s in team)}"
                    for label, team in zip(labels, teams, strict=True)
                ),
            )
        )
        _rate_table(section, labels, team_rates, 1.0 / len(teams))
        section.figure(
            plots.rate_bars(
                labels,
                [r.value for r in team_rates],
                [r.interval for r in team_rates],
                fair=1.0 / len(teams),
                ylabel=str(message("win rate")),
                fair_label=str(message("fair share")),
            ),
            message("Win rate per team with 95 % intervals."),
        )
    _first_seat(section, results, rates, teams)
    _no_winner(section, results)


def _first_seat(
    section: Section, results: Results, rates: Sequence[Rate], teams: Sequence[Sequence[int]]
) -> None:
    first = reported(results.game).first_player(results)
    seats = results.seats
    rows: list[tuple[Message, Advantage]] = [
        (
            message("first seat ({seat})", seat=player_names(results)[first]),
            advantage(rates[first].count, rates[first].total, 1.0 / seats),
        )
    ]
    if len(teams) < seats:
        team = next(t for t, members in enumerate(teams) if first in members)
        wins = sum(1 for w in _winners(results.frame, "winner_team") if w == team)
        rows.append(
            (
                message("first team ({team})", team=team),
                advantage(wins, results.games, 1.0 / len(teams)),
            )
        )
    section.paragraph(
        message(
            "First-seat advantage: the win rate of whoever moves first against the fair share, "
            "with the p-value of the two-sided exact binomial test (significant below 0.05)."
        )
    )
    section.table(
        [
            message("who"),
            message("win rate"),
            message("95 % interval"),
            message("fair share"),
            message("difference"),
            message("p-value"),
        ],
        [
            [
                str(label),
                a.rate.percent(),
                a.rate.interval_percent(),
                percent(a.fair),
                percent(a.rate.value - a.fair),
                f"{a.p_value:.3g}",
            ]
            for label, a in rows
        ],
        emphasis=[a.significant for _, a in rows],
    )


def _no_winner(section: Section, results: Results) -> None:
    frame = results.frame
    games = results.games
    capped = Rate(int(frame["turn_cap"].fillna(False).astype(bool).sum()), games)
    none = Rate(int(frame["winner_team"].isna().sum()), games)
    rows: list[list[Cell]] = [
        [str(message("turn cap hit")), capped.count, capped.percent(), capped.interval_percent()],
        [str(message("no winner")), none.count, none.percent(), none.interval_percent()],
    ]
    if "stopped" in frame.columns:
        stopped = Rate(int(frame["stopped"].fillna(False).astype(bool).sum()), games)
        rows.append(
            [
                str(message("stopped: no pose of a gift accepted (T06)")),
                stopped.count,
                stopped.percent(),
                stopped.interval_percent(),
            ]
        )
    section.paragraph(message("Games that did not end with a winner."))
    section.table(
        [message("games"), message("count"), message("share"), message("95 % interval")], rows
    )


def _rate_tested(label: Message, who: str, wins: int, games: int, fair: float) -> Quantity:
    """A win rate against its fair share: the exact binomial test, the Wilson interval."""
    found = advantage(wins, games, fair)
    low, high = found.rate.interval
    return Quantity(
        label,
        message(
            "{who} won {wins} of the {games} games ({rate}) against a fair share of {fair}",
            who=who,
            wins=wins,
            games=games,
            rate=found.rate.percent(),
            fair=percent(fair),
        ),
        found.rate.value - fair,
        low - fair,
        high - fair,
        found.p_value,
        message("two-sided exact binomial test"),
        lambda delta, alpha: one_proportion_games(fair, delta, alpha=alpha),
    )


def outcome_tests(results: Results) -> list[Quantity]:
    """The first-seat advantage (the first team's win rate against its fair share), and with
    more than two teams every other team's win rate against its fair share."""
    teams = results.team_seats()
    first_seat = reported(results.game).first_player(results)
    first = next(t for t, members in enumerate(teams) if first_seat in members)
    winners = _winners(results.frame, "winner_team")
    rates = win_rates(winners, len(teams))
    names = team_names(results)
    fair = 1.0 / len(teams)
    found = [
        _rate_tested(
            message("First-seat advantage ({who})", who=names[first]),
            names[first],
            rates[first].count,
            results.games,
            fair,
        )
    ]
    if len(teams) > 2:
        found += [
            _rate_tested(
                message("Win rate of {who}", who=names[t]),
                names[t],
                rates[t].count,
                results.games,
                fair,
            )
            for t in range(len(teams))
            if t != first
        ]
    return found


def team_names(results: Results) -> list[str]:
    """The names of the teams: the players' names when every seat plays alone."""
    teams = results.team_seats()
    if len(teams) == results.seats:
        return player_names(results)
    return [str(message("team {team}", team=t)) for t in range(len(teams))]
