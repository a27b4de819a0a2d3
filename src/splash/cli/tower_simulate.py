"""``splash tower simulate``: Splash! games between bots, the physics ruling every placement.

Game ``i`` takes seed ``S+i``: its seed sequence is split into one child for the physics
(the placers' tremor, TD14), one for the random deal and one for each seat's bot.  The random
bots choose legal gifts at random and place at random over the target's top
(:class:`~splash.bots.tower_random.RandomTowerBot`, ``--spread`` scaling the offsets); the
hands' steadiness is the game's (``options.steadiness``, ``options.seat_steadiness``).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from splash.bots import make_bot, parse_spec
from splash.bots.tower_random import RandomTowerBot
from splash.cli.common import mean_sd, seed_children, share, summary_table
from splash.core.i18n import message
from splash.core.outcomes import RandomOutcomes, RoutedOutcomes
from splash.core.play import Agent, play
from splash.games.tower import TowerGame
from splash.physics.errors import PlacementError
from splash.physics.provider import PhysicsOutcomes


@dataclass(frozen=True)
class TowerResult:
    """What one simulated game came to."""

    seed: int
    winner: int | None
    """The seat whose placement or drops won (``None``: stopped by the turn cap)."""
    won_by: str | None
    """``pieces`` (T14) or ``drops`` (T15)."""
    placements: int
    falls: int
    spontaneous: int
    boxed: int
    """Pieces in the box at the end (the 4-player leftovers included)."""
    seconds: float
    stopped: bool = False
    """Whether the game stopped early: no pose of a gift was accepted (T06)."""


def seat_specs(specs: Sequence[str], seats: int) -> list[str]:
    """One bot spec per seat: the list given, its last one repeated (``random`` if empty)."""
    given = list(specs) or ["random"]
    return [given[min(seat, len(given) - 1)] for seat in range(seats)]


def tower_bot(spec: str, seed: np.random.SeedSequence, *, spread: float) -> Agent:
    """The bot ``spec`` names; the random bot places with ``spread`` (TD13)."""
    name, params = parse_spec(spec)
    if name == "random" and not params:
        return RandomTowerBot(seed, offset_spread=spread)
    return make_bot(spec, seed)


def play_game(
    game: TowerGame, seed: int, specs: Sequence[str], *, spread: float = 1.0
) -> TowerResult:
    """One game between the bots of ``specs`` (one per seat), with seed ``seed``."""
    seats = game.num_seats
    children = seed_children(seed, 2 + seats)
    outcomes = RoutedOutcomes(
        {"placement": PhysicsOutcomes(children[0])}, RandomOutcomes(children[1])
    )
    bots = [tower_bot(specs[s], children[2 + s], spread=spread) for s in range(seats)]
    state = game.new_initial_state()
    start = time.perf_counter()
    stopped = False
    try:
        play(state, bots, outcomes)
    except PlacementError:
        # No pose of the gift was accepted, and the centred one is refused by the physics.
        stopped = True
    seconds = time.perf_counter() - start
    results = [
        _result(action.param("outcome")) for action in state.history if action.kind == "result"
    ]
    win = next((e for e in state.events if e.get("event") == "win"), None)
    return TowerResult(
        seed=seed,
        winner=int(str(win["seat"])) if win is not None else None,
        won_by=str(win["by"]) if win is not None else None,
        placements=state.placements,
        falls=results.count("fell"),
        spontaneous=results.count("spontaneous"),
        boxed=len(state.box),
        seconds=seconds,
        stopped=stopped,
    )


def _result(outcome: object) -> str:
    return str(outcome.get("result")) if isinstance(outcome, dict) else ""


def run(
    console: Console,
    game: TowerGame,
    *,
    games: int,
    seed: int,
    specs: Sequence[str],
    spread: float = 1.0,
) -> list[TowerResult]:
    """Play ``games`` games with a progress bar; game ``i`` has seed ``seed + i``."""
    for spec in set(specs):
        tower_bot(spec, np.random.SeedSequence(0), spread=spread)
    results = []
    columns = (
        TextColumn(message("Simulating").render()),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console) as progress:
        task = progress.add_task("games", total=games)
        for index in range(games):
            results.append(play_game(game, seed + index, specs, spread=spread))
            progress.advance(task)
    return results


def summary(results: Sequence[TowerResult], specs: Sequence[str], first_seed: int) -> Table:
    """Wins by seat and how, falls, the box, placements and time per game."""
    total = len(results)
    table = summary_table(total, first_seed)
    for seat, spec in enumerate(specs):
        wins = sum(1 for r in results if r.winner == seat)
        label = message("Wins of seat {seat} ({bot})", seat=seat, bot=spec)
        table.add_row(label.render(), share(wins, total))
    by_pieces = sum(1 for r in results if r.won_by == "pieces")
    by_drops = sum(1 for r in results if r.won_by == "drops")
    table.add_row(message("Wins by the last piece (T14)").render(), share(by_pieces, total))
    table.add_row(message("Wins by three drops (T15)").render(), share(by_drops, total))
    capped = sum(1 for r in results if r.winner is None and not r.stopped)
    table.add_row(message("Turn cap hit (no winner)").render(), share(capped, total))
    stopped = sum(1 for r in results if r.stopped)
    if stopped:
        table.add_row(
            message("Stopped: no pose of a gift accepted (T06)").render(), share(stopped, total)
        )
    rows = (
        (message("Falls per game (mean ± sd)"), [r.falls for r in results]),
        (message("Spontaneous falls per game (mean ± sd)"), [r.spontaneous for r in results]),
        (message("Placements per game (mean ± sd)"), [r.placements for r in results]),
        (message("Pieces in the box at the end (mean ± sd)"), [r.boxed for r in results]),
    )
    for label, values in rows:
        mean, sd = mean_sd(values)
        table.add_row(label.render(), f"{mean:.1f} ± {sd:.1f}")
    mean, sd = mean_sd([r.seconds for r in results])
    table.add_row(
        message("Time per game in seconds (mean ± sd)").render(), f"{mean:.2f} ± {sd:.2f}"
    )
    return table
