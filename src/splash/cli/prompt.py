"""Reading answers at a prompt: commands, die rolls and cards typed by people."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence

from rich.console import Console
from rich.text import Text

from splash.cli.choices import EntryError, aliases, normalise
from splash.core.i18n import Message, message
from splash.games.bash.names import name

Command = Callable[[str], None]
"""A prompt command: it receives the rest of the line (``save game.json`` → ``game.json``)."""


class Quit(Exception):  # noqa: N818
    """The person left the game: ``quit``, or the end of the input."""


class TakeBack(Exception):  # noqa: N818
    """The person typed ``undo``: the line of play goes back to its first ``to`` actions,
    where the entry taken back began."""

    def __init__(self, to: int) -> None:
        super().__init__(to)
        self.to = to


class Prompter:
    """Reads entries from a person; the words of ``commands`` are handled at every prompt."""

    def __init__(self, console: Console, commands: Mapping[str, Command]) -> None:
        self.console = console
        self.commands = dict(commands)

    def read(self, prompt: Message, *, secret: bool = False) -> str:
        """The next entry that is not a command (commands run as they are typed).

        A ``secret`` entry (a card for a hand) is not shown as it is typed.  When the input
        is not a terminal, other entries are printed, so that a transcript reads well.
        """
        typed = sys.stdin.isatty()
        while True:
            try:
                line = self.console.input(
                    Text(prompt.render() + " ", style="bold"), password=secret and typed
                )
            except EOFError:
                raise Quit from None
            entry = line.strip()
            if not typed:
                self.console.print(Text("" if secret else entry))
            if not entry:
                continue
            word, _, rest = entry.partition(" ")
            command = self.commands.get(word.lower())
            if command is not None:
                command(rest.strip())
                continue
            return entry


def parse_roll(entry: str, faces: int) -> int:
    """The face of a ``faces``-sided die that ``entry`` names (``4`` or ``roll 4``)."""
    text = entry.strip().lower()
    if text.startswith("roll "):
        text = text[5:].strip()
    try:
        face = int(text)
    except ValueError:
        raise EntryError(
            entry,
            message(
                "this is not a number: type the number the die shows, from 1 to {faces}",
                faces=faces,
            ),
        ) from None
    if not 1 <= face <= faces:
        raise EntryError(
            entry,
            message(
                "the die has no face {face}: type a number from 1 to {faces}",
                face=face,
                faces=faces,
            ),
        )
    return face


def parse_card(entry: str, deck: str, cards: Sequence[str]) -> str:
    """The card id among ``cards`` (a deck's cards) that ``entry`` names, by id or name."""
    text = normalise(entry)
    for prefix in ("draw ", "take ", "card "):
        if text.startswith(prefix):
            text = text[len(prefix) :]
    for card in cards:
        if text in aliases(card):
            return card
    raise EntryError(
        entry,
        message(
            "the {deck} deck has no such card; its cards are: {cards}",
            deck=name(deck),
            cards=", ".join(name(c).render() for c in cards),
        ),
    )
