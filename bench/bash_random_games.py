"""How fast the Splash & Bash engine plays random-bot games, beside OpenSpiel's ``maedn``.

On one core, this measures two figures for the Splash & Bash engine:

- random-bot games per second: every seat chooses uniformly among its legal actions, and
  a seeded :class:`~splash.core.RandomOutcomes` supplies every chance outcome;
- engine transitions per second: actions applied, chance outcomes included.

When OpenSpiel is installed (``import pyspiel`` succeeds), the same run measures the same
two figures for OpenSpiel's ``maedn`` (Mensch ärgere Dich nicht, a dice race with
knock-backs written in C++), driven by the same kind of Python random-playout loop, and
prints the ratios splash / maedn.  Without OpenSpiel it says so and prints the Splash & Bash
figures alone.

Each figure is the median of 3 timed repetitions of the same games (the same seeds), after
one untimed warm-up over the first few games; the repetitions alternate between the two
engines so that drift in the machine's speed affects both alike.

Run it from the repository root::

    python bench/bash_random_games.py
    python bench/bash_random_games.py --games 50 --teams 4 --seed 7 --maedn-games 500
"""

from __future__ import annotations

import os

# One core: the thread pools of numpy's linear algebra libraries are sized when numpy is
# first imported, so these must be set before it is (splash imports numpy too).
for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_variable] = "1"

import argparse  # noqa: E402
import gc  # noqa: E402
import importlib  # noqa: E402
import platform  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable, Sequence  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from importlib import metadata  # noqa: E402
from types import ModuleType  # noqa: E402
from typing import Protocol  # noqa: E402

import numpy as np  # noqa: E402

from splash.core import CHANCE, ConfigError, RandomOutcomes  # noqa: E402
from splash.games.bash import BashGame  # noqa: E402

REPETITIONS = 3
"""Timed repetitions per engine; the median is reported."""
WARM_UP_GAMES = 10
"""Games in the untimed warm-up (fewer when fewer are asked for)."""


@dataclass(frozen=True)
class Figures:
    """One engine's measurement: what was played and the median time it took."""

    games: int
    transitions: int
    seconds: float

    @property
    def games_per_second(self) -> float:
        """Games played per second."""
        return self.games / self.seconds

    @property
    def transitions_per_second(self) -> float:
        """Actions applied per second, chance outcomes included."""
        return self.transitions / self.seconds


def seed_sequence(seed: int, game_index: int, stream: int) -> np.random.SeedSequence:
    """The seed of one stream (0: chance, 1: decisions) of one game; the same every time."""
    return np.random.SeedSequence(seed, spawn_key=(game_index, stream))


def play_bash_games(game: BashGame, seed: int, games: int, *, trusted: bool = False) -> int:
    """Play ``games`` random-bot games of Splash & Bash; return the transitions applied
    (``trusted``: through ``apply_legal``, which does not check the action again)."""
    transitions = 0
    for index in range(games):
        state = game.new_initial_state()
        outcomes = RandomOutcomes(seed_sequence(seed, index, 0))
        rng = np.random.default_rng(seed_sequence(seed, index, 1))
        while not state.is_terminal():
            if state.to_act() == CHANCE:
                action = outcomes.outcome(state)
            else:
                legal = state.legal_actions()
                action = legal[int(rng.integers(len(legal)))]
            if trusted:
                state.apply_legal(action)
            else:
                state.apply(action)
            transitions += 1
    return transitions


def sample_outcome(outcomes: Sequence[tuple[int, float]], u: float) -> int:
    """The outcome that ``u`` in [0, 1) selects, walking the cumulative probabilities."""
    threshold = u * sum(probability for _, probability in outcomes)
    running = 0.0
    for action, probability in outcomes:
        running += probability
        if threshold < running:
            return action
    return outcomes[-1][0]


class SpielState(Protocol):
    """What the playout loop calls on a ``pyspiel.State``."""

    def is_terminal(self) -> bool: ...
    def is_chance_node(self) -> bool: ...
    def chance_outcomes(self) -> list[tuple[int, float]]: ...
    def legal_actions(self) -> list[int]: ...
    def apply_action(self, action: int) -> None: ...


class SpielGame(Protocol):
    """What the playout loop calls on a ``pyspiel.Game``."""

    def new_initial_state(self) -> SpielState: ...


def play_maedn_games(game: SpielGame, seed: int, games: int) -> int:
    """Play ``games`` random-bot games of OpenSpiel's ``maedn``; return the transitions."""
    transitions = 0
    for index in range(games):
        state = game.new_initial_state()
        chance_rng = np.random.default_rng(seed_sequence(seed, index, 0))
        rng = np.random.default_rng(seed_sequence(seed, index, 1))
        while not state.is_terminal():
            if state.is_chance_node():
                action = sample_outcome(state.chance_outcomes(), float(chance_rng.random()))
            else:
                legal = state.legal_actions()
                action = legal[int(rng.integers(len(legal)))]
            state.apply_action(action)
            transitions += 1
    return transitions


