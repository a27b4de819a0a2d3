"""``splash bash``: play against bots, referee a game at the pool, simulate bot games."""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from splash.bots import make_bot, split_specs
from splash.cli.common import (
    guarded,
    load_game,
    make_console,
    parse_team,
    refuse_settings_with_resume,
    resume,
    say,
    seed_children,
)
from splash.cli.referee import RefereeSession
from splash.cli.session import PlaySession
from splash.cli.simulate_all import (
    DaskOption,
    GameId,
    OutOption,
    SchedulerOption,
    WorkersOption,
    simulate_all_command,
)
from splash.core.actions import Json
from splash.core.errors import DocumentError, OptionError
from splash.core.i18n import N_, message
from splash.core.outcomes import RandomOutcomes
from splash.core.play import Agent
from splash.core.protocol import State
from splash.games.bash import BashGame
from splash.games.bash.board import TEAM_LETTERS

app = typer.Typer(
    help=N_("Splash & Bash: play against bots, referee a game at the pool, simulate."),
    no_args_is_help=True,
)


class Cards(enum.StrEnum):
    """Where the cards of a refereed game come from."""

    PRINTED = "printed"
    DIGITAL = "digital"


Teams = Annotated[int | None, typer.Option(help=N_("Number of teams, 2 to 4 (options.teams)."))]
Settings = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        metavar="KEY=VALUE",
        help=N_("Change a setting, e.g. --set board.lanes.outer=36 (repeatable)."),
    ),
]
Data = Annotated[
    Path | None,
    typer.Option(help=N_("A folder with board.toml, low_tide.toml and high_tide.toml.")),
]
Bots = Annotated[
    list[str] | None,
    typer.Option(help=N_("Bots for the other seats, in seat order: random,... (last repeats).")),
]
Save = Annotated[
    Path | None, typer.Option(help=N_("Save the game to this file after every action."))
]
Resume = Annotated[
    Path | None, typer.Option("--resume", help=N_("Go on with a game saved in this file."))
]


def _per_seat(specs: Sequence[str], seats: Sequence[int]) -> dict[int, str]:
    given = list(specs) or ["random"]
    if len(given) > len(seats):
        raise OptionError(
            "--bots",
            ",".join(given),
            message("{given} bots for {seats} seats", given=len(given), seats=len(seats)),
        )
    return {seat: given[min(i, len(given) - 1)] for i, seat in enumerate(seats)}


def _saved_play(meta: Mapping[str, Any], seats: int) -> tuple[int, list[str]]:
    team, bots = meta.get("team", 0), meta.get("bots", [])
    if not isinstance(team, int) or not 0 <= team < seats or not isinstance(bots, list):
        raise DocumentError(message("the save does not say which team is played by whom"))
    return team, [b for b in bots if isinstance(b, str)]


@app.command()
def play(
    *,
    team: Annotated[
        str | None,
        typer.Option(help=N_("Your team: a letter A to D or a number from 1 (A plays first).")),
    ] = None,
    teams: Teams = None,
    bots: Bots = None,
    seed: Annotated[int | None, typer.Option(help=N_("Seed of the dice, cards and bots."))] = None,
    settings: Settings = None,
    data: Data = None,
    save: Save = None,
    resume_from: Resume = None,
) -> None:
    """Play one team against bots in the terminal."""
    console = make_console()
    with guarded():
        state: State
        if resume_from is not None:
            refuse_settings_with_resume(settings, teams, data)
            game, state, record = resume(resume_from)
            saved_team, saved_bots = _saved_play(record.meta, game.num_seats)
            seat = parse_team(team, game.num_seats) if team else saved_team
            specs = split_specs(bots) if bots else saved_bots
        else:
            game = load_game(settings, teams, data)
            state = game.new_initial_state()
            seat = parse_team(team or TEAM_LETTERS[0], game.num_seats)
            specs = split_specs(bots or [])
        others = [s for s in range(game.num_seats) if s != seat]
        per_seat = _per_seat(specs, others)
        children = seed_children(seed, 1 + game.num_seats)
        agents: dict[int, Agent] = {
            s: make_bot(spec, children[1 + s]) for s, spec in per_seat.items()
        }
        meta: dict[str, Json] = {
            "mode": "play",
            "team": seat,
            "bots": [per_seat.get(s) for s in range(game.num_seats)],
        }
        say(
            console,
            message(
                "Splash & Bash: you play team {team}; {bots}. Type help at any prompt.",
                team=TEAM_LETTERS[seat],
                bots=", ".join(_bot_line(TEAM_LETTERS[s], b) for s, b in per_seat.items()),
            ),
            "bold",
        )
        session = PlaySession(
            console,
            game,
            state,
            person=seat,
            bots=agents,
            outcomes=RandomOutcomes(children[0]),
            save_path=save,
            meta=meta,
        )
        code = session.run()
    raise typer.Exit(code)


