"""The compiled greedy bot: its speed, and a match against the reference greedy bot.

Measured in one run, 2 teams, default options, warm compile cache, one core:

- greedy-against-greedy games/s of the compiled core (records not built), beside its
  random-against-random games/s (the baseline of the same run);
- the reference greedy's time per game against itself (a few games);
- a match, compiled greedy against the reference greedy, seats swapped every game, on the
  reference engine (the compiled side converts the state at each of its decisions): the
  compiled side's win rate and its 95 % Wilson interval (draws at the turn cap count half).

The last line is exactly::

    greedy_games_per_s=H random_games_per_s=R match_games=N compiled_win_rate=P ci_low=L ci_high=U

    python bench/bash_greedy.py
    python bench/bash_greedy.py --match 1000
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from splash.bots.bash_greedy import GreedyBashBot
from splash.core.outcomes import RandomOutcomes
from splash.fast.batch import play_games
from splash.fast.convert import to_arrays
from splash.fast.greedy import greedy_action, policies, weight_array
from splash.fast.tables import Tables, build_tables
from splash.games.bash import BashGame
from splash.sim.stats import wilson


def games_per_s(tables: Tables, games: int, greedy: list[int]) -> float:
    """Games/s of the compiled core with ``greedy`` teams greedy (after one warm-up game)."""
    weights = weight_array(tables)
    teams = policies(2, greedy)
    play_games(tables, [0], policies=teams, weights=weights)
    start = time.perf_counter()
    play_games(tables, range(1, games + 1), policies=teams, weights=weights)
    return games / (time.perf_counter() - start)


def match_game(tables: Tables, seed: int, compiled_seat: int) -> float:
    """One game on the reference engine: the compiled greedy in ``compiled_seat``, the
    reference greedy in the other; the compiled side's score (1 win, 0.5 draw, 0 loss)."""
    state = tables.game.new_initial_state()
    space = tables.game.action_space
    chance = RandomOutcomes(seed)
    reference = GreedyBashBot(seed + 1)
    decision = 0
    while not state.over:
        seat = state.to_act()
        if seat < 0:
            state.apply(chance.outcome(state))
        elif seat == compiled_seat:
            decision += 1
            action = greedy_action(tables, to_arrays(tables, state), seed * 100_003 + decision)
            state.apply(space[action])
        else:
            state.apply(reference.act(state))
    winner = state.board.winner
    if winner is None:
        return 0.5
    return 1.0 if winner == compiled_seat else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="compiled games per figure")
    parser.add_argument("--match", type=int, default=100, help="games of the match")
    parser.add_argument("--seed", type=int, default=1, help="first seed of the match")
    args = parser.parse_args()
    tables = build_tables(BashGame())

    greedy = games_per_s(tables, args.games, [0, 1])
    random = games_per_s(tables, args.games, [])
    print(f"compiled core, one core: greedy vs greedy {greedy:,.0f} games/s")
    print(f"compiled core, one core: random vs random {random:,.0f} games/s (baseline)")

    start = time.perf_counter()
    scores: list[float] = []
    for i in range(args.match):
        scores.append(match_game(tables, args.seed + i, i % 2))
        if i == 1:
            per_game = (time.perf_counter() - start) / 2
            print(f"match: {per_game:.2f} s a game, {per_game * 1000 / 60:.0f} min for 1,000")
    elapsed = time.perf_counter() - start
    n = len(scores)
    total = float(np.sum(scores))
    wins = round(total)
    low, high = wilson(wins, n)
    rate = total / n if n else 0.0
    print(f"match: {n} games in {elapsed:.0f} s, seats swapped; compiled greedy scores {total}")
    print(f"compiled greedy's win rate {rate:.3f}, 95 % interval [{low:.3f}, {high:.3f}]")
    print(
        f"greedy_games_per_s={greedy:.0f} random_games_per_s={random:.0f} match_games={n} "
        f"compiled_win_rate={rate:.4f} ci_low={low:.4f} ci_high={high:.4f}"
    )


if __name__ == "__main__":
    main()
