"""``splash ladder GAME``: a round robin between bots, with win rates, Elo and the tests that
each level beats the one below it (:mod:`splash.sim.ladder`).

Every pair of ``--bots`` plays ``--games`` games, seats alternated, each with a seed derived
from ``--seed``, the pair and the game; the games run in this process (``--workers 1``), in
local processes (``--workers K``, default the CPU count) or on Dask (``--scheduler``,
``--dask local``).  ``--out`` writes the ladder as a ``splash/ladder/1`` JSON document.
A tower ladder plays Splash! with two players (its physics is slow: expect seconds a game).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from splash.bots import split_specs
from splash.cli.common import guarded, make_console, progress_bar, say
from splash.cli.simulate_all import (
    DaskOption,
    EngineOption,
    GameArgument,
    SchedulerOption,
    SettingsOption,
    WorkersOption,
    make_backend,
)
from splash.core.errors import DocumentError
from splash.core.i18n import N_, message
from splash.sim.backends import Backend
from splash.sim.engines import EngineChoice
from splash.sim.ladder import SIGNIFICANCE, Ladder, LadderSpec, play_ladder


def _percent(value: float) -> str:
    return f"{100 * value:.1f} %"


def _interval(low: float, high: float, *, percent: bool = False) -> str:
    if percent:
        return f"{100 * low:.1f} - {100 * high:.1f} %"
    return f"{low:+.0f} .. {high:+.0f}"


def _count_columns(table: Table) -> None:
    for header in (
        message("Games"),
        message("Wins"),
        message("Draws"),
        message("Win rate"),
        message("95 % Wilson interval"),
    ):
        table.add_column(header.render(), justify="right")


def bot_table(ladder: Ladder) -> Table:
    """One line per bot: games, wins, draws, win rate (95 % Wilson), Elo (95 % interval)."""
    table = Table(
        title=message(
            "Round robin: {games} games per pair, seed {seed}",
            games=ladder.spec.games,
            seed=ladder.spec.seed,
        ).render()
    )
    table.add_column(message("Bot").render())
    _count_columns(table)
    table.add_column(message("Elo").render(), justify="right")
    table.add_column(message("Elo 95 % interval").render(), justify="right")
    for line in ladder.table():
        table.add_row(
            line.bot,
            str(line.games),
            str(line.wins),
            str(line.draws),
            _percent(line.win_rate),
            _interval(*line.win_interval, percent=True),
            f"{line.elo:+.0f}",
            _interval(*line.elo_interval),
        )
    return table


def step_table(ladder: Ladder) -> Table:
    """Each level against the one below it: win rate, Elo difference, one-sided p-value."""
    table = Table(
        title=message(
            "Each level against the one below (one-sided sign test, significant at p < {alpha})",
            alpha=SIGNIFICANCE,
        ).render()
    )
    table.add_column(message("Level").render(), overflow="fold")
    _count_columns(table)
    table.add_column(message("Elo gap (95 %)").render(), justify="right")
    table.add_column(message("p-value").render(), justify="right")
    table.add_column(message("Verdict").render())
    for step in ladder.steps():
        verdict = message("significant") if step.significant else message("not significant")
        table.add_row(
            message("{higher} against {lower}", higher=step.higher, lower=step.lower).render(),
            str(step.games),
            str(step.wins),
            str(step.draws),
            _percent(step.win_rate),
            _interval(*step.win_interval, percent=True),
            f"{step.elo_difference:+.0f} ({_interval(*step.elo_interval)})",
            f"{step.p_value:.3g}",
            verdict.render(),
        )
    return table


def run_ladder(console: Console, spec: LadderSpec, backend: Backend) -> Ladder:
    """Play the ladder with a progress bar (the backend is closed at the end)."""
    try:
        with progress_bar(console) as progress:
            task = progress.add_task("games", total=len(spec.pairs) * spec.games)
            return play_ladder(spec, backend, lambda _: progress.advance(task))
    finally:
        backend.close()


def write_ladder(path: Path, ladder: Ladder) -> None:
    """Write the ladder's ``splash/ladder/1`` document to ``path``."""
    try:
        path.write_text(json.dumps(ladder.to_json(), indent=1) + "\n", encoding="utf-8")
    except OSError as error:
        raise DocumentError(
            message("cannot write {file}: {error}", file=str(path), error=error.strerror)
        ) from None


def ladder_command(
    game: GameArgument,
    *,
    bots: Annotated[
        list[str] | None,
        typer.Option(
            help=N_("The bots, lowest level first: random,greedy,ismcts:iterations=50 ...")
        ),
    ] = None,
    games: Annotated[int, typer.Option(help=N_("Games each pair of bots plays."))] = 40,
    seed: Annotated[int, typer.Option(help=N_("Seed of the ladder (each game's is derived)."))] = 0,
    workers: WorkersOption = None,
    scheduler: SchedulerOption = None,
    dask: DaskOption = None,
    settings: SettingsOption = None,
    out: Annotated[
        Path | None, typer.Option(help=N_("Write the ladder to this JSON file."))
    ] = None,
    engine: EngineOption = EngineChoice.AUTO,
) -> None:
    """Play a round robin between bots; report win rates, Elo and each level's test."""
    console = make_console()
    with guarded():
        names = split_specs(bots or ["random,greedy"])
        spec, note = LadderSpec.of(str(game), settings or [], names, games, seed).on_engine(engine)
        if note is not None:
            say(console, note)
        backend = make_backend(workers, scheduler, dask)
        ladder = run_ladder(console, spec, backend)
        console.print(bot_table(ladder))
        console.print(step_table(ladder))
        if out is not None:
            write_ladder(out, ladder)
            say(console, message("The ladder is in {file}.", file=str(out)))
