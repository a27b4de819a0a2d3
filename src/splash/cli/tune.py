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
    from splash.tune.measure import settings_text
    from splash.tune.page import ended_early_text, estimate_text, verdict_text
    from splash.tune.search import TuneResult
    from splash.tune.verdict import edge_text, verdict_sentences

    assert isinstance(result, TuneResult)
    early = ended_early_text(result)
    if early is not None:
        say(console, early)
    best = result.best
    if best is None:
        return
    if result.draft is not None:
        table = Table(
            message("Level").render(),
            message("Design").render(),
            message("First-seat advantage, points (95 %)").render(),
            message("Team turns (95 %)").render(),
            message("Fresh games").render(),
        )
        for index, level in enumerate(result.plan.levels):
            for label, design in [(message("the draft").render(), result.draft)] + [
                (settings_text(m), m) for m in result.finalists
            ]:
                table.add_row(
                    level.bot,
                    label,
                    edge_text(design.edge(index)),
                    estimate_text(design.length(index)),
                    str(design.edge(index).games),
                )
        console.print(table)
    say(console, message("Recommended: {settings}", settings=settings_text(best)))
    table = Table(
        message("Target").render(),
        message("Measured on fresh seeds (95 % interval)").render(),
        message("Verdict").render(),
    )
    for target, found in zip(result.plan.targets, best.estimates, strict=True):
        table.add_row(target.text, estimate_text(found), verdict_text(target, found))
    console.print(table)
    for sentence in verdict_sentences(result):
        say(console, sentence)


def split_counts(option: str, values: str) -> list[int]:
    """``2000,2000,300`` as whole numbers; an :class:`OptionError` of ``option`` for a part
    that is not one."""
    counts = []
    for part in values.split(","):
        try:
            counts.append(int(part))
        except ValueError:
            raise OptionError(
                option, values, message("expected N or N,N,... (one per level)")
            ) from None
    return counts


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
    games: Annotated[
        str,
        typer.Option(
            metavar="N|N,N,...", help=N_("Games per candidate (one count, or one per level).")
        ),
    ] = "200",
    rungs: Annotated[
        int,
        typer.Option(
            min=1,
            help=N_("Rungs of successive halving: each plays 3 times the games of the one before."),
        ),
    ] = 3,
    finalists: Annotated[
        int, typer.Option(min=0, help=N_("The best candidates measured again."))
    ] = 3,
    final_games: Annotated[
        str,
        typer.Option(
            metavar="N|N,N,...",
            help=N_("Fresh games per finalist and for the draft (one count, or one per level)."),
        ),
    ] = "1000",
    bots: Annotated[
        list[str] | None, typer.Option(help=N_("Bots for the seats (default: greedy)."))
    ] = None,
    skills: Annotated[
        list[str] | None,
        typer.Option(
            metavar="BOT,BOT,...",
            help=N_(
                "Skill levels, each a bot for every seat, e.g. random,greedy,strong: every "
                "target at every level."
            ),
        ),
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
        from splash.tune.levels import parse_skills
        from splash.tune.search import TunePlan, Tuner

        if skills and bots:
            raise OptionError(
                "--bots", ",".join(bots), message("give --bots or --skills, not both")
            )
        plan = TunePlan.of(
            str(game),
            targets=target or [],
            vary=vary or [],
            budget=budget,
            settings=settings or [],
            bots=split_specs(bots or ["greedy"]),
            skills=parse_skills(skills) if skills else (),
            games=split_counts("--games", games),
            finalists=finalists,
            final_games=split_counts("--final-games", final_games),
            seed=seed,
            rungs=rungs,
            data_dir=data,
        )
        plan, notes = plan.on_engine(engine)
        for note in notes:
            say(console, note)
        tuner = Tuner(plan, out)
        done = tuner.done_games()
        backend = make_backend(workers, scheduler, dask)
        total = plan.search_budget + plan.final_cost
        try:
            with progress_bar(console) as progress:
                task = progress.add_task("games", total=total, completed=min(done, total))
                result = tuner.run(backend, lambda count: progress.advance(task, count))
                played = tuner.done_games()  # the budget may be left unspent
                progress.update(task, total=played, completed=played)
        finally:
            backend.close()
        result_table(console, result)
        if report is not None:
            from splash.report.html import write_page
            from splash.tune.page import tune_page

            write_page(report, tune_page(result, title=title))
            say(console, message("The report is in {file}.", file=str(report)))
        say(console, message("The search is in {folder}.", folder=str(out)))
