"""Measuring a learned agent against the compiled greedy bot, on the compiled core.

:func:`versus_greedy` plays games ``0`` to ``games - 1`` of a fixed list of seeds
(:func:`match_seed`, never those of training): in game ``i`` the agent takes seat
``i % teams`` and the compiled greedy bot (:func:`splash.fast.greedy.greedy_action`, its
default settings) every other seat, so that over ``teams`` consecutive games the agent has
sat everywhere.  Chance is the core's own generator seeded from the game's seed; the greedy
bot's redraws from the game's seed and the decision's index.  At ply 1 the agent's decisions
of all the games are searched in one batch.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from splash.fast import kernel as k
from splash.fast.greedy import greedy_action, weight_array
from splash.fast.tables import Tables
from splash.learn.search import Search
from splash.learn.td import _Game, _rewards, _to_decision, _Work

MATCH_SEEDS = 0x5EED_E7A1
"""The seed of the evaluation games (:func:`match_seed`)."""


def match_seed(index: int) -> int:
    """The core's seed of evaluation game ``index``."""
    return int(np.random.SeedSequence([MATCH_SEEDS, index]).generate_state(1, np.uint64)[0] >> 2)


@dataclass(frozen=True)
class Match:
    """The agent's results: games won, games that reached the turn cap, games played."""

    wins: int
    draws: int
    games: int
    teams: int

    @property
    def rate(self) -> float:
        """The agent's share of the wins: a game reached at the turn cap counts as
        ``1 / teams`` of one."""
        return (self.wins + self.draws / self.teams) / self.games if self.games else 0.0

    def interval(self, z: float = 1.96) -> tuple[float, float]:
        """Wilson's interval of the share of wins (draws as halves) at ``z`` (95 %)."""
        n = self.games
        if n == 0:
            return (0.0, 1.0)
        p = self.rate
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return (float(centre - half), float(centre + half))


def versus_greedy(search: Search, games: int, *, ply: int = 1, first: int = 0) -> Match:
    """Play evaluation games ``first`` to ``first + games - 1`` (module docs)."""
    tables: Tables = search.fast.tables
    teams = int(tables.T[k.T_TEAMS])
    weights = weight_array(tables)
    work = _Work(tables)
    playing = [(first + i, _Game(tables, match_seed(first + i), 0)) for i in range(games)]
    wins = draws = 0
    steps = [0] * (first + games)
    while playing:
        ours: list[tuple[int, _Game]] = []
        for index, game in playing:
            while _to_decision(game, tables, work):
                seat = int(k.to_act(game.G))
                if seat == index % teams:
                    ours.append((index, game))
                    break
                steps[index] += 1
                action = greedy_action(tables, game.G, match_seed(index) ^ steps[index], weights)
                work.apply(tables, game.G, action)
            else:
                rewards = _rewards(game.G, teams)
                wins += int(rewards[index % teams] == 1.0)
                draws += int(0.0 < rewards[index % teams] < 1.0)
        playing = ours
        if not ours:
            break
        states = np.stack([game.G for _, game in ours])
        seats = np.array([index % teams for index, _ in ours], np.int64)
        if ply == 1:
            leaves = search.leaves(states, seats)
            actions = leaves.first[leaves.best()]
        else:
            actions = np.array([search.ply2(states[b], int(seats[b])) for b in range(len(ours))])
        for (_, game), action in zip(ours, actions, strict=True):
            work.apply(tables, game.G, int(action))
    return Match(wins, draws, games, teams)


__all__ = ["MATCH_SEEDS", "Match", "match_seed", "versus_greedy"]
