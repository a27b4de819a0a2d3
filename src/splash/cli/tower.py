"""``splash tower``: Splash!, the stacking game: referee a game played with real pieces.

``play`` and ``simulate`` join this app later; the options below are shared with them.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from splash.cli.common import guarded, make_console, read_record, say, seed_children
from splash.cli.tower_referee import TowerReferee
from splash.cli.tower_view import TEAM_LETTERS
from splash.core.actions import Json
from splash.core.errors import DocumentError, OptionError
from splash.core.i18n import N_, message
from splash.core.outcomes import OutcomeProvider, RandomOutcomes
from splash.core.record import GameRecord
from splash.core.settings import parse_assignment
from splash.games.tower import TowerGame, TowerState

app = typer.Typer(
    help=N_("Splash!: referee a game with real pieces, play, simulate."),
    no_args_is_help=True,
)

Players = Annotated[
    int | None, typer.Option(help=N_("Number of players, 2 to 6 (options.players)."))
]
Settings = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        metavar="KEY=VALUE",
        help=N_("Change an option, e.g. --set options.placement=top (repeatable)."),
    ),
]
Save = Annotated[
    Path | None, typer.Option(help=N_("Save the game to this file after every entry."))
]
Resume = Annotated[
    Path | None, typer.Option("--resume", help=N_("Go on with a game saved in this file."))
]

DEAL_DIGITAL = "digital"
DEAL_TYPED = "typed"


def load_tower_game(settings: Sequence[str] | None, players: int | None) -> TowerGame:
    """The game with the default options, ``--players`` and the ``--set`` assignments."""
    assignments: list[tuple[str, Any]] = []
    if players is not None:
        assignments.append(("options.players", players))
    assignments += [parse_assignment(text) for text in settings or []]
    return TowerGame.from_settings(assignments)


def resume_tower(path: Path) -> tuple[TowerGame, TowerState, GameRecord]:
    """The game, its state and its record, from a save file of a Splash! game."""
    record = read_record(path)
    if record.game != TowerGame.id:
        raise DocumentError(
            message(
                "{file} holds a {found} game, not {expected}",
                file=str(path),
                found=record.game,
                expected=TowerGame.id,
            )
        )
    game = TowerGame.from_config(record.config)
    state = record.replay(game)
    if not isinstance(state, TowerState):
        raise DocumentError(message("{file} is not a saved Splash! game", file=str(path)))
    return game, state, record


def _describe(game: TowerGame) -> str:
    options = game.options
    parts = [
        message("{players} players", players=options.players).render(),
        message("placement {placement}", placement=options.placement).render(),
        message("deal {deal}", deal=options.deal).render(),
    ]
    if options.teams:
        parts += [
            message(
                "team {team}: seats {seats}",
                team=TEAM_LETTERS[team.id],
                seats=", ".join(str(s) for s in team.seats),
            ).render()
            for team in game.teams
        ]
    return ", ".join(parts)


@app.command()
def referee(
    *,
    players: Players = None,
    settings: Settings = None,
    save: Save = None,
    resume_from: Resume = None,
    seed: Annotated[
        int | None,
        typer.Option(help=N_("With options.deal=random: the program deals, with this seed.")),
    ] = None,
) -> None:
    """Referee a game with real pieces: type each decision and what each placement did."""
    console = make_console()
    with guarded():
        saved_deal: object = None
        if resume_from is not None:
            if settings or players is not None:
                raise OptionError(
                    "--resume",
                    None,
                    message(
                        "a resumed game keeps its saved settings: leave out --set and --players"
                    ),
                )
            game, state, record = resume_tower(resume_from)
            saved_deal = record.meta.get("deal")
        else:
            game = load_tower_game(settings, players)
            state = game.new_initial_state()
        digital: OutcomeProvider | None = None
        if game.options.deal == "random" and (seed is not None or saved_deal == DEAL_DIGITAL):
            digital = RandomOutcomes(seed_children(seed, 1)[0])
        meta: dict[str, Json] = {
            "mode": "referee",
            "deal": DEAL_DIGITAL if digital is not None else DEAL_TYPED,
        }
        say(
            console,
            message(
                "Splash!, referee mode: {settings}. Seats are numbered from 0, clockwise;"
                " type help at any prompt.",
                settings=_describe(game),
            ),
            "bold",
        )
        session = TowerReferee(console, game, state, digital=digital, save_path=save, meta=meta)
        code = session.run()
    raise typer.Exit(code)
