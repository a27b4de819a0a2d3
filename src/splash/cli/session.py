"""A game driven in the terminal: the turn loop, pictures, prompts, events and saves.

:class:`Session` is the loop both interactive commands share; :class:`PlaySession` seats
one person against bots, :class:`~splash.cli.referee.RefereeSession` referees a game at
the pool where every team is people.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rich.columns import Columns
from rich.console import Console
from rich.text import Text

from splash.cli.choices import Choice, EntryError, build_choices, decision_question, match_choice
from splash.cli.common import error_line, say
from splash.cli.saving import SavingCommands
from splash.core.actions import Action, Json
from splash.core.i18n import Message, message
from splash.core.outcomes import OutcomeProvider
from splash.core.play import Agent
from splash.core.protocol import CHANCE, State
from splash.games.bash import BashGame
from splash.games.bash.board import TEAM_LETTERS
from splash.games.bash.names import name
from splash.games.bash.render import event_sentences, movement_sentences, picture

_PICTURE_KEYS = (
    "pieces",
    "obstacles",
    "hand",
    "hand_sizes",
    "dice",
    "rerolled",
    "roll",
    "turn",
    "team",
    "free_lane",
    "skip_move",
    "terminal",
)
QUIET_KINDS = frozenset({"pass", "obstacle"})
"""Choices not told as such: a pass changes nothing, an obstacle is told by its event."""
COLUMNS_FROM = 16
"""Longer lists of choices are printed in columns."""


class Session(SavingCommands[State], ABC):
    """The loop: show, ask or let a bot choose, apply, tell what happened, save."""

    def __init__(
        self,
        console: Console,
        game: BashGame,
        state: State,
        *,
        save_path: Path | None,
        meta: dict[str, Json],
        takebacks: bool = False,
    ) -> None:
        super().__init__(
            console,
            state,
            save_path=save_path,
            meta=meta,
            commands={"board": self._cmd_board, "help": self._cmd_help, "show": self._cmd_show},
            takebacks=takebacks,
        )
        self.game = game
        self._shown: str | None = None
        self._turn: tuple[int, int] | None = None
        self._deciding: tuple[Mapping[str, Any], list[Choice]] | None = None
        self._revealed = True

    # ----- what differs between play and referee -----------------------------------------

    @abstractmethod
    def screen_view(self) -> Mapping[str, Any]:
        """The view the screen shows."""

    @abstractmethod
    def decide(self, seat: int) -> Choice:
        """The choice of ``seat``, which is to act."""

    @abstractmethod
    def chance(self) -> Action:
        """The outcome of the chance event the state waits for."""

    def reveal(self, view: Mapping[str, Any]) -> None:
        """Show the hand of the team to decide (the ``show`` command)."""
        hand = view.get("hand") or []
        cards = ", ".join(name(c).render() for c in hand) or message("no card").render()
        say(self.console, message("Your hand: {cards}", cards=cards), "bold")

    # ----- the loop ------------------------------------------------------------------------

    def run(self) -> int:
        """Play until the game ends or the person quits; the exit code."""
        return self.run_until_end(self._step, lambda: self.show_picture(force=True))

    def _step(self) -> None:
        before = self.screen_view()
        self._turn_rule(before)
        seat = self.state.to_act()
        if seat == CHANCE:
            action, choice = self.chance(), None
        else:
            choice = self.decide(seat)
            action = choice.action
        self.state.apply(action)
        self._report(seat, choice, before)
        if self.save_path is not None:
            self.save(self.save_path, quiet=True)

    def restarted(self) -> None:
        """After a takeback: the turn's title and the course are drawn again."""
        self._shown, self._turn, self._deciding = None, None, None

    def _turn_rule(self, view: Mapping[str, Any]) -> None:
        key = (int(view["turn"]), int(view["team"]))
        if key != self._turn and not view.get("terminal"):
            self._turn = key
            title = message(
                "Turn {turn} · team {team} · {piece}",
                turn=key[0],
                team=TEAM_LETTERS[key[1]],
                piece=view["active"],
            )
            self.console.rule(Text(title.render(), style="bold"))

    def _report(self, seat: int, choice: Choice | None, before: Mapping[str, Any]) -> None:
        if choice is not None and self.tell_choice(seat, choice):
            say(
                self.console,
                message("Team {team}: {choice}", team=TEAM_LETTERS[seat], choice=choice.text),
                "dim",
            )
        after = self.screen_view()
        for sentence in event_sentences(after.get("events", []), self.game.course):
            say(self.console, sentence)
        for sentence in movement_sentences(before, after, self.game.course):
            say(self.console, sentence, "bold")

    def tell_choice(self, seat: int, choice: Choice) -> bool:
        """Whether to print the choice ``seat`` made."""
        return not choice.secret and choice.action.kind not in QUIET_KINDS

    def show_picture(self, *, force: bool = False) -> None:
        """Draw the course when it changed since it was last drawn (or when ``force``)."""
        view = self.screen_view()
        key = json.dumps({k: view.get(k) for k in _PICTURE_KEYS}, sort_keys=True)
        if force or key != self._shown:
            self._shown = key
            self.console.print(picture(view, self.game.course))

    # ----- asking --------------------------------------------------------------------------

    def ask_choice(self, view: Mapping[str, Any], choices: list[Choice], *, hidden: bool) -> Choice:
        """Ask for one of ``choices`` until an entry names one; ``hidden`` keeps cards secret."""
        self._deciding, self._revealed = (view, choices), not hidden
        try:
            self._print_choices()
            while True:
                entry = self.prompter.read(message("Your choice:"))
                try:
                    return match_choice(entry, self._shown_choices(), choices)
                except EntryError as error:
                    error_line(self.console, error)
        finally:
            self._deciding = None

    def _shown_choices(self) -> list[Choice]:
        if self._deciding is None:
            return []
        return [c for c in self._deciding[1] if self._revealed or not c.secret]

    def _print_choices(self) -> None:
        if self._deciding is None:
            return
        view, choices = self._deciding
        say(self.console, decision_question(view, self.game), "bold")
        shown = self._shown_choices()
        items = [Text(f"{i:>2}. {c.text.render()}") for i, c in enumerate(shown, start=1)]
        if len(items) > COLUMNS_FROM:
            self.console.print(Columns(items, padding=(0, 3)))
        else:
            for item in items:
                self.console.print(item)
        if not self._revealed:
            self.hidden_hint(view, len(choices) - len(shown))

    def hidden_hint(self, view: Mapping[str, Any], hidden: int) -> None:
        """Say how to see the choices kept off a shared screen."""
        if hidden:
            say(
                self.console,
                message("{count} more choices are hidden: type show to see them.", count=hidden),
                "italic",
            )

    def auto(self, choice: Choice) -> Choice:
        """Take the only choice, saying so."""
        say(self.console, message("Only one choice, taken: {choice}", choice=choice.text), "dim")
        return choice

    def choices_for(self, seat: int) -> tuple[Mapping[str, Any], list[Choice]]:
        """``seat``'s view and its choices now."""
        view = self.state.view(seat)
        return view, build_choices(view, self.state.legal_actions(), self.game)

    # ----- commands ------------------------------------------------------------------------

    def _cmd_board(self, rest: str) -> None:
        self.show_picture(force=True)
        self._print_choices()

    def help_text(self) -> Message:
        """What ``help`` says: how to answer, and the commands."""
        return message(
            "Type the number of a choice, or the choice itself: lane centre, stay, pass,"
            " play shove, discard shove, obstacle centre 12, target B2, team B, keep second."
            " Commands: board (draw the course again), show (your hand), save [FILE], quit."
        )

    def _cmd_help(self, rest: str) -> None:
        say(self.console, self.help_text())
        self._print_choices()

    def _cmd_show(self, rest: str) -> None:
        if self._deciding is None:
            error_line(
                self.console, message("show shows the hand of the team to decide, at its decision")
            )
            return
        self.reveal(self._deciding[0])
        self._revealed = True
        self._print_choices()


