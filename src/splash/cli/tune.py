"""``splash tune GAME --target ... --vary ... --budget N``: search the draft's parameters for
settings that meet the designer's targets (:mod:`splash.tune.search`), on the backend and
engine of ``splash simulate``; ``splash tune --list-metrics`` lists the metric ids."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from splash.bots import split_specs
from splash.cli.common import guarded, make_console, progress_bar, say
from splash.cli.report import TitleOption
from splash.cli.simulate_all import (
    DaskOption,
    DataOption,
    EngineOption,
    GameId,
    SchedulerOption,
    SeedOption,
    SettingsOption,
    WorkersOption,
    make_backend,
)
from splash.core.errors import OptionError
from splash.core.i18n import N_, message
from splash.games import GAMES
from splash.sim.engines import EngineChoice


def metrics_table() -> Table:
    """Every metric id a target may name, with its unit and definition."""
    from splash.report.metric_ids import (
        METRICS,
        TEAM_WIN_RATE,
        team_win_rate,
        team_win_rate_definition,
    )

    table = Table(
        message("Metric").render(), message("Unit").render(), message("Definition").render()
    )
    for metric in METRICS.values():
        table.add_row(metric.id, metric.unit.render(), metric.definition.render())
    pattern = team_win_rate(0)
    table.add_row(TEAM_WIN_RATE, pattern.unit.render(), team_win_rate_definition("k").render())
    return table


def result_table(console: Console, result: object) -> None:
    """Print the recommended settings and their targets."""
    from splash.tune.page import ended_early_text, estimate_text, settings_text, verdict_text
    from splash.tune.search import TuneResult

    assert isinstance(result, TuneResult)
    early = ended_early_text(result)
    if early is not None:
        say(console, early)
    best = result.best
    if best is None:
        return
    say(console, message("Recommended: {settings}", settings=settings_text(best)))
    table = Table(
        message("Target").render(),
        message("Measured on fresh seeds (95 % interval)").render(),
        message("Verdict").render(),
    )
    for target, found in zip(result.plan.targets, best.estimates, strict=True):
        table.add_row(target.text, estimate_text(found), verdict_text(target, found))
    console.print(table)


def tune_command(
    game: Annotated[
        GameId | None,
        typer.Argument(help=N_("The game, by its id (the choices listed)."), show_default=False),
    ] = None,
    *,
    target: Annotated[
        list[str] | None,
        typer.Option(
            metavar="METRIC<=X|METRIC>=X|METRIC=A..B",
            help=N_("A target, e.g. first_seat_advantage<=0.02 (repeatable; |METRIC| a size)."),
        ),
    ] = None,
    vary: Annotated[
        list[str] | None,
        typer.Option(
            metavar="KEY=A..B|KEY=V1,V2,...",
            help=N_("A setting to search: an inclusive range or a list (repeatable)."),
        ),
    ] = None,
    budget: Annotated[
        int, typer.Option(min=1, help=N_("Games in all, the finalists' included."))
    ] = 20000,
    games: Annotated[int, typer.Option(min=1, help=N_("Games per candidate."))] = 200,
    finalists: Annotated[
        int, typer.Option(min=0, help=N_("The best candidates measured again."))
    ] = 3,
    final_games: Annotated[int, typer.Option(min=1, help=N_("Fresh games per finalist."))] = 1000,
    bots: Annotated[
        list[str] | None, typer.Option(help=N_("Bots for the seats (default: greedy)."))
    ] = None,
    seed: SeedOption = 0,
    workers: WorkersOption = None,
    scheduler: SchedulerOption = None,
    dask: DaskOption = None,
    settings: SettingsOption = None,
    data: DataOption = None,
    engine: EngineOption = EngineChoice.AUTO,
    out: Annotated[
        Path, typer.Option(help=N_("Folder of the search (resumes when given again)."))
    ] = Path("TUNE"),
    report: Annotated[
        Path | None, typer.Option("--report", "-o", help=N_("Write the HTML report to this file."))
    ] = None,
    title: TitleOption = None,
    list_metrics: Annotated[
        bool, typer.Option("--list-metrics", help=N_("List the metric ids and stop."))
    ] = False,
) -> None:
    """Search settings that meet targets on the metrics of the report."""
    console = make_console()
    with guarded():
        if list_metrics:
            console.print(metrics_table())
            return
        if game is None:
            raise OptionError(
                "GAME", None, message("give the game: one of {games}", games=", ".join(GAMES))
            )
        from splash.tune.search import TunePlan, Tuner

        plan = TunePlan.of(
            str(game),
            targets=target or [],
            vary=vary or [],
            budget=budget,
            settings=settings or [],
            bots=split_specs(bots or ["greedy"]),
            games=games,
            finalists=finalists,
            final_games=final_games,
            seed=seed,
            data_dir=data,
        )
        plan, note = plan.on_engine(engine)
        if note is not None:
            say(console, note)
        tuner = Tuner(plan, out)
        done = tuner.done_games()
        backend = make_backend(workers, scheduler, dask)
        total = plan.trials * plan.games + plan.finalists * plan.final_games
        try:
            with progress_bar(console) as progress:
                task = progress.add_task("games", total=total, completed=min(done, total))
                result = tuner.run(backend, lambda count: progress.advance(task, count))
        finally:
            backend.close()
        result_table(console, result)
        if report is not None:
            from splash.report.html import write_page
            from splash.tune.page import tune_page

            write_page(report, tune_page(result, title=title))
            say(console, message("The report is in {file}.", file=str(report)))
        say(console, message("The search is in {folder}.", folder=str(out)))
