"""``splash simulate GAME``: bot games of either game on a backend, stored as Parquet.

Game ``i`` has seed ``S+i`` and is a pure function of (game, options, bots, seed), so the
results do not depend on the backend: this process (``--workers 1``), local processes
(``--workers K``, default the CPU count), a Dask scheduler (``--scheduler ADDRESS``) or a
Dask cluster started here on 127.0.0.1 (``--dask local``, ``K`` workers).  Results go to
``--out`` (one row per game; see :mod:`splash.sim.store`, imported when the command runs:
pyarrow takes a while to load); a stopped run started again with
the same ``--out`` plays only the games not yet stored.  The existing ``splash bash
simulate`` and ``splash tower simulate`` remain as shortcuts.

:func:`simulate` does the work; each game gives it its :class:`SummaryWording` (the
command line's table of games, :data:`splash.cli.games.GAME_COMMANDS`, holds them).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.table import Table

from splash.bots import split_specs
from splash.cli.common import guarded, make_console, progress_bar, say
from splash.core.i18n import N_, Message, message
from splash.games import GAMES
from splash.sim.backends import Backend, DaskBackend, LocalProcesses, Sequential, cpu_count
from splash.sim.engines import EngineChoice, choose_engine
from splash.sim.runner import GameSpec, simulated
from splash.sim.stats import Rate
from splash.sim.summary import Summary, summarise

if TYPE_CHECKING:
    from splash.sim.store import ResultStore

    GameId = str
else:
    # An enumeration for Typer, which offers its values as the choices of GAME.
    GameId = enum.StrEnum("GameId", {game.upper(): game for game in GAMES})
"""The games a command takes as its ``GAME`` argument: the ids of :data:`splash.games.GAMES`."""
GameArgument = Annotated[
    GameId, typer.Argument(help=N_("The game, by its id (the choices listed)."))
]
"""The ``GAME`` argument of ``splash simulate``, ``splash ladder`` and ``splash sweep``."""


class DaskMode(enum.StrEnum):
    """Where ``--dask`` finds its cluster."""

    LOCAL = "local"


WorkersOption = Annotated[
    int | None,
    typer.Option(min=1, help=N_("Worker processes (default: the CPU count; 1: in this process).")),
]
SchedulerOption = Annotated[
    str | None,
    typer.Option(help=N_("Play on the Dask scheduler at this address (tcp://host:port).")),
]
DaskOption = Annotated[
    DaskMode | None,
    typer.Option(help=N_("local: play on a Dask cluster started here on 127.0.0.1.")),
]
SettingsOption = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        metavar="KEY=VALUE",
        help=N_("Change a setting, e.g. --set board.lanes.outer=36 (repeatable)."),
    ),
]
"""The options ``splash simulate`` and ``splash ladder`` share."""
BotsOption = Annotated[
    list[str] | None,
    typer.Option(help=N_("Bots for the seats, in seat order: random,... (last repeats).")),
]
SeedOption = Annotated[int, typer.Option(min=0, help=N_("Seed of the first game (then +1 each)."))]
GamesOption = Annotated[int, typer.Option(min=1, help=N_("How many games."))]
OutOption = Annotated[
    Path,
    typer.Option(help=N_("Parquet file of the results (a stopped run resumes from it).")),
]
RESULTS = Path("RESULTS.parquet")
"""The default ``--out``."""
CsvOption = Annotated[
    Path | None,
    typer.Option(help=N_("Also write the rows of the results file to this CSV file.")),
]
EngineOption = Annotated[
    EngineChoice,
    typer.Option(
        help=N_(
            "Splash & Bash: fast (the compiled core: random and greedy bots), reference "
            "(the rules engine: every bot), or auto (fast when it can play the games)."
        )
    ),
]
DataOption = Annotated[
    Path | None,
    typer.Option(
        exists=True,
        file_okay=False,
        dir_okay=True,
        help=N_("Splash & Bash: a folder with board.toml, low_tide.toml and high_tide.toml."),
    ),
]
"""The options of ``splash simulate`` that its per-game shortcuts share."""


def shortcut_settings(settings: Sequence[str] | None, key: str, value: object) -> list[str]:
    """The ``--set`` assignments of a per-game shortcut, then ``KEY=VALUE`` for its own option
    (``--teams``, ``--players``) when given: the option wins over ``--set``."""
    return [*(settings or []), *([f"{key}={value}"] if value is not None else [])]


def make_backend(workers: int | None, scheduler: str | None, dask: DaskMode | None) -> Backend:
    """The backend the options name: Dask, local processes, or this process for 1 worker."""
    if scheduler is not None or dask is not None:
        # Both given: DaskBackend refuses them together.
        local = workers or cpu_count() if dask is not None else None
        return DaskBackend(address=scheduler, local=local)
    if workers == 1:
        return Sequential()
    return LocalProcesses(workers)


@dataclass(frozen=True)
class SummaryWording:
    """How the summary of ``splash simulate`` speaks of one game."""

    wins: Callable[[int, str], Message]
    """The row of a seat's wins, from the seat and its bot (``Wins of team A (greedy)``)."""
    length: Message
    """The row of the mean game length, in the unit of the ``turns`` column."""
    span: Message
    """The row of the shortest and the longest game."""


WON_BY: dict[str, Message] = {
    "pieces": message("Wins by the last piece (T14)"),
    "drops": message("Wins by three drops (T15)"),
}
"""The rows of the ways a game is won (a game with the ``won_by`` measure)."""


