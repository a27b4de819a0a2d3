"""What every command shares: consoles, errors as exit code 2, games, seeds and save files."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from splash.core.actions import Json
from splash.core.documents import Field, parse_json
from splash.core.errors import ConfigError, DocumentError, OptionError, SplashError
from splash.core.i18n import Message, message
from splash.core.protocol import State
from splash.core.record import GameRecord
from splash.core.settings import parse_assignment
from splash.games.bash import BashGame
from splash.games.bash.board import TEAM_LETTERS
from splash.games.bash.render import WIDTH

USAGE_EXIT = 2
"""The exit code of a command refused for its input (settings, save files, options)."""
INTERRUPTED_EXIT = 130


def make_console(*, stderr: bool = False) -> Console:
    """A console 120 columns wide when the output is not a terminal (a pipe, a test)."""
    stream = sys.stderr if stderr else sys.stdout
    wide = not stream.isatty() and "COLUMNS" not in os.environ
    return Console(stderr=stderr, width=WIDTH if wide else None, highlight=False)


def say(console: Console, text: Message | str, style: str | None = None) -> None:
    """Print one message as plain text (never read as markup), wrapped to the console."""
    console.print(Text(text if isinstance(text, str) else text.render(), style=style or ""))


def error_line(console: Console, error: SplashError | Message) -> None:
    """Print a one-line red error."""
    text = error.localized() if isinstance(error, SplashError) else error.render()
    label = message("error").render()
    console.print(Text(f"{label}: ", style="bold red") + Text(text, style="red"), soft_wrap=True)


@contextlib.contextmanager
def guarded() -> Iterator[None]:
    """Turn configuration, option and document errors into a red line and exit code 2."""
    try:
        yield
    except (ConfigError, DocumentError) as error:
        error_line(make_console(stderr=True), error)
        raise typer.Exit(USAGE_EXIT) from None
    except KeyboardInterrupt:
        error_line(make_console(stderr=True), message("interrupted"))
        raise typer.Exit(INTERRUPTED_EXIT) from None


def load_game(settings: Sequence[str] | None, teams: int | None, data: Path | None) -> BashGame:
    """The game of the shipped (or ``data``'s) files with ``--teams`` and ``--set`` applied."""
    assignments: list[tuple[str, Any]] = []
    if teams is not None:
        assignments.append(("options.teams", teams))
    assignments += [parse_assignment(text) for text in settings or []]
    return BashGame.from_settings(assignments, data_dir=data)


def refuse_settings_with_resume(
    settings: Sequence[str] | None, teams: int | None, data: Path | None
) -> None:
    """A resumed game keeps the settings of its save: ``--set`` and its kin are refused."""
    if settings or teams is not None or data is not None:
        raise OptionError(
            "--resume",
            None,
            message("a resumed game keeps its saved settings: leave out --set, --teams and --data"),
        )


def read_record(path: Path) -> GameRecord:
    """The game record saved in ``path``; :class:`DocumentError` when it cannot be read."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise DocumentError(
            message("cannot read {file}: {error}", file=str(path), error=error.strerror)
        ) from None
    except UnicodeDecodeError as error:
        raise DocumentError(
            message(
                "{file} is not a saved game (not JSON: {error})", file=str(path), error=str(error)
            )
        ) from None
    doc = parse_json(text, what=message("the saved game {file}", file=str(path)))
    return GameRecord.from_json(Field.root(doc).as_object())


def read_saved(path: Path, game_id: str) -> GameRecord:
    """The game record saved in ``path``; :class:`DocumentError` when it cannot be read or
    holds another game than ``game_id``."""
    record = read_record(path)
    if record.game != game_id:
        raise DocumentError(
            message(
                "{file} holds a {found} game, not {expected}",
                file=str(path),
                found=record.game,
                expected=game_id,
            )
        )
    return record


def resume(path: Path) -> tuple[BashGame, State, GameRecord]:
    """The game, its state and its record, from a save file."""
    record = read_saved(path, BashGame.id)
    game = BashGame.from_config(record.config)
    return game, record.replay(game), record


def open_game(
    resume_from: Path | None,
    settings: Sequence[str] | None,
    teams: int | None,
    data: Path | None,
) -> tuple[BashGame, State, GameRecord | None]:
    """The game a command plays: the one saved in ``resume_from`` with its record (``--set``,
    ``--teams`` and ``--data`` refused), or a new one of the settings, without a record."""
    if resume_from is not None:
        refuse_settings_with_resume(settings, teams, data)
        return resume(resume_from)
    game = load_game(settings, teams, data)
    return game, game.new_initial_state(), None


def write_record(path: Path, state: State, meta: dict[str, Json]) -> None:
    """Save ``state``'s game record (its settings and every action) to ``path``, atomically:
    the file holds the old record or the new one, never part of one (a takeback rewrites the
    line of play shorter)."""
    doc = GameRecord.of(state, **meta).to_json()
    partial = path.with_name(f".{path.name}.partial")
    try:
        partial.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        os.replace(partial, path)
    except OSError as error:
        with contextlib.suppress(OSError):
            partial.unlink()
        raise DocumentError(
            message("cannot write {file}: {error}", file=str(path), error=error.strerror)
        ) from None


def seed_children(seed: int | None, count: int) -> list[np.random.SeedSequence]:
    """``count`` independent seed sequences from ``seed`` (fresh entropy when ``None``)."""
    if seed is not None and seed < 0:
        raise OptionError("--seed", seed, message("a seed is a whole number, 0 or more"))
    return np.random.SeedSequence(seed).spawn(count)


SEED_KEY = "seed"
"""The key of a save's ``meta`` that holds the seed of a referee's digital draws."""


def draw_seed(seed: int | None, saved: Mapping[str, Json] | None) -> int:
    """The seed of a referee's digital draws: ``--seed``, else the one saved with the game
    (``saved``: the save's meta), else a fresh one.  It is saved with the game: the draws
    come from (this seed, the index), so that neither a takeback nor a resumed save can
    draw again."""
    if seed is not None:
        if seed < 0:
            raise OptionError("--seed", seed, message("a seed is a whole number, 0 or more"))
        return seed
    found = (saved or {}).get(SEED_KEY)
    if found is None:
        return secrets.randbits(63)
    if isinstance(found, bool) or not isinstance(found, int) or found < 0:
        raise DocumentError(
            message(
                "the seed saved with the game is not a whole number, 0 or more: {value}",
                value=json.dumps(found),
            ),
            path=f"meta.{SEED_KEY}",
            value=found,
        )
    return found


def parse_team(text: str, teams: int) -> int:
    """The seat of a team named by letter (``A``) or number from 1 (``1`` is team A)."""
    value = text.strip().upper()
    letters = TEAM_LETTERS[:teams]
    if value in letters and value:
        return letters.index(value)
    if value.isdigit() and 1 <= int(value) <= teams:
        return int(value) - 1
    raise OptionError(
        "--team",
        text,
        message(
            "no such team: give a letter from {first} to {last} or a number from 1 to {teams}",
            first=letters[0],
            last=letters[-1],
            teams=teams,
        ),
    )


def share(count: int, total: int) -> str:
    """``"12 (40.0 %)"``."""
    return f"{count} ({100 * count / total:.1f} %)"


def summary_table(total: int, first_seed: int) -> Table:
    """The table a simulation summary fills: a title with the seeds, measure and value."""
    table = Table(
        title=message(
            "{games} games, seeds {first} to {last}",
            games=total,
            first=first_seed,
            last=first_seed + total - 1,
        ).render()
    )
    table.add_column(message("Measure").render())
    table.add_column(message("Value").render(), justify="right")
    return table


def progress_bar(console: Console) -> Progress:
    """The progress bar of the commands that play many games: games done of all, time left."""
    return Progress(
        TextColumn(message("Simulating").render()),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
    )