def time_once(play: Callable[[int], int], games: int) -> tuple[int, float]:
    """Play ``games`` games once; return the transitions and the seconds it took."""
    gc.collect()
    start = time.perf_counter()
    transitions = play(games)
    return transitions, time.perf_counter() - start


def pin_to_one_cpu() -> int | None:
    """Pin this process to one of the CPUs it may use; return that CPU, or ``None``."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    try:
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
    except OSError:
        return None
    return cpu


def load_pyspiel() -> ModuleType | None:
    """The ``pyspiel`` module, or ``None`` when OpenSpiel is not installed."""
    try:
        return importlib.import_module("pyspiel")
    except ImportError:
        return None


def package_version(name: str) -> str:
    """The installed version of a distribution, or ``?``."""
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "?"


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line's options."""
    parser = argparse.ArgumentParser(
        description=(
            "Random-bot games and engine transitions per second on one core, for Splash & "
            "Bash and (when OpenSpiel is installed) OpenSpiel's maedn."
        )
    )
    parser.add_argument(
        "--games", type=int, default=200, help="Splash & Bash games per repetition (200)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of every game's streams (0)")
    parser.add_argument("--teams", type=int, default=2, help="Splash & Bash teams, 2 to 4 (2)")
    parser.add_argument(
        "--maedn-games", type=int, default=200, help="maedn games per repetition (200)"
    )
    arguments = parser.parse_args(argv)
    if arguments.games < 1:
        parser.error("--games must be at least 1")
    if arguments.maedn_games < 1:
        parser.error("--maedn-games must be at least 1")
    if arguments.seed < 0:
        parser.error("--seed must not be negative")
    return arguments


def format_row(name: str, figures: Figures) -> str:
    """One line of the table."""
    return (
        f"{name:<28} {figures.games:>7} {figures.transitions:>12} {figures.seconds:>9.3f} "
        f"{figures.games_per_second:>10.2f} {figures.transitions_per_second:>14.0f}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Measure, print the table; return the exit code."""
    arguments = parse_arguments(argv)
    cpu = pin_to_one_cpu()
    pyspiel = load_pyspiel()

    try:
        bash_game = BashGame.from_settings([("options.teams", arguments.teams)])
    except ConfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    seed = arguments.seed
    engines: dict[str, tuple[int, Callable[[int], int]]] = {
        f"Splash & Bash ({arguments.teams} teams)": (
            arguments.games,
            lambda games: play_bash_games(bash_game, seed, games),
        )
    }
    if pyspiel is not None:
        maedn = pyspiel.load_game("maedn")
        engines[f"maedn ({maedn.num_players()} players)"] = (
            arguments.maedn_games,
            lambda games: play_maedn_games(maedn, seed, games),
        )

    print(
        f"Python {platform.python_version()}, numpy {np.__version__}, "
        f"open_spiel {package_version('open_spiel') if pyspiel is not None else '-'}"
    )
    print(
        f"one core: {'CPU ' + str(cpu) if cpu is not None else 'not pinned (no affinity)'}; "
        f"seed {seed}; median of {REPETITIONS} repetitions after a warm-up"
    )
    if pyspiel is None:
        print("OpenSpiel is not installed (import pyspiel failed): Splash & Bash figures only.")
    print()

    for games, play in engines.values():
        play(min(games, WARM_UP_GAMES))
    timings: dict[str, list[tuple[int, float]]] = {name: [] for name in engines}
    for _ in range(REPETITIONS):
        for name, (games, play) in engines.items():
            timings[name].append(time_once(play, games))

    results: dict[str, Figures] = {}
    for name, (games, _play) in engines.items():
        counts = {transitions for transitions, _ in timings[name]}
        if len(counts) != 1:
            print(f"error: {name} played differently across repetitions", file=sys.stderr)
            return 1
        seconds = statistics.median(elapsed for _, elapsed in timings[name])
        results[name] = Figures(games, counts.pop(), seconds)

    print(
        f"{'engine':<28} {'games':>7} {'transitions':>12} {'seconds':>9} "
        f"{'games/s':>10} {'transitions/s':>14}"
    )
    for name, figures in results.items():
        print(format_row(name, figures))
    if len(results) == 2:
        splash, maedn_figures = results.values()
        print(
            f"{'ratio splash / maedn':<28} {'':>7} {'':>12} {'':>9} "
            f"{splash.games_per_second / maedn_figures.games_per_second:>10.4f} "
            f"{splash.transitions_per_second / maedn_figures.transitions_per_second:>14.4f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