def _share(share: Rate) -> tuple[str, str]:
    return f"{share.count} ({share.percent()})", share.interval_percent()


def summary_table(summary: Summary, spec: GameSpec, wording: SummaryWording) -> Table:
    """Wins per seat (and team) with 95 % Wilson intervals, game length, turn cap share."""
    table = Table(
        title=message(
            "{games} games, seeds {first} to {last}",
            games=summary.games,
            first=summary.first_seed,
            last=summary.last_seed,
        ).render()
    )
    table.add_column(message("Measure").render())
    table.add_column(message("Value").render(), justify="right")
    table.add_column(message("95 % Wilson interval").render(), justify="right")
    for seat, (wins, bot) in enumerate(zip(summary.seat_wins, spec.bots, strict=True)):
        table.add_row(wording.wins(seat, bot).render(), *_share(wins))
    if len(summary.team_wins) < len(summary.seat_wins):
        for team, wins in enumerate(summary.team_wins):
            table.add_row(message("Wins of team {team}", team=team).render(), *_share(wins))
    for how, wins in summary.won_by.items():
        table.add_row(WON_BY[how].render(), *_share(wins))
    table.add_row(message("Turn cap hit (no winner)").render(), *_share(summary.turn_cap))
    if summary.stopped.count:
        table.add_row(
            message("Stopped: no pose of a gift accepted (T06)").render(), *_share(summary.stopped)
        )
    table.add_row(wording.length.render(), f"{summary.mean_turns:.1f} ± {summary.sd_turns:.1f}", "")
    table.add_row(wording.span.render(), f"{summary.shortest} - {summary.longest}", "")
    table.add_row(
        message("Actions per game, chance included (mean ± sd)").render(),
        f"{summary.mean_actions:.1f} ± {summary.sd_actions:.1f}",
        "",
    )
    table.add_row(
        message("Decisions per game (mean ± sd)").render(),
        f"{summary.mean_decisions:.1f} ± {summary.sd_decisions:.1f}",
        "",
    )
    labels = {
        "falls": message("Falls per game (mean ± sd)"),
        "spontaneous": message("Spontaneous falls per game (mean ± sd)"),
        "boxed": message("Pieces in the box at the end (mean ± sd)"),
    }
    for key, (mean, sd) in summary.per_game.items():
        table.add_row(labels[key].render(), f"{mean:.1f} ± {sd:.1f}", "")
    return table


def run_simulation(
    console: Console,
    store: ResultStore,
    *,
    games: int,
    seed: int,
    backend: Backend,
) -> Summary:
    """Play the games of seeds ``seed`` … ``seed + games - 1`` not yet in ``store``, store
    them, and summarise the games of those seeds (the backend is closed at the end)."""
    from splash.sim.store import records_of

    spec = store.spec
    seeds = list(range(seed, seed + games))
    done = store.done_seeds()
    todo = [s for s in seeds if s not in done]
    if len(todo) < games:
        say(
            console,
            message(
                "{done} of the {games} games are already in {file}: playing the other {todo}.",
                done=games - len(todo),
                games=games,
                file=str(store.path),
                todo=len(todo),
            ),
        )
    try:
        with progress_bar(console) as progress:
            task = progress.add_task("games", total=games, completed=games - len(todo))
            for table in backend.tables(spec, todo):
                store.add_table(table)
                progress.advance(task, table.num_rows)
    finally:
        store.flush()
        backend.close()
    store.finish()
    wanted = (
        "seed",
        "winner",
        "winner_team",
        "turns",
        "turn_cap",
        "stopped",
        "actions",
        "decisions",
        "game",
        "events",
        "won_by",
        "spontaneous",
        "boxed",
    )
    records = records_of(store.read(wanted), seeds)
    teams = len(spec.build().teams)
    measures = simulated(spec.game).measures
    return summarise(records, seats=spec.seats, teams=teams, measures=measures)


def simulate(
    game: str,
    wording: SummaryWording,
    *,
    bots: Sequence[str] | None = None,
    games: int = 100,
    seed: int = 0,
    workers: int | None = None,
    scheduler: str | None = None,
    dask: DaskMode | None = None,
    settings: Sequence[str] | None = None,
    out: Path = RESULTS,
    data: Path | None = None,
    csv: Path | None = None,
    engine: EngineChoice = EngineChoice.AUTO,
) -> None:
    """Play bot games of ``game`` on a backend and ``engine``, store one row per game in
    ``out`` (and, with ``csv``, the same rows in that CSV file), print the summary in the
    game's ``wording`` (``splash simulate GAME`` and its shortcuts)."""
    from splash.sim.store import ResultStore, write_csv

    console = make_console()
    with guarded():
        spec = GameSpec.of(game, settings or [], split_specs(list(bots or [])), data_dir=data)
        spec, note = choose_engine(spec, engine)
        if note is not None:
            say(console, note)
        store = ResultStore(out, spec)
        backend = make_backend(workers, scheduler, dask)
        summary = run_simulation(console, store, games=games, seed=seed, backend=backend)
        console.print(summary_table(summary, spec, wording))
        say(console, message("The results are in {file}.", file=str(out)))
        if csv is not None:
            write_csv(store.read(), csv)
            say(console, message("The same rows are in {file} (CSV).", file=str(csv)))
