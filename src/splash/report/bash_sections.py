"""The Splash & Bash sections of the report: lanes, bumps and chains, falls and slips per
team, and the win rate of the teams that drew each card against those that did not."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from splash.core.i18n import Message, message
from splash.games.bash.board import TEAM_LETTERS
from splash.games.bash.config import LANES
from splash.report import plots
from splash.report.html import Page, format_number
from splash.report.power import two_proportion_observations
from splash.report.results import Results
from splash.report.verdicts import Quantity
from splash.sim.stats import NO_VALUE, difference_interval, percent, two_proportion_test

INCIDENTS: dict[str, Message] = {
    "bumps_made": message("bumps made"),
    "bumps_suffered": message("bumps suffered"),
    "chains": message("chains"),
    "pool_falls": message("pool falls"),
    "obstacle_hits": message("obstacle hits"),
}
"""The per-team counts shown as means per game, with their labels."""

LANE_LABELS: dict[str, Message] = {
    "outer": message("outer"),
    "centre": message("centre"),
    "high_tide": message("high tide"),
}

DECK_LABELS: dict[str, Message] = {
    "low_tide": message("low tide"),
    "high_tide": message("high tide"),
}


MIN_GROUP_SHARE = 0.05
"""Below this share of teams that never drew a card (or above its complement), the teams
that drew it more often than the other teams of their game are compared instead."""


@dataclass(frozen=True)
class CardEffect:
    """The win rate of the teams that drew a card against the others.

    ``split`` is ``"drew"`` (drew it at least once against never) or ``"more"`` (a larger share
    of the team's draws from that deck than the mean share of the other teams of the game,
    against as large or smaller).
    """

    deck: str
    card: str
    split: str
    wins_drew: int
    drew: int
    wins_not: int
    not_drew: int
    difference: float
    low: float
    high: float

    @property
    def significant(self) -> bool:
        """Whether the 95 % interval of the difference leaves out 0."""
        return bool(np.isfinite(self.difference)) and (self.low > 0 or self.high < 0)


def card_effects(frame: pd.DataFrame, decks: dict[str, list[str]], teams: int) -> list[CardEffect]:
    """For each card of each deck, over every (game, team): the win rate of the teams that
    drew it minus that of the teams that did not, with Newcombe's 95 % interval.

    When (almost) every team draws the card (fewer than :data:`MIN_GROUP_SHARE` of the teams
    never do, or more than all but that share), "drew it" means "the card was a larger share
    of the team's draws from its deck than the other teams' mean share in that game": the
    comparison stays within games, whose lengths differ, and within the deck, which the lanes
    a team runs choose.
    """
    won = np.stack(
        [np.asarray(frame["winner_team"].fillna(-1) == t, dtype=bool) for t in range(teams)],
        axis=1,
    )
    effects = []
    for deck, cards in decks.items():
        deck_total = np.zeros((len(frame), teams))
        for card in cards:
            for t in range(teams):
                name = f"drawn_{deck}_{card}_t{t}"
                if name in frame.columns:
                    deck_total[:, t] += np.asarray(frame[name], dtype=np.float64)
        for card in cards:
            names = [f"drawn_{deck}_{card}_t{t}" for t in range(teams)]
            if any(name not in frame.columns for name in names):
                continue
            counts = np.stack([np.asarray(frame[n], dtype=np.float64) for n in names], axis=1)
            never = float((counts == 0).mean())
            if MIN_GROUP_SHARE <= never <= 1.0 - MIN_GROUP_SHARE:
                split, drew = "drew", counts > 0
            else:
                share = np.divide(
                    counts, deck_total, out=np.zeros_like(counts), where=deck_total > 0
                )
                others = (share.sum(axis=1, keepdims=True) - share) / max(1, teams - 1)
                split, drew = "more", share > others
            a, n_a = int((won & drew).sum()), int(drew.sum())
            b, n_b = int((won & ~drew).sum()), int((~drew).sum())
            d, low, high = difference_interval(a, n_a, b, n_b)
            effects.append(CardEffect(deck, card, split, a, n_a, b, n_b, d, low, high))
    return effects


def _games_for(effect: CardEffect, teams: int) -> Callable[[float, float], int | None]:
    """The games at which the chi-square test of ``effect`` finds ``δ`` with 80 % power,
    the teams drawing the card in the same share as here and the others winning as here."""
    observations = effect.drew + effect.not_drew
    share = effect.drew / observations if observations else 0.0
    control = effect.wins_not / effect.not_drew if effect.not_drew else 0.0

    def games(delta: float, alpha: float) -> int | None:
        if not (0.0 < share < 1.0 and 0.0 < control < 1.0):
            return None
        needed = two_proportion_observations(control, delta, share, alpha=alpha)
        return math.ceil(needed / teams)

    return games


def card_tests(results: Results) -> list[Quantity]:
    """The effect of every card on the win rate (:func:`card_effects`), each with Pearson's
    chi-square test of the two win rates."""
    effects = card_effects(results.frame, _decks(results), results.seats)
    found = []
    for e in effects:
        drew = (
            message("the teams that drew it")
            if e.split == "drew"
            else message("the teams for which it was a larger share of their draws")
        )
        found.append(
            Quantity(
                message("Card {card} ({deck})", card=e.card, deck=DECK_LABELS.get(e.deck, e.deck)),
                message(
                    "{drew} won {wins} of {teams} ({rate}), the other teams {other_wins} of "
                    "{others} ({other_rate})",
                    drew=drew,
                    wins=e.wins_drew,
                    teams=e.drew,
                    rate=percent(e.wins_drew / e.drew) if e.drew else NO_VALUE,
                    other_wins=e.wins_not,
                    others=e.not_drew,
                    other_rate=percent(e.wins_not / e.not_drew) if e.not_drew else NO_VALUE,
                ),
                e.difference,
                e.low,
                e.high,
                two_proportion_test(e.wins_drew, e.drew, e.wins_not, e.not_drew),
                message("Pearson's chi-square test of the two win rates"),
                _games_for(e, results.seats),
            )
        )
    return found


def _decks(results: Results) -> dict[str, list[str]]:
    game = results.bash_game
    return {deck: list(spec.cards) for deck, spec in game.settings.decks.items()}


def _team(team: int) -> str:
    return str(message("team {team}", team=TEAM_LETTERS[team]))


def _per_game(frame: pd.DataFrame, name: str) -> float:
    return float(frame[name].mean()) if name in frame.columns else float("nan")


def bash_sections(page: Page, results: Results) -> None:
    """Every Splash & Bash section."""
    frame = results.frame
    teams = results.seats
    labels = [_team(t) for t in range(teams)]
    section = page.section(message("Lanes"), anchor="lanes")
    shares: dict[str, list[float]] = {}
    rows = []
    for team in range(teams):
        counts = [float(frame[f"lane_{lane}_t{team}"].sum()) for lane in LANES]
        total = sum(counts) or 1.0
        rows.append([labels[team], *(f"{100 * c / total:.1f} %" for c in counts)])
        for lane, count in zip(LANES, counts, strict=True):
            shares.setdefault(str(LANE_LABELS[lane]), []).append(count / total)
    section.paragraph(
        message("The share of each team's turns started in each lane (the active pawn's lane).")
    )
    section.table([message("team"), *(LANE_LABELS[lane] for lane in LANES)], rows)
    section.figure(
        plots.grouped_bars(labels, shares, ylabel=str(message("share of turns")), stacked=True),
        message("Lane use per team."),
    )
    section = page.section(message("Bumps, chains, falls and slips"), anchor="incidents")
    present = [name for name in INCIDENTS if f"{name}_t0" in frame.columns]
    section.paragraph(
        message(
            "Means per game and team: bumps made and suffered, chains (two bumps or more in a "
            "row, each bumped pawn bumping the next, B15) started by the team, falls into the "
            "pool and slips on obstacles."
        )
    )
    section.table(
        [message("team"), *(INCIDENTS[n] for n in present)],
        [[labels[t], *(_per_game(frame, f"{n}_t{t}") for n in present)] for t in range(teams)],
    )
    section.figure(
        plots.grouped_bars(
            [str(INCIDENTS[n]) for n in present],
            {labels[t]: [_per_game(frame, f"{n}_t{t}") for n in present] for t in range(teams)},
            ylabel=str(message("per game")),
        ),
        message("Incidents per game and team."),
    )
    if "longest_chain" in frame.columns:
        section.paragraph(
            message(
                "The longest chain: {longest} bumps; games with a chain: {share:.1f} %.",
                longest=int(frame["longest_chain"].max()),
                share=100 * float((frame["longest_chain"] >= 2).mean()),
            )
        )
    else:
        section.paragraph(
            message("Chains are not counted in this results file (an older version)."), note=True
        )
    _card_section(page, results)


def _card_section(page: Page, results: Results) -> None:
    effects = card_effects(results.frame, _decks(results), results.seats)
    section = page.section(message("Cards and winning"), anchor="cards")
    section.paragraph(
        message(
            "For each card, over every game and team: the win rate of the teams that drew it "
            "minus the win rate of those that did not, with a 95 % interval (Newcombe's hybrid "
            "score interval). When nearly every team draws a card (all but {share} % of them, "
            "or more), the comparison is between the teams for which the card was a larger "
            "share of their draws from its deck than for the other teams of their game, and the "
            "rest. Rows in red have an interval that leaves "
            "out 0. This is an association, not a cause, and with {count} cards about one in "
            "twenty will look significant by chance alone.",
            share=format_number(100 * MIN_GROUP_SHARE),
            count=len(effects),
        )
    )
    labels = [f"{e.deck}: {e.card}" for e in effects]
    section.table(
        [
            message("card"),
            message("compared"),
            message("teams that drew it"),
            message("their win rate"),
            message("teams that did not"),
            message("their win rate"),
            message("difference"),
            message("95 % interval"),
        ],
        [
            [
                label,
                str(
                    message("drew it / never")
                    if e.split == "drew"
                    else message("larger share of its deck / not")
                ),
                e.drew,
                e.wins_drew / e.drew if e.drew else None,
                e.not_drew,
                e.wins_not / e.not_drew if e.not_drew else None,
                e.difference if np.isfinite(e.difference) else None,
                f"{e.low:+.3f} … {e.high:+.3f}",
            ]
            for label, e in zip(labels, effects, strict=True)
        ],
        emphasis=[e.significant for e in effects],
    )
    if effects:
        section.figure(
            plots.difference_dots(
                labels,
                [e.difference for e in effects],
                [(e.low, e.high) for e in effects],
                [e.significant for e in effects],
                xlabel=str(message("win rate with the card - without")),
            ),
            message("Change in win rate when a team draws each card, with 95 % intervals."),
        )
