"""``splash tower``: Splash!, the stacking game: referee a game played with real pieces,
play one seat against bots with the physics ruling every placement, simulate bot games.

The physics (MuJoCo) is imported by ``play`` and ``simulate`` only, when they run.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from splash.cli.common import (
    SEED_KEY,
    draw_seed,
    guarded,
    make_console,
    read_saved,
    say,
    seed_children,
)
from splash.cli.play_options import OtherBotsOption, ResumeOption, bots_per_seat
from splash.cli.simulate_all import (
    RESULTS,
    BotsOption,
    CsvOption,
    DaskOption,
    GamesOption,
    OutOption,
    SchedulerOption,
    SeedOption,
    SummaryWording,
    WorkersOption,
    shortcut_settings,
    simulate,
)
from splash.cli.tower_referee import TowerReferee
from splash.cli.tower_view import TEAM_LETTERS, seat_name
from splash.core.actions import Json
from splash.core.errors import DocumentError, OptionError
from splash.core.i18n import N_, Message, message
from splash.core.outcomes import IndexedOutcomes, OutcomeProvider, RandomOutcomes
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

PHYSICS_PREFIX = "physics."
"""The keys of the physics layer's settings start with this (as in
:mod:`splash.physics.settings`, which referee mode does not import)."""
DEAL_DIGITAL = "digital"
DEAL_TYPED = "typed"


def load_tower_game(settings: Sequence[str] | None, players: int | None, **hooks: Any) -> TowerGame:
    """The game with the default options, ``--players`` and the ``--set`` assignments
    (``hooks``: the ``fits`` and ``pose_check`` of whoever judges placements)."""
    assignments: list[tuple[str, Any]] = []
    if players is not None:
        assignments.append(("options.players", players))
    assignments += [parse_assignment(text) for text in settings or []]
    return TowerGame.from_settings(assignments, **hooks)


def resume_tower(path: Path, **hooks: Any) -> tuple[TowerGame, TowerState, GameRecord]:
    """The game, its state and its record, from a save file of a Splash! game (``hooks``
    as for :func:`load_tower_game`)."""
    record = read_saved(path, TowerGame.id)
    game = TowerGame.from_config(record.config, **hooks)
    state = record.replay(game)
    if not isinstance(state, TowerState):
        raise DocumentError(message("{file} is not a saved Splash! game", file=str(path)))
    return game, state, record


def open_tower_game(
    resume_from: Path | None,
    settings: Sequence[str] | None,
    players: int | None,
    **hooks: Any,
) -> tuple[TowerGame, TowerState, GameRecord | None]:
    """The game a command plays: the one saved in ``resume_from`` with its record (``--set``
    and ``--players`` refused), or a new one of the settings, without a record (``hooks`` as
    for :func:`load_tower_game`)."""
    if resume_from is not None:
        if settings or players is not None:
            raise OptionError(
                "--resume",
                None,
                message("a resumed game keeps its saved settings: leave out --set and --players"),
            )
        return resume_tower(resume_from, **hooks)
    game = load_tower_game(settings, players, **hooks)
    return game, game.new_initial_state(), None


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


@app.command(
    help=N_("Referee a game with real pieces: type each decision and what each placement did.")
)
def referee(
    *,
    players: Players = None,
    settings: Settings = None,
    save: Save = None,
    resume_from: ResumeOption = None,
    seed: Annotated[
        int | None,
        typer.Option(help=N_("With options.deal=random: the program deals, with this seed.")),
    ] = None,
) -> None:
    """Referee a game with real pieces: type each decision and what each placement did."""
    console = make_console()
    with guarded():
        for key, value in (parse_assignment(text) for text in settings or []):
            if key.startswith(PHYSICS_PREFIX):
                raise OptionError(
                    key,
                    value,
                    message(
                        "people rule the placements in referee mode: the physics settings"
                        " do not apply"
                    ),
                )
        game, state, record = open_tower_game(resume_from, settings, players)
        saved_deal = record.meta.get("deal") if record is not None else None
        digital: OutcomeProvider | None = None
        meta: dict[str, Json] = {"mode": "referee", "deal": DEAL_TYPED}
        if game.options.deal == "random" and (seed is not None or saved_deal == DEAL_DIGITAL):
            drawn = draw_seed(seed, record.meta if record is not None else None)
            digital = IndexedOutcomes(drawn)
            meta.update({"deal": DEAL_DIGITAL, SEED_KEY: drawn})
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


def _saved_play(meta: Mapping[str, Any], seats: int) -> tuple[int, list[str]]:
    if meta.get("mode") != "play":
        raise DocumentError(
            message("this save is not a game against bots: go on with it with splash tower referee")
        )
    seat, bots = meta.get("seat", 0), meta.get("bots", [])
    if not isinstance(seat, int) or not 0 <= seat < seats or not isinstance(bots, list):
        raise DocumentError(message("the save does not say which seat is played by whom"))
    return seat, [b for b in bots if isinstance(b, str)]


def _play(
    console: Console,
    game: TowerGame,
    state: TowerState,
    *,
    person: int,
    specs: Sequence[str],
    seed: int | None,
    png: Path,
    save_path: Path | None,
    ruling: str,
) -> int:
    """Seat the person and the bots, and play; the exit code.  The seed sequence of ``seed``
    is split into the physics' tremor, the random deal and one child per seat's bot; the
    placements are ruled as ``ruling`` (``physics.ruling``) says."""
    from splash.bots import make_bot
    from splash.cli.tower_play import TowerPlay, steadiness_text
    from splash.core.outcomes import RoutedOutcomes
    from splash.physics.games import placement_outcomes

    seats = game.options.players
    if not 0 <= person < seats:
        raise OptionError(
            "--seat", person, message("a seat is a number from 0 to {last}", last=seats - 1)
        )
    bots = bots_per_seat(specs, [s for s in range(seats) if s != person])
    children = seed_children(seed, 2 + seats)
    agents = {s: make_bot(spec, children[2 + s], game=game.id) for s, spec in bots.items()}
    provider = placement_outcomes([(f"{PHYSICS_PREFIX}ruling", ruling)], children[0])
    outcomes = RoutedOutcomes({"placement": provider}, RandomOutcomes(children[1]))
    meta: dict[str, Json] = {
        "mode": "play",
        "seat": person,
        "bots": [bots.get(s) for s in range(seats)],
    }
    if ruling != "simulation":
        meta["ruling"] = ruling
    say(
        console,
        message(
            "Splash!: you play {seat}; {bots}. The physics rules every placement. Seats are"
            " numbered from 0, clockwise; type help at any prompt.",
            seat=seat_name(person),
            bots=", ".join(_bot_line(seat_name(s), b) for s, b in bots.items()),
        ),
        "bold",
    )
    hand = steadiness_text(game.options.steadiness_of(person))
    say(console, message("Your hand (steadiness, TD14): {hand}.", hand=hand))
    session = TowerPlay(
        console,
        game,
        state,
        person=person,
        bots=agents,
        outcomes=outcomes,
        png=png,
        save_path=save_path,
        meta=meta,
    )
    return session.run()


@app.command(help=N_("Play one seat against bots; the physics rules every placement."))
def play(
    *,
    players: Players = None,
    seat: Annotated[
        int | None, typer.Option(help=N_("Your seat, from 0 (seat 0 gives first)."))
    ] = None,
    bots: OtherBotsOption = None,
    seed: Annotated[
        int | None, typer.Option(help=N_("Seed of the deal, the hands' tremor and the bots."))
    ] = None,
    settings: Settings = None,
    png: Annotated[
        Path, typer.Option("--png", help=N_("Draw the tower into this PNG after each placement."))
    ] = Path("tower.png"),
    save: Save = None,
    resume_from: ResumeOption = None,
) -> None:
    """Play one seat against bots; the physics rules every placement."""
    from splash.bots import split_specs
    from splash.physics.provider import pose_check
    from splash.physics.settings import physics_settings

    console = make_console()
    with guarded():
        assignments = [parse_assignment(text) for text in settings or []]
        given = [key for key, _ in assignments if key.startswith(PHYSICS_PREFIX)]
        ruling = physics_settings(assignments).ruling
        rules = [t for t, (k, _) in zip(settings or [], assignments, strict=True) if k not in given]
        game, state, record = open_tower_game(
            resume_from, rules or None, players, pose_check=pose_check
        )
        if record is not None and not given:
            saved = record.meta.get("ruling", ruling)
            ruling = physics_settings([(f"{PHYSICS_PREFIX}ruling", saved)]).ruling
        if record is not None:
            saved_seat, saved_bots = _saved_play(record.meta, game.num_seats)
            person = seat if seat is not None else saved_seat
            specs = split_specs(bots) if bots else saved_bots
        else:
            person = seat if seat is not None else 0
            specs = split_specs(bots or [])
        code = _play(
            console,
            game,
            state,
            person=person,
            specs=specs,
            seed=seed,
            png=png,
            save_path=save,
            ruling=ruling,
        )
    raise typer.Exit(code)


@app.command(
    "simulate",
    help=N_(
        "Play bot games with the physics and summarise them: the same as splash simulate tower."
    ),
)
def simulate_command(
    *,
    games: GamesOption = 10,
    players: Players = None,
    seed: SeedOption = 0,
    settings: Settings = None,
    bots: BotsOption = None,
    spread: Annotated[
        float,
        typer.Option(
            min=0.0,
            help=N_("How far over the target's top the random bots place (1: all of it)."),
        ),
    ] = 1.0,
    workers: WorkersOption = None,
    scheduler: SchedulerOption = None,
    dask: DaskOption = None,
    out: OutOption = RESULTS,
    csv: CsvOption = None,
) -> None:
    """Play bot games with the physics and summarise them: the same as splash simulate tower."""
    from splash.bots import split_specs

    specs = split_specs(bots or ["random"])
    if spread != 1.0:
        specs = [f"random:spread={spread:g}" if spec == "random" else spec for spec in specs]
    simulate(
        "tower",
        SUMMARY,
        bots=specs,
        games=games,
        seed=seed,
        workers=workers,
        scheduler=scheduler,
        dask=dask,
        settings=shortcut_settings(settings, "options.players", players),
        out=out,
        csv=csv,
    )


def _wins(seat: int, bot: str) -> Message:
    return message("Wins of seat {seat} ({bot})", seat=seat, bot=bot)


SUMMARY = SummaryWording(
    wins=_wins,
    length=message("Placements per game (mean ± sd)"),
    span=message("Fewest and most placements in a game"),
)
"""How the summary of Splash! games speaks: of seats, and of placements."""


def _bot_line(seat: object, bot: str) -> str:
    return message("{seat} is the {bot} bot", seat=seat, bot=bot).render()
