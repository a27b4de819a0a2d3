"""``splash bash``: play against bots, referee a game at the pool, simulate bot games, print
a playtest kit."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import typer

from splash.bots import make_bot, split_specs
from splash.cli.common import (
    SEED_KEY,
    draw_seed,
    guarded,
    load_game,
    make_console,
    open_game,
    parse_team,
    say,
    seed_children,
)
from splash.cli.play_options import OtherBotsOption, ResumeOption, bots_per_seat
from splash.cli.referee import RefereeSession
from splash.cli.session import PlaySession
from splash.cli.simulate_all import (
    RESULTS,
    BotsOption,
    CsvOption,
    DaskOption,
    EngineOption,
    GamesOption,
    OutOption,
    SchedulerOption,
    SeedOption,
    SettingsOption,
    SummaryWording,
    WorkersOption,
    shortcut_settings,
    simulate,
)
from splash.core.actions import Json
from splash.core.errors import DocumentError, OptionError
from splash.core.i18n import N_, Message, message
from splash.core.outcomes import IndexedOutcomes, RandomOutcomes
from splash.core.play import Agent
from splash.games.bash.board import TEAM_LETTERS
from splash.sim.engines import EngineChoice

app = typer.Typer(
    help=N_("Splash & Bash: play against bots, referee a game at the pool, simulate."),
    no_args_is_help=True,
)


class Cards(enum.StrEnum):
    """Where the cards of a refereed game come from."""

    PRINTED = "printed"
    DIGITAL = "digital"


Teams = Annotated[int | None, typer.Option(help=N_("Number of teams, 2 to 4 (options.teams)."))]
Data = Annotated[
    Path | None,
    typer.Option(
        exists=True,
        file_okay=False,
        dir_okay=True,
        help=N_("A folder with board.toml, low_tide.toml and high_tide.toml."),
    ),
]
Save = Annotated[
    Path | None, typer.Option(help=N_("Save the game to this file after every action."))
]


def _saved_play(meta: Mapping[str, Any], seats: int) -> tuple[int, list[str]]:
    team, bots = meta.get("team", 0), meta.get("bots", [])
    if not isinstance(team, int) or not 0 <= team < seats or not isinstance(bots, list):
        raise DocumentError(message("the save does not say which team is played by whom"))
    return team, [b for b in bots if isinstance(b, str)]


@app.command(help=N_("Play one team against bots in the terminal."))
def play(
    *,
    team: Annotated[
        str | None,
        typer.Option(help=N_("Your team: a letter A to D or a number from 1 (A plays first).")),
    ] = None,
    teams: Teams = None,
    bots: OtherBotsOption = None,
    seed: Annotated[int | None, typer.Option(help=N_("Seed of the dice, cards and bots."))] = None,
    settings: SettingsOption = None,
    data: Data = None,
    save: Save = None,
    resume_from: ResumeOption = None,
) -> None:
    """Play one team against bots in the terminal."""
    console = make_console()
    with guarded():
        game, state, record = open_game(resume_from, settings, teams, data)
        if record is not None:
            saved_team, saved_bots = _saved_play(record.meta, game.num_seats)
            seat = parse_team(team, game.num_seats) if team else saved_team
            specs = split_specs(bots) if bots else saved_bots
        else:
            seat = parse_team(team or TEAM_LETTERS[0], game.num_seats)
            specs = split_specs(bots or [])
        others = [s for s in range(game.num_seats) if s != seat]
        per_seat = bots_per_seat(specs, others)
        children = seed_children(seed, 1 + game.num_seats)
        agents: dict[int, Agent] = {
            s: make_bot(spec, children[1 + s], game=game.id) for s, spec in per_seat.items()
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


@app.command(
    help=N_("Referee a real game at the pool: type the rolls, the cards and every decision.")
)
def referee(
    *,
    teams: Teams = None,
    settings: SettingsOption = None,
    cards: Annotated[
        Cards | None,
        typer.Option(
            help=N_("printed: type each card drawn; digital: the program draws (default).")
        ),
    ] = None,
    seed: Annotated[int | None, typer.Option(help=N_("Seed of the digital cards."))] = None,
    data: Data = None,
    save: Save = None,
    resume_from: ResumeOption = None,
) -> None:
    """Referee a real game at the pool: type the rolls, the cards and every decision."""
    console = make_console()
    with guarded():
        game, state, record = open_game(resume_from, settings, teams, data)
        saved_cards = record.meta.get("cards") if record is not None else None
        known = {c.value for c in Cards}
        mode = cards or (
            Cards(saved_cards)
            if isinstance(saved_cards, str) and saved_cards in known
            else Cards.DIGITAL
        )
        digital = None
        meta: dict[str, Json] = {"mode": "referee", "cards": mode.value}
        if mode is Cards.DIGITAL:
            drawn = draw_seed(seed, record.meta if record is not None else None)
            meta[SEED_KEY] = drawn
            digital = IndexedOutcomes(drawn)
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
            meta=meta,
        )
        code = session.run()
    raise typer.Exit(code)


@app.command(
    "simulate",
    help=N_("Play bot games and summarise them: the same as splash simulate bash."),
)
def simulate_command(
    *,
    games: GamesOption = 100,
    seed: SeedOption = 0,
    teams: Teams = None,
    settings: SettingsOption = None,
    bots: BotsOption = None,
    data: Data = None,
    workers: WorkersOption = None,
    scheduler: SchedulerOption = None,
    dask: DaskOption = None,
    out: OutOption = RESULTS,
    csv: CsvOption = None,
    engine: EngineOption = EngineChoice.AUTO,
) -> None:
    """Play bot games and summarise them: the same as splash simulate bash."""
    simulate(
        "bash",
        SUMMARY,
        bots=bots,
        games=games,
        seed=seed,
        workers=workers,
        scheduler=scheduler,
        dask=dask,
        settings=shortcut_settings(settings, "options.teams", teams),
        out=out,
        data=data,
        csv=csv,
        engine=engine,
    )


KitOut = Annotated[
    Path,
    typer.Option("--out", "-o", help=N_("The PDF file to write.")),
]


@app.command(
    "print",
    help=N_(
        "Write a playtest kit as a PDF: the board with its lanes, checkpoints and start"
        " squares, every card of both decks to cut out, and a page of what the settings"
        " change from the draft. Like every command of a game, it is splash bash print, not"
        " splash print bash."
    ),
)
def print_command(
    *,
    out: KitOut = Path("kit.pdf"),
    teams: Teams = None,
    settings: SettingsOption = None,
    data: Data = None,
) -> None:
    """Write a playtest kit as a PDF (see the command's help)."""
    from splash.report.kit import kit_pdf  # matplotlib, only for this command

    console = make_console()
    with guarded():
        if not out.parent.is_dir():
            raise OptionError(
                "--out",
                str(out),
                message("there is no folder {folder}", folder=str(out.parent)),
            )
        game = load_game(settings, teams, data)
        pdf = kit_pdf(game.settings, source=str(data) if data is not None else None)
        try:
            out.write_bytes(pdf)
        except OSError as error:
            raise OptionError(
                "--out",
                str(out),
                message("cannot write {file}: {error}", file=str(out), error=error.strerror),
            ) from None
        say(console, message("Playtest kit written to {file}.", file=str(out)))


def _wins(seat: int, bot: str) -> Message:
    return message("Wins of team {team} ({bot})", team=TEAM_LETTERS[seat], bot=bot)


SUMMARY = SummaryWording(
    wins=_wins,
    length=message("Game length in team turns (mean ± sd)"),
    span=message("Shortest and longest game (team turns)"),
)
"""How the summary of Splash & Bash games speaks: of teams, and of team turns."""


def _bot_line(team: str, bot: str) -> str:
    return message("team {team} is the {bot} bot", team=team, bot=bot).render()
