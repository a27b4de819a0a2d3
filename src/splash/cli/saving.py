"""What every interactive session shares: a prompt that knows ``save`` and ``quit``, and the
loop that saves the game when the person quits."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Generic, TypeVar

from rich.console import Console

from splash.cli.common import error_line, say, write_record
from splash.cli.prompt import Command, Prompter, Quit
from splash.core.actions import Json
from splash.core.errors import DocumentError
from splash.core.i18n import message
from splash.core.protocol import State

S = TypeVar("S", bound=State)


class SavingCommands(Generic[S]):
    """``save [FILE]`` and ``quit`` at the prompt, and the loop that saves when the person
    quits, for a session with a state, a console and a save path."""

    def __init__(
        self,
        console: Console,
        state: S,
        *,
        save_path: Path | None,
        meta: dict[str, Json],
        commands: Mapping[str, Command],
    ) -> None:
        """The prompt knows ``save``, ``quit`` and the session's own ``commands``."""
        self.console = console
        self.state = state
        self.save_path = save_path
        self.meta = meta
        self.prompter = Prompter(
            console, {"save": self._cmd_save, "quit": self._cmd_quit, **commands}
        )

    def run_until_end(self, step: Callable[[], None], end: Callable[[], None]) -> int:
        """Call ``step`` until the game ends, then ``end``; when the person quits, save the game
        (if it has a save file) and say it is unfinished.  The exit code."""
        try:
            while not self.state.is_terminal():
                step()
        except Quit:
            self.console.print()
            if self.save_path is not None:
                self.save(self.save_path)
            say(self.console, message("The game is left unfinished."))
            return 0
        end()
        return 0

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
