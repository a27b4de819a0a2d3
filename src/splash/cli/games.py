"""The command line's table of games: :data:`GAME_COMMANDS`, keyed by game id, and
``splash simulate GAME``, which looks the game up there.

Each game has its own sub-command (``splash bash ...``, ``splash tower ...``) and the
wording of its simulation summary; the commands that take a ``GAME`` argument (``splash
simulate``, ``splash ladder``, ``splash sweep``) offer every game of
:data:`splash.games.GAMES`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass

import typer

from splash.cli import bash, tower
from splash.cli.simulate_all import (
    RESULTS,
    BotsOption,
    CsvOption,
    DaskOption,
    DataOption,
    EngineOption,
    GameArgument,
    GamesOption,
    OutOption,
    SchedulerOption,
    SeedOption,
    SettingsOption,
    SummaryWording,
    WorkersOption,
    simulate,
)
from splash.core.i18n import message
from splash.sim.engines import EngineChoice


@dataclass(frozen=True)
class GameCommands:
    """One game on the command line."""

    app: typer.Typer
    """``splash <game> ...``: play, referee, simulate."""
    summary: SummaryWording
    """How the summary of ``splash simulate`` speaks of the game."""


GAME_COMMANDS: Mapping[str, GameCommands] = {
    "bash": GameCommands(app=bash.app, summary=bash.SUMMARY),
    "tower": GameCommands(app=tower.app, summary=tower.SUMMARY),
}
"""The games with commands of their own (``splash bash ...``), keyed by game id; every
game of :data:`splash.games.GAMES`, in the table or not, is a ``GAME`` of ``splash
simulate``, ``splash ladder`` and ``splash sweep``."""


GENERIC_SUMMARY = dataclasses.replace(
    tower.SUMMARY,
    length=message("Decisions per game (mean ± sd)"),
    span=message("Fewest and most decisions in a game"),
)
"""How the summary of ``splash simulate`` speaks of a game without commands of its own: of
seats, and of decisions (its ``turns`` column)."""


def summary_wording(game_id: str) -> SummaryWording:
    """How the summary of ``splash simulate`` speaks of ``game_id``."""
    commands = GAME_COMMANDS.get(game_id)
    return commands.summary if commands is not None else GENERIC_SUMMARY


def simulate_all_command(
    game: GameArgument,
    *,
    bots: BotsOption = None,
    games: GamesOption = 100,
    seed: SeedOption = 0,
    workers: WorkersOption = None,
    scheduler: SchedulerOption = None,
    dask: DaskOption = None,
    settings: SettingsOption = None,
    out: OutOption = RESULTS,
    data: DataOption = None,
    csv: CsvOption = None,
    engine: EngineOption = EngineChoice.AUTO,
) -> None:
    """Play bot games on a backend, store one row per game, summarise wins and lengths."""
    game_id = str(game)
    simulate(
        game_id,
        summary_wording(game_id),
        bots=bots,
        games=games,
        seed=seed,
        workers=workers,
        scheduler=scheduler,
        dask=dask,
        settings=settings,
        out=out,
        data=data,
        csv=csv,
        engine=engine,
    )
