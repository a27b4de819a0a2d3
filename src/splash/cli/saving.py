"""The commands every interactive session offers at its prompt: save and quit."""

from __future__ import annotations

from pathlib import Path
from typing import Generic, TypeVar

from rich.console import Console

from splash.cli.common import error_line, say, write_record
from splash.cli.prompt import Quit
from splash.core.actions import Json
from splash.core.errors import DocumentError
from splash.core.i18n import message
from splash.core.protocol import State

S = TypeVar("S", bound=State)


class SavingCommands(Generic[S]):
    """``save [FILE]`` and ``quit`` for a session with a state, a console and a save path."""

    console: Console
    state: S
    save_path: Path | None
    meta: dict[str, Json]

    def save(self, path: Path, *, quiet: bool = False) -> None:
        """Save the game record to ``path`` (an error is printed, and the game goes on)."""
        try:
            write_record(path, self.state, self.meta)
        except DocumentError as error:
            error_line(self.console, error)
            return
        if not quiet:
            say(self.console, message("The game is saved in {file}.", file=str(path)))

    def _cmd_save(self, rest: str) -> None:
        path = Path(rest) if rest else self.save_path
        if path is None:
            error_line(self.console, message("say where: save FILE"))
            return
        self.save(path)

    def _cmd_quit(self, rest: str) -> None:
        raise Quit
