"""``splash train bash``: learn a Splash & Bash agent by TD(λ) self-play on the compiled core
(:mod:`splash.learn.trainer`).

``--games N --workers K --seed S --out agent.npz`` gives an agent that depends on (S, K, N)
alone.  ``--minutes M`` stops at the end of the first round past M minutes of training and
records the games played; the same command again, on the same ``--out``, goes on to N.  A
progress bar shows the games, the positions learned from and, every ``--every`` games and at
the end, the win rate of ply 1 against the compiled greedy bot on 200 fixed games (not
counted as training time).  The agent plays as ``td:path=agent.npz``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from splash.cli.common import error_line, guarded, make_console, say
from splash.cli.help_text import LocalisedGroup
from splash.core.i18n import N_, message
from splash.fast.errors import FastLimitError
from splash.learn.evaluate import Match
from splash.learn.td import TDSettings
from splash.learn.trainer import EVERY, Report, RunSpec, run

DEFAULTS = TDSettings()

app = typer.Typer(
    name="train",
    cls=LocalisedGroup,
    help=N_("Learn an agent by self-play."),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)


def _rate(match: Match | None) -> str:
    if match is None:
        return message("not measured yet").render()
    low, high = match.interval()
    return message(
        "{rate:.1f} % ({low:.1f} - {high:.1f} %) over {games} games",
        rate=100 * match.rate,
        low=100 * low,
        high=100 * high,
        games=match.games,
    ).render()


@app.command(
    "bash",
    help=N_(
        "Learn a Splash & Bash agent by TD(lambda) self-play on the compiled core; it plays"
        " as td:path=FILE."
    ),
)
def train_bash(
    *,
    games: Annotated[int, typer.Option(help=N_("Games of self-play in all."))],
    out: Annotated[
        Path, typer.Option(help=N_("The agent file; an earlier run's file is gone on with."))
    ],
    seed: Annotated[int, typer.Option(help=N_("Seed of the run."))] = 0,
    workers: Annotated[int, typer.Option(help=N_("Worker processes."))] = 1,
    minutes: Annotated[
        float | None,
        typer.Option(help=N_("Stop after this many minutes of training (at a round's end).")),
    ] = None,
    every: Annotated[
        int, typer.Option(help=N_("Games between the evaluations against greedy."))
    ] = EVERY,
    teams: Annotated[int, typer.Option(help=N_("Teams at the table."))] = 2,
    hidden: Annotated[
        int, typer.Option(help=N_("Hidden units of the value network."))
    ] = DEFAULTS.hidden,
    alpha: Annotated[float, typer.Option(help=N_("The step size of TD learning."))] = (
        DEFAULTS.alpha
    ),
    lam: Annotated[
        float, typer.Option("--lambda", help=N_("TD(lambda)'s lambda: the trace's decay."))
    ] = DEFAULTS.lam,
    epsilon: Annotated[
        float, typer.Option(help=N_("The rate of random choices while learning."))
    ] = DEFAULTS.epsilon,
) -> None:
    """Learn a Splash & Bash agent by TD(lambda) self-play."""
    console = make_console()
    with guarded():
        settings = TDSettings(hidden=hidden, alpha=alpha, lam=lam, epsilon=epsilon)
        spec = RunSpec(out, games, seed, workers, teams, minutes, every, settings=settings)
        with Progress(
            TextColumn(message("Training").render()),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("{task.fields[info]}"),
            console=console,
        ) as progress:
            task = progress.add_task("games", total=games, info="")

            def report(done: Report) -> None:
                info = message(
                    "{positions} positions; against greedy: {rate}",
                    positions=done.positions,
                    rate=_rate(done.evaluation),
                ).render()
                progress.update(task, completed=done.played, info=info)

            try:
                agent = run(spec, report)
            except FastLimitError as error:
                error_line(make_console(stderr=True), error)
                raise typer.Exit(1) from None
        training = agent.training
        say(
            console,
            message(
                "{played} of {games} games played in {minutes:.1f} minutes of training; "
                "the agent is in {file}.",
                played=training.played,
                games=training.games,
                minutes=training.seconds / 60,
                file=str(out),
            ),
        )
