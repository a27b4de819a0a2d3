"""The learned agent (``td``, the shipped one unless ``--agent``) against the hand-made levels.

Measured in one run, 2 teams, default options, warm compile cache:

- ``vs_greedy``: games won at ply 1 against the compiled greedy bot, on the compiled core
  (:func:`splash.learn.evaluate.versus_greedy`: fixed evaluation seeds, seats swapped), in
  ``--workers`` processes;
- ``vs_expectimax``: games won at ply 2 against ``expectimax`` on the reference engine
  (``td:ply=2`` and ``expectimax`` through :func:`splash.bots.make_bot`, seats swapped, the
  chance of game ``i`` seeded with ``i``), in ``--workers`` processes;
- ``ply1_ms``, ``ply2_ms``: the median milliseconds of a decision on one core (the decisions
  of two games of the agent against itself, warm);
- ``train_games_per_s``: games of self-play a second of :func:`splash.learn.td.train` in one
  process (32 games, the default settings).

The last line is the figures in order, ``key=value`` separated by spaces, exactly::

    vs_greedy=W/N vs_expectimax=W2/N2 ply1_ms=T1 ply2_ms=T2 train_games_per_s=G

    python bench/td_agent.py                     # 400 and 200 games, 2 processes
    python bench/td_agent.py --greedy-games 40 --expectimax-games 4
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from splash.bots import make_bot
from splash.core import RandomOutcomes
from splash.core.play import play
from splash.fast import kernel as k
from splash.fast.afterstate import FastAfterstates
from splash.fast.tables import build_tables
from splash.games.bash import BashGame, BashState
from splash.learn.agent import AgentFile, read_agent, shipped_agent
from splash.learn.evaluate import versus_greedy
from splash.learn.search import Search
from splash.learn.td import _Game, _to_decision, _Work, train


def _agent(path: str | None) -> AgentFile:
    return shipped_agent() if path is None else read_agent(Path(path))


def _search(path: str | None) -> Search:
    return Search(FastAfterstates(build_tables(BashGame())), _agent(path).net)


def _greedy_share(path: str | None, first: int, games: int) -> int:
    return versus_greedy(_search(path), games, first=first).wins


def _expectimax_game(path: str | None, index: int) -> bool:
    """Whether ``td:ply=2`` wins game ``index`` against ``expectimax`` (seat ``index % 2``)."""
    spec = "td:ply=2" if path is None else f"td:path={path},ply=2"
    td = make_bot(spec, index, game="bash")
    other = make_bot("expectimax", index, game="bash")
    agents = [td, other] if index % 2 == 0 else [other, td]
    state = play(BashGame().new_initial_state(), agents, RandomOutcomes(index), trusted=True)
    assert isinstance(state, BashState)
    return state.board.winner == index % 2


def decision_ms(path: str | None) -> tuple[float, float]:
    """The median milliseconds of a ply-1 and of a ply-2 decision (module docs)."""
    search = _search(path)
    tables = search.fast.tables
    work = _Work(tables)
    positions = []
    for seed in (101, 102):
        game = _Game(tables, seed, 0)
        while _to_decision(game, tables, work):
            seat = int(k.to_act(game.G))
            positions.append((game.G.copy(), seat))
            work.apply(tables, game.G, search.ply1(game.G, seat))
    for state, seat in positions[:10]:
        search.ply2(state, seat)
    times: tuple[list[float], list[float]] = ([], [])
    for state, seat in positions:
        for ply, found in ((search.ply1, times[0]), (search.ply2, times[1])):
            start = time.perf_counter()
            ply(state, seat)
            found.append(time.perf_counter() - start)
    return 1e3 * float(np.median(times[0])), 1e3 * float(np.median(times[1]))


def train_rate() -> float:
    """Games a second of self-play in one process (after a warm-up game)."""
    tables = build_tables(BashGame())
    train(tables, 1, 0)
    start = time.perf_counter()
    train(tables, 32, 1)
    return 32 / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default=None, help="an agent file (default: the shipped)")
    parser.add_argument("--greedy-games", type=int, default=400)
    parser.add_argument("--expectimax-games", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    path = args.agent
    with ProcessPoolExecutor(args.workers) as pool:
        share = -(-args.greedy_games // args.workers)
        parts = [
            pool.submit(_greedy_share, path, first, min(share, args.greedy_games - first))
            for first in range(0, args.greedy_games, share)
        ]
        vs_greedy = sum(part.result() for part in parts)
        won = list(
            pool.map(_expectimax_game, [path] * args.expectimax_games, range(args.expectimax_games))
        )
    vs_expectimax = sum(won)
    print(f"td ply 1 against greedy (compiled core): {vs_greedy} of {args.greedy_games}")
    print(f"td ply 2 against expectimax (reference): {vs_expectimax} of {args.expectimax_games}")
    ply1, ply2 = decision_ms(path)
    rate = train_rate()
    print(
        f"vs_greedy={vs_greedy}/{args.greedy_games} "
        f"vs_expectimax={vs_expectimax}/{args.expectimax_games} "
        f"ply1_ms={ply1:.3f} ply2_ms={ply2:.3f} train_games_per_s={rate:.2f}"
    )


if __name__ == "__main__":
    main()
