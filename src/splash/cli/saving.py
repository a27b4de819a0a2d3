"""What every interactive session shares: a prompt that knows ``save``, ``quit`` and, for a
referee, ``undo``, and the loop that saves the game when the person quits.

A takeback is built on the action log: the state is rebuilt by replaying the line of play
up to the entry taken back, never undone by a second copy of the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Generic, TypeVar, cast

from rich.console import Console

from splash.cli.common import error_line, say, write_record
from splash.cli.prompt import Command, Prompter, Quit, TakeBack
from splash.core.actions import Action, Json
from splash.core.errors import DocumentError
from splash.core.i18n import message
from splash.core.protocol import State
from splash.core.record import GameRecord

S = TypeVar("S", bound=State)


class SavingCommands(Generic[S]):
    """``save [FILE]`` and ``quit`` at the prompt (and ``undo`` with ``takebacks``), and the
    loop that saves when the person quits, for a session with a state, a console and a save
    path."""

    def __init__(
        self,
        console: Console,
        state: S,
        *,
        save_path: Path | None,
        meta: dict[str, Json],
        commands: Mapping[str, Command],
        takebacks: bool = False,
    ) -> None:
        """The prompt knows ``save``, ``quit``, the session's own ``commands`` and, with
        ``takebacks``, ``undo``."""
        self.console = console
        self.state = state
        self.save_path = save_path
        self.meta = meta
        known: dict[str, Command] = {"save": self._cmd_save, "quit": self._cmd_quit}
        if takebacks:
            known["undo"] = self._cmd_undo
        self.prompter = Prompter(console, {**known, **commands})

    def run_until_end(self, step: Callable[[], None], end: Callable[[], None]) -> int:
        """Call ``step`` until the game ends, then ``end``; when the person quits, save the game
        (if it has a save file) and say it is unfinished; after ``undo``, go on from the line
        of play as it is after the takeback.  The exit code."""
        while True:
            try:
                while not self.state.is_terminal():
                    step()
            except Quit:
                self.console.print()
                if self.save_path is not None:
                    self.save(self.save_path)
                say(self.console, message("The game is left unfinished."))
                return 0
            except TakeBack as back:
                self.take_back(back.to)
                continue
            end()
            return 0

    # ----- takebacks ---------------------------------------------------------------------

    def begins_entry(self, state: S, action: Action, previous: Action | None) -> bool:
        """Whether ``action``, applied to ``state`` after ``previous``, began an entry that
        a person typed (what ``undo`` takes back, with every action after it); a session
        whose program plays some actions by itself (an only choice, a digital draw) says
        which here."""
        return True

    def last_entry(self) -> int | None:
        """Where the last entry typed began in the line of play (``None`` at the start, or
        when the program played every action so far)."""
        state = cast(S, self.state.game.new_initial_state())
        last: int | None = None
        previous: Action | None = None
        for index, action in enumerate(self.state.history):
            if self.begins_entry(state, action, previous):
                last = index
            state.apply(action)
            previous = action
        return last

    def take_back(self, to: int) -> None:
        """Rebuild the state from the first ``to`` actions of the line of play, say so and
        save it (the save file then holds the line as it is after the takeback)."""
        record = GameRecord.of(self.state, **self.meta)
        self.state = cast(S, record.replay(self.state.game, upto=to))
        self.restarted()
        say(
            self.console,
            message("The last entry is taken back: the game is as it was before it."),
            "bold",
        )
        if self.save_path is not None:
            self.save(self.save_path, quiet=True)

    def restarted(self) -> None:
        """Forget what was shown of the state before a takeback (a subclass's hook)."""

    # ----- commands ----------------------------------------------------------------------

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

    def _cmd_undo(self, rest: str) -> None:
        if rest:
            error_line(
                self.console,
                message("undo takes back the last entry: type undo alone, not {entry}", entry=rest),
            )
            return
        to = self.last_entry()
        if to is None:
            error_line(
                self.console,
                message("there is nothing to take back: no entry has been typed in this game"),
            )
            return
        raise TakeBack(to)
