"""OpenSpiel's MCTS against one of the project's bots, on Splash & Bash.

    python examples/openspiel_mcts_vs_bots.py --games 4 --simulations 20 --bot greedy

MCTS searches the true state, every hand included: it is a perfect-information baseline,
not a fair player (see docs/openspiel.md).  The two sides swap seats from one game to the
next.  By default the course is short (one lap of 12, 10 and 8 squares) so that the run
takes about a minute; ``--set KEY=VALUE`` changes any parameter (``--set board.laps=2``).
"""

from __future__ import annotations

import argparse
import tomllib

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from splash.bots import make_bot
from splash.core.i18n import message
from splash.envs.openspiel import BASH, register_games
from splash.envs.openspiel.match import AgentBot, play_game
from splash.envs.openspiel.params import ParamValue

SHORT_COURSE: dict[str, ParamValue] = {
    "board.laps": 1,
    "board.lanes.outer": 12,
    "board.lanes.centre": 10,
    "board.lanes.high_tide": 8,
}


def parse_set(text: str) -> tuple[str, ParamValue]:
    """``KEY=VALUE`` with the value read as TOML (``36``, ``0.5``, ``permanent``)."""
    key, sep, raw = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(message("expected KEY=VALUE").render())
    value: ParamValue
    try:
        value = tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        value = raw
    return key.strip(), value


def arguments(argv: list[str] | None) -> argparse.Namespace:
    """The command line's arguments."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--games", type=int, default=4, help=message("games to play (default 4)").render()
    )
    parser.add_argument(
        "--simulations",
        type=int,
        default=20,
        help=message("MCTS simulations a move (default 20)").render(),
    )
    parser.add_argument(
        "--seed", type=int, default=0, help=message("seed of everything (default 0)").render()
    )
    parser.add_argument(
        "--bot", default="greedy", help=message("the project's bot spec (default greedy)").render()
    )
    parser.add_argument(
        "--set",
        dest="settings",
        type=parse_set,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help=message("a game parameter (repeatable)").render(),
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Play the games and print each result, then the score."""
    args = arguments(argv)
    register_games()
    game = pyspiel.load_game(BASH, {**SHORT_COURSE, **dict(args.settings)})
    seeds = np.random.SeedSequence(args.seed).spawn(args.games)
    wins = 0
    for index, seed in enumerate(seeds):
        mcts_seed, bot_seed, chance_seed = seed.spawn(3)
        rng = np.random.RandomState(mcts_seed.generate_state(1)[0])
        searcher = mcts.MCTSBot(
            game, 2.0, args.simulations, mcts.RandomRolloutEvaluator(1, rng), random_state=rng
        )
        opponent = AgentBot(make_bot(args.bot, bot_seed))
        mcts_seat = index % 2
        bots = [searcher, opponent] if mcts_seat == 0 else [opponent, searcher]
        state = game.new_initial_state()
        returns = play_game(state, bots, chance_seed)
        won = returns[mcts_seat] > 0
        wins += won
        print(
            message(
                "game {number}: MCTS (seat {seat}) {result} against {bot}, {actions} actions",
                number=index + 1,
                seat="AB"[mcts_seat],
                result=message("won") if won else message("lost"),
                bot=args.bot,
                actions=len(state.history()),
            ).render()
        )
    print(
        message(
            "MCTS ({simulations} simulations a move) won {wins} of {games} against {bot}",
            simulations=args.simulations,
            wins=wins,
            games=args.games,
            bot=args.bot,
        ).render()
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