class PlaySession(Session):
    """One person plays one team; bots play the others; chance comes from ``outcomes``."""

    def __init__(
        self,
        console: Console,
        game: BashGame,
        state: State,
        *,
        person: int,
        bots: Mapping[int, Agent],
        outcomes: OutcomeProvider,
        save_path: Path | None,
        meta: dict[str, Json],
    ) -> None:
        super().__init__(console, game, state, save_path=save_path, meta=meta)
        self.person = person
        self.bots = dict(bots)
        self.outcomes = outcomes

    def screen_view(self) -> Mapping[str, Any]:
        """The person's team's view."""
        return self.state.view(self.person)

    def chance(self) -> Action:
        """A seeded random outcome."""
        return self.outcomes.outcome(self.state)

    def decide(self, seat: int) -> Choice:
        """A bot's choice, or the person's (taken at once when it is the only one)."""
        if seat != self.person:
            action = self.bots[seat].act(self.state)
            return build_choices(self.state.view(seat), [action], self.game)[0]
        view, choices = self.choices_for(seat)
        if len(choices) == 1:
            return self.auto(choices[0])
        self.show_picture()
        return self.ask_choice(view, choices, hidden=False)

    def tell_choice(self, seat: int, choice: Choice) -> bool:
        """The person's choices, and the bots' public ones (cards played are events)."""
        if seat == self.person:
            return choice.action.kind not in QUIET_KINDS
        return super().tell_choice(seat, choice)