@app.command()
def referee(
    *,
    teams: Teams = None,
    settings: Settings = None,
    cards: Annotated[
        Cards | None,
        typer.Option(
            help=N_("printed: type each card drawn; digital: the program draws (default).")
        ),
    ] = None,
    seed: Annotated[int | None, typer.Option(help=N_("Seed of the digital cards."))] = None,
    data: Data = None,
    save: Save = None,
    resume_from: Resume = None,
) -> None:
    """Referee a real game at the pool: type the rolls, the cards and every decision."""
    console = make_console()
    with guarded():
        game: BashGame
        state: State
        saved_cards: object = None
        if resume_from is not None:
            refuse_settings_with_resume(settings, teams, data)
            game, state, record = resume(resume_from)
            saved_cards = record.meta.get("cards")
        else:
            game = load_game(settings, teams, data)
            state = game.new_initial_state()
        known = {c.value for c in Cards}
        mode = cards or (
            Cards(saved_cards)
            if isinstance(saved_cards, str) and saved_cards in known
            else Cards.DIGITAL
        )
        digital = None
        if mode is Cards.DIGITAL:
            digital = RandomOutcomes(seed_children(seed, 1)[0])
        say(
            console,
            message(
                "Splash & Bash, referee mode: {teams} teams, {cards} cards. The screen shows no"
                " team's cards. Type help at any prompt.",
                teams=game.num_seats,
                cards=mode.value,
            ),
            "bold",
        )
        session = RefereeSession(
            console,
            game,
            state,
            digital=digital,
            save_path=save,
            meta={"mode": "referee", "cards": mode.value},
        )
        code = session.run()
    raise typer.Exit(code)


@app.command("simulate")
def simulate_command(
    *,
    games: Annotated[int, typer.Option(min=1, help=N_("How many games."))] = 100,
    seed: Annotated[
        int, typer.Option(min=0, help=N_("Seed of the first game (then +1 each)."))
    ] = 0,
    teams: Teams = None,
    settings: Settings = None,
    bots: Annotated[
        list[str] | None,
        typer.Option(help=N_("Bots for the seats, in seat order: random,... (last repeats).")),
    ] = None,
    data: Data = None,
    workers: WorkersOption = None,
    scheduler: SchedulerOption = None,
    dask: DaskOption = None,
    out: OutOption = Path("RESULTS.parquet"),
) -> None:
    """Play bot games and summarise them: the same as splash simulate bash."""
    extra = [f"options.teams={teams}"] if teams is not None else []
    simulate_all_command(
        GameId.BASH,
        bots=bots,
        games=games,
        seed=seed,
        workers=workers,
        scheduler=scheduler,
        dask=dask,
        settings=[*(settings or []), *extra],
        out=out,
        data=data,
    )


def _bot_line(team: str, bot: str) -> str:
    return message("team {team} is the {bot} bot", team=team, bot=bot).render()
