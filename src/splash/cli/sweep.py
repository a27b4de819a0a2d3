"""``splash sweep GAME --vary KEY=V1,V2,...``: every combination of some settings, each played
with the same seeds, and what each change does to balance and game length.

The combinations are the full factorial of the ``--vary`` values (:mod:`splash.sim.sweep`),
each stored in its own Parquet file under ``--out`` (a stopped sweep resumes); the games are
played on the backend of ``splash simulate`` (``--workers``, ``--dask local``,
``--scheduler``).  The effects of the changes are tested seed by seed with Holm's correction
(:mod:`splash.report.sweep`), printed as tables and, with ``--report``, written as one HTML
page.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.table import Table

from splash.bots import split_specs
from splash.cli.common import guarded, make_console, progress_bar, say
from splash.cli.simulate_all import (
    BotsOption,
    DaskMode,
    DaskOption,
    DataOption,
    EngineOption,
    GameArgument,
    SchedulerOption,
    SeedOption,
    SettingsOption,
    WorkersOption,
    make_backend,
)
from splash.core.i18n import N_, message
from splash.games import GAMES
from splash.sim.engines import EngineChoice
from splash.sim.sweep import MAX_COMBINATIONS, Sweep, SweepPlan, value_text

if TYPE_CHECKING:
    from splash.report.sweep import Arm, Effect


def _table(title: str, columns: Sequence[str], rows: Sequence[Sequence[str]]) -> Table:
    table = Table(title=title)
    for index, column in enumerate(columns):
        if index == 0:
            table.add_column(column, no_wrap=True)
        else:
            table.add_column(column, justify="right", overflow="fold")
    for row in rows:
        table.add_row(*row)
    return table


def combinations_table(arms: Sequence[Arm]) -> Table:
    """One line per combination: wins of team A, AdvantageP1, Balance, turns, turn cap."""
    from splash.report.sweep import combination_rows

    columns, rows = combination_rows(arms, compact=True)
    return _table(message("Combinations").render(), columns, rows)


def effects_table(found: Sequence[Effect]) -> Table:
    """One line per change, the significant ones (after Holm's correction) in bold red."""
    from splash.report.sweep import ALPHA, effect_rows

    columns, rows = effect_rows(found, compact=True)
    title = message(
        "Effects of the changes (paired by seed; p-values, Holm-adjusted in brackets; "
        "* and red: significant at {alpha})",
        alpha=ALPHA,
    ).render()
    table = _table(title, columns, [])
    for effect, row in zip(found, rows, strict=True):
        tests = (effect.first_wins, effect.gap, effect.turns)
        table.add_row(*row, style="bold red" if any(t.significant for t in tests) else None)
    return table


def play_sweep(
    console: Console,
    sweep: Sweep,
    *,
    workers: int | None = 1,
    scheduler: str | None = None,
    dask: DaskMode | None = None,
) -> None:
    """Play the games of ``sweep`` not yet stored on the backend the options name
    (:func:`~splash.cli.simulate_all.make_backend`), with a progress bar over all games."""
    if sweep.done == sweep.total:
        say(console, message("Every game of the sweep is already stored."))
        return
    if sweep.done:
        say(
            console,
            message(
                "{done} of the {games} games are already stored: playing the other {todo}.",
                done=sweep.done,
                games=sweep.total,
                todo=sweep.total - sweep.done,
            ),
        )
    backend = make_backend(workers, scheduler, dask)
    try:
        with progress_bar(console) as progress:
            task = progress.add_task("games", total=sweep.total, completed=sweep.done)
            sweep.play(backend, lambda count: progress.advance(task, count))
    finally:
        backend.close()


def arms_of(sweep: Sweep) -> list[Arm]:
    """The stored games of every combination, for the statistics."""
    from splash.report.sweep import Arm

    return [
        Arm.of_frame(
            [(key, value_text(value)) for key, value in result.combination.assignments],
            result.combination.teams,
            result.frame,
        )
        for result in sweep.results()
    ]


def _facts(sweep: Sweep) -> list[str]:
    plan = sweep.plan
    data = (
        [message("Played with the data files of --data, recorded in every results file.")]
        if plan.base.data
        else []
    )
    return [
        message(
            "{game}, bots {bots}; fixed settings: {settings}.",
            game=GAMES[plan.base.game].name,
            bots=", ".join(plan.base.bots),
            settings=", ".join(plan.settings) or "-",
        ).render(),
        *(text.render() for text in data),
        message(
            "{combinations} combinations of {keys}, each played with the seeds {first} to "
            "{last} ({games} games each).",
            combinations=len(plan.combinations),
            keys=", ".join(plan.keys),
            first=sweep.seeds[0],
            last=sweep.seeds[-1],
            games=len(sweep.seeds),
        ).render(),
    ]


def sweep_command(
    game: GameArgument,
    *,
    vary: Annotated[
        list[str] | None,
        typer.Option(
            metavar="KEY=V1,V2,...",
            help=N_("A setting and the values to try, e.g. board.lanes.outer=36,40 (repeatable)."),
        ),
    ] = None,
    bots: BotsOption = None,
    games: Annotated[int, typer.Option(min=1, help=N_("Games per combination."))] = 100,
    seed: SeedOption = 0,
    workers: WorkersOption = None,
    scheduler: SchedulerOption = None,
    dask: DaskOption = None,
    settings: SettingsOption = None,
    data: DataOption = None,
    max_combinations: Annotated[
        int, typer.Option(min=1, help=N_("The most combinations the sweep may play."))
    ] = MAX_COMBINATIONS,
    out: Annotated[
        Path,
        typer.Option(help=N_("Folder of the results, one file per combination (resumes).")),
    ] = Path("SWEEP"),
    report: Annotated[
        Path | None, typer.Option("--report", "-o", help=N_("Write the HTML report to this file."))
    ] = None,
    engine: EngineOption = EngineChoice.AUTO,
) -> None:
    """Play every combination of the --vary values with the same seeds; test what each change
    does to balance and game length."""
    from splash.report.sweep import effects, persistence_text, sweep_page, write_page

    console = make_console()
    with guarded():
        plan = SweepPlan.of(
            str(game),
            settings or [],
            split_specs(bots or []),
            vary or [],
            max_combinations=max_combinations,
            data_dir=data,
        )
        plan, note = plan.on_engine(engine)
        if note is not None:
            say(console, note)
        sweep = Sweep(plan, out, games=games, seed=seed)
        play_sweep(console, sweep, workers=workers, scheduler=scheduler, dask=dask)
        arms = arms_of(sweep)
        found = effects(arms, seed=seed)
        console.print(combinations_table(arms))
        persistence = persistence_text(arms)
        if persistence:
            say(console, persistence)
        if found:
            console.print(effects_table(found))
        else:
            say(console, message("No change to compare: every --vary has one value."))
        say(console, message("The results are in {folder}.", folder=str(out)))
        if report is not None:
            title = message("Sweep of {game}", game=GAMES[plan.base.game].name).render()
            write_page(report, sweep_page(arms, found, title=title, facts=_facts(sweep)))
            say(console, message("The report is in {file}.", file=str(report)))
