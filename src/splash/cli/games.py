"""The command line's table of games: :data:`GAME_COMMANDS`, keyed by game id, and
``splash simulate GAME``, which looks the game up there.

Each game has its own sub-command (``splash bash ...``, ``splash tower ...``) and the
wording of its simulation summary; the commands that take a ``GAME`` argument (``splash
simulate``, ``splash ladder``, ``splash sweep``) offer every game of
:data:`splash.games.GAMES`.
"""

from __future__ import annotations

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
"""Every game of :data:`splash.games.GAMES`, on the command line."""


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
        GAME_COMMANDS[game_id].summary,
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
