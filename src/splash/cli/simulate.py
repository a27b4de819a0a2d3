"""``splash bash simulate``: bot games with seeds ``S``, ``S+1``, …, and a summary table.

Game ``i`` takes seed ``S+i`` for its chance outcomes and for its bots: the seed sequence of
``S+i`` is split into one child for the outcomes and one for each seat's bot.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.table import Table

from splash.bots import make_bot
from splash.cli.common import mean_sd, progress_bar, seed_children, share, summary_table
from splash.core.i18n import message
from splash.core.outcomes import RandomOutcomes
from splash.core.play import Agent
from splash.core.protocol import CHANCE
from splash.games.bash import BashGame
from splash.games.bash.board import TEAM_LETTERS


@dataclass(frozen=True)
class GameResult:
    """What one simulated game came to."""

    seed: int
    winner: int | None
    turns: int
    """Team turns played, the winning turn included."""
    actions: int
    """Every action applied, chance outcomes included."""
    decisions: int
    """The actions the teams chose."""


def seat_specs(specs: Sequence[str], seats: int) -> list[str]:
    """One bot spec per seat: the list given, its last one repeated (``random`` if empty)."""
    given = list(specs) or ["random"]
    return [given[min(seat, len(given) - 1)] for seat in range(seats)]


def play_game(game: BashGame, seed: int, specs: Sequence[str]) -> GameResult:
    """One game between the bots of ``specs`` (one per seat), with seed ``seed``."""
    children = seed_children(seed, 1 + game.num_seats)
    outcomes = RandomOutcomes(children[0])
    bots: list[Agent] = [make_bot(specs[s], children[1 + s]) for s in range(game.num_seats)]
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        seat = state.to_act()
        if seat == CHANCE:
            state.apply(outcomes.outcome(state))
        else:
            state.apply(bots[seat].act(state))
            decisions += 1
    winner = state.board.winner
    return GameResult(
        seed=seed,
        winner=winner,
        turns=state.turns + (1 if winner is not None else 0),
        actions=len(state.history),
        decisions=decisions,
    )


def run(
    console: Console, game: BashGame, *, games: int, seed: int, specs: Sequence[str]
) -> list[GameResult]:
    """Play ``games`` games with a progress bar; game ``i`` has seed ``seed + i``."""
    for spec in set(specs):
        make_bot(spec, 0)
    results = []
    with progress_bar(console) as progress:
        task = progress.add_task("games", total=games)
        for index in range(games):
            results.append(play_game(game, seed + index, specs))
            progress.advance(task)
    return results


def summary(results: Sequence[GameResult], specs: Sequence[str], first_seed: int) -> Table:
    """Wins by seat, game length (mean and standard deviation), turn cap hits, actions."""
    total = len(results)
    table = summary_table(total, first_seed)
    for seat, spec in enumerate(specs):
        wins = sum(1 for r in results if r.winner == seat)
        label = message("Wins of team {team} ({bot})", team=TEAM_LETTERS[seat], bot=spec)
        table.add_row(label.render(), share(wins, total))
    capped = sum(1 for r in results if r.winner is None)
    table.add_row(message("Turn cap hit (no winner)").render(), share(capped, total))
    mean, sd = mean_sd([r.turns for r in results])
    table.add_row(
        message("Game length in team turns (mean ± sd)").render(), f"{mean:.1f} ± {sd:.1f}"
    )
    low, high = min(r.turns for r in results), max(r.turns for r in results)
    table.add_row(message("Shortest and longest game (team turns)").render(), f"{low} - {high}")
    mean, sd = mean_sd([r.actions for r in results])
    table.add_row(
        message("Actions per game, chance included (mean ± sd)").render(),
        f"{mean:.1f} ± {sd:.1f}",
    )
    mean, sd = mean_sd([r.decisions for r in results])
    table.add_row(message("Decisions per game (mean ± sd)").render(), f"{mean:.1f} ± {sd:.1f}")
    return table
