"""Search on the compiled core: ISMCTS at 1,000 iterations, reference against compiled.

Measured in one run, 2 teams, default options, warm compile cache, one core:

- seconds a decision of the reference ISMCTS (``ismcts:iterations=1000``) and of the
  compiled one (``ismcts:engine=fast,iterations=1000``) over the same positions (decisions
  with two legal actions or more of seeded random games), and the ratio;
- greedy decisions per second, compiled (in greedy-against-greedy games) and reference;
- compiled greedy-against-greedy games per second (as ``bench/bash_greedy.py`` measures);
- the vector environment's agent steps per second (B = 256, random and greedy opponents)
  beside the PettingZoo environment's (``bench/bash_vec.py``);
- seconds a decision of the strong level the README's ladder measures against expectimax
  (``--strong``, over the same positions; not in the last line).

The last line is the figures in order, ``key=value`` separated by spaces, exactly::

    ismcts_1000_s=X ismcts_speedup=Y greedy_games_per_s=H vec_steps_per_s=V vec_greedy_steps_per_s=W

    python bench/bash_search.py
"""

from __future__ import annotations

import argparse
import random
import time

from bash_vec import vec_figures
from splash.bots import make_bot
from splash.bots.bash_greedy import GreedyBashBot
from splash.bots.fast_ismcts import FastIsmctsBot
from splash.bots.ismcts import IsmctsBot
from splash.core.play import Agent
from splash.fast import kernel as k
from splash.fast.batch import play_games
from splash.fast.greedy import policies, weight_array
from splash.fast.tables import Tables, build_tables
from splash.games.bash import BashGame, BashState

STRONG = "ismcts:engine=fast,iterations=5000,rollout=greedy,evaluation=greedy,max_depth=24"


def positions(game: BashGame, count: int, seed: int) -> list[BashState]:
    """``count`` decisions with two legal actions or more, from seeded random games."""
    from splash.bots.bash_clone import quick_clone

    found: list[BashState] = []
    rng = random.Random(seed)
    while len(found) < count:
        state = game.new_initial_state()
        steps = 0
        while not state.over and len(found) < count:
            legal = state.legal_actions()
            if state.to_act() >= 0 and len(legal) > 1 and steps % 37 == 0:
                clone = quick_clone(state)
                assert isinstance(clone, BashState)
                found.append(clone)
            state.apply_legal(rng.choice(legal))
            steps += 1
    return found


def seconds_a_decision(bot: Agent, states: list[BashState]) -> float:
    """Mean seconds of ``bot.act`` over ``states`` (after one warm-up decision)."""
    bot.act(states[0])
    start = time.perf_counter()
    for state in states:
        bot.act(state)
    return (time.perf_counter() - start) / len(states)


def greedy_games(tables: Tables, games: int) -> tuple[float, float]:
    """Compiled greedy-against-greedy games/s and greedy decisions/s (after a warm-up)."""
    weights = weight_array(tables)
    both = policies(2, [0, 1])
    play_games(tables, [0], policies=both, weights=weights)
    start = time.perf_counter()
    result = play_games(tables, range(1, games + 1), policies=both, weights=weights)
    took = time.perf_counter() - start
    decisions = float(result.counts[:, k.C_DECISIONS].sum())
    return games / took, decisions / took


def figures(args: argparse.Namespace) -> dict[str, str]:
    """The bench's figures, printed in order on the last line (others append theirs)."""
    game = BashGame()
    tables = build_tables(game)
    states = positions(game, args.positions, args.seed)
    reference = seconds_a_decision(IsmctsBot(1, iterations=1000), states[: args.reference])
    compiled = seconds_a_decision(FastIsmctsBot(1, iterations=1000), states[: args.reference])
    compiled_all = seconds_a_decision(FastIsmctsBot(1, iterations=1000), states)
    print(
        f"reference ismcts:iterations=1000: {reference:.3f} s a decision ({args.reference} positions)"
    )
    print(
        f"compiled ismcts:engine=fast,iterations=1000: {compiled:.4f} s a decision (same positions)"
    )
    print(f"compiled, {len(states)} positions: {compiled_all:.4f} s a decision")
    games_s, decisions_s = greedy_games(tables, args.games)
    greedy_ref = seconds_a_decision(GreedyBashBot(1), states)
    print(f"greedy decisions/s: compiled {decisions_s:.0f}, reference {1 / greedy_ref:.0f}")
    print(f"compiled greedy-against-greedy games/s: {games_s:.0f}")
    if args.strong:
        strong = seconds_a_decision(make_bot(args.strong, 1, game="bash"), states)
        print(f"{args.strong}: {strong:.4f} s a decision ({len(states)} positions)")
    return {
        "ismcts_1000_s": f"{compiled_all:.4f}",
        "ismcts_speedup": f"{reference / compiled:.0f}",
        "greedy_games_per_s": f"{games_s:.0f}",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--positions", type=int, default=60, help="positions of the compiled search"
    )
    parser.add_argument(
        "--reference", type=int, default=8, help="of them, searched by the reference"
    )
    parser.add_argument("--games", type=int, default=500, help="compiled greedy games")
    parser.add_argument("--seed", type=int, default=1, help="seed of the positions' games")
    parser.add_argument(
        "--strong",
        default=STRONG,
        help="a bot spec whose seconds a decision are measured too ('' for none)",
    )
    parser.add_argument(
        "--vec-seconds", type=float, default=3.0, help="seconds each vector figure is measured"
    )
    args = parser.parse_args()
    found = figures(args)
    vec = vec_figures(args.vec_seconds)
    print(
        f"agent steps/s: vector (B = 256) random opponents {vec.vec_steps_per_s:.0f}, "
        f"greedy opponents {vec.vec_greedy_steps_per_s:.0f}; "
        f"PettingZoo {vec.pettingzoo_steps_per_s:.0f}"
    )
    found["vec_steps_per_s"] = f"{vec.vec_steps_per_s:.0f}"
    found["vec_greedy_steps_per_s"] = f"{vec.vec_greedy_steps_per_s:.0f}"
    print(" ".join(f"{key}={value}" for key, value in found.items()))


if __name__ == "__main__":
    main()
