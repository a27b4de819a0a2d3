"""A short summary of records: wins per seat and team with a 95 % Wilson interval, the mean
game length, the share of games stopped by the turn cap."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass

from splash.sim.counters import COLLAPSES
from splash.sim.runner import Record
from splash.sim.stats import Rate

WON_BY = ("pieces", "drops")
"""How a Splash! game is won: the last piece placed (T14) or the drops (T15)."""


@dataclass(frozen=True)
class Summary:
    """What a list of records comes to."""

    games: int
    first_seed: int
    last_seed: int
    seat_wins: tuple[Rate, ...]
    team_wins: tuple[Rate, ...]
    turn_cap: Rate
    stopped: Rate
    mean_turns: float
    sd_turns: float
    shortest: int
    longest: int
    mean_actions: float
    sd_actions: float
    mean_decisions: float
    sd_decisions: float
    won_by: dict[str, Rate]
    """Splash!: the wins by the last piece (``pieces``, T14) and by drops (``drops``, T15)
    (empty for a game without the ``won_by`` measure)."""
    per_game: dict[str, tuple[float, float]]
    """Splash!: the mean and standard deviation per game of ``falls`` (the tower brought
    down), ``spontaneous`` falls and pieces ``boxed`` at the end."""


def _int(value: object) -> int | None:
    return int(value) if isinstance(value, int) and not isinstance(value, bool) else None


def _mean_sd(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the sample standard deviation (0 for fewer than two values)."""
    total = len(values)
    mean = sum(values) / total if total else 0.0
    variance = sum((v - mean) ** 2 for v in values) / (total - 1) if total > 1 else 0.0
    return mean, math.sqrt(variance)


def summarise(
    records: Sequence[Record], *, seats: int, teams: int, measures: Sequence[str] = ()
) -> Summary:
    """The summary of ``records`` (at least one) of a game with ``seats`` seats in ``teams``
    teams, with the game's ``measures`` (:attr:`splash.sim.runner.SimulatedGame.measures`:
    ``won_by``, and the per-game means of ``falls``, ``spontaneous`` and ``boxed``)."""
    total = len(records)
    winners = [_int(r["winner"]) for r in records]
    winning_teams = [_int(r["winner_team"]) for r in records]
    turns = [float(_int(r["turns"]) or 0) for r in records]
    mean, sd = _mean_sd(turns)
    actions = _mean_sd([float(_int(r.get("actions")) or 0) for r in records])
    decisions = _mean_sd([float(_int(r.get("decisions")) or 0) for r in records])
    seeds = [_int(r["seed"]) or 0 for r in records]
    won_by = {
        how: Rate(sum(1 for r in records if r.get("won_by") == how), total)
        for how in WON_BY
        if "won_by" in measures
    }
    per_game: dict[str, tuple[float, float]] = {}
    if all("events" in r for r in records):
        events = [json.loads(str(r["events"])) for r in records]
        if "falls" in measures:
            per_game["falls"] = _mean_sd(
                [float(sum(e.get(k, 0) for k in COLLAPSES)) for e in events]
            )
        for column in ("spontaneous", "boxed"):
            if column in measures and all(column in r for r in records):
                per_game[column] = _mean_sd([float(_int(r[column]) or 0) for r in records])
    return Summary(
        games=total,
        first_seed=min(seeds, default=0),
        last_seed=max(seeds, default=0),
        seat_wins=tuple(Rate(winners.count(s), total) for s in range(seats)),
        team_wins=tuple(Rate(winning_teams.count(t), total) for t in range(teams)),
        turn_cap=Rate(sum(1 for r in records if r["turn_cap"] is True), total),
        stopped=Rate(sum(1 for r in records if r.get("stopped") is True), total),
        mean_turns=mean,
        sd_turns=sd,
        shortest=int(min(turns, default=0)),
        longest=int(max(turns, default=0)),
        mean_actions=actions[0],
        sd_actions=actions[1],
        mean_decisions=decisions[0],
        sd_decisions=decisions[1],
        won_by=won_by,
        per_game=per_game,
    )
