"""Referee mode of Splash!: a game played with real pieces at a real table (TD08).

People type every decision (the pieces drafted, given, chosen as the new base or taken
back) and what happened to every placement: ``stood`` (did the piece leave room on its
target, TD04?), ``fell`` (which stacks still stand), ``spontaneous`` (T17) or ``knocked``
(T18).  The program keeps the rules: it shows the tower as it knows it, the legal gifts and
where each must go, gives the drops, and says who won.  A wrong entry prints one line saying
what was wrong and what is accepted, and changes nothing; ``undo`` takes back the last
entry, down to the start.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from rich.console import Console
from rich.text import Text

from splash.cli.choices import EntryError
from splash.cli.common import error_line, say
from splash.cli.saving import SavingCommands
from splash.cli.tower_entries import (
    check_stacks,
    gift_problem,
    parse_base,
    parse_piece,
    parse_result,
    parse_seat,
    parse_stacks,
    parse_take_back,
    parse_yes_no,
    pile_problem,
    stacks_text,
)
from splash.cli.tower_view import (
    event_sentences,
    piece_count,
    pieces_text,
    seat_name,
    seat_title,
    view_lines,
)
from splash.core.actions import Action, Json
from splash.core.errors import ActionError
from splash.core.i18n import Message, message
from splash.core.outcomes import OutcomeProvider
from splash.games.tower import TowerGame, TowerState, referee, rules

T = TypeVar("T")


class TowerReferee(SavingCommands[TowerState]):
    """The loop of a refereed game: show, ask, check, apply, tell what happened, save."""

    def __init__(
        self,
        console: Console,
        game: TowerGame,
        state: TowerState,
        *,
        digital: OutcomeProvider | None,
        save_path: Path | None,
        meta: dict[str, Json],
    ) -> None:
        super().__init__(
            console,
            state,
            save_path=save_path,
            meta=meta,
            commands={"help": self._cmd_help, "view": self._cmd_view},
            takebacks=True,
        )
        self.game = game
        self.digital = digital
        self._shown: str | None = None
        self._hint: Message | None = None

    # ----- the loop ----------------------------------------------------------------------

    def run(self) -> int:
        """Referee until the game ends or the people quit; the exit code."""
        steps: dict[str, Callable[[], None]] = {
            "draft": self._draft,
            "deal": self._deal,
            "give": self._give,
            "place": self._place,
            "result": self._result,
            "base": self._base,
            "keep": self._keep,
        }

        def step() -> None:
            if not (self.state.phase == "deal" and self.digital is not None):
                self.show()
            steps[self.state.phase]()

        return self.run_until_end(step, lambda: self.show(force=True))

    def begins_entry(self, state: TowerState, action: Action, previous: Action | None) -> bool:
        """Whether people typed ``action``: a decision, a typed deal or a report begins an
        entry; a placement (the program's own step), a deal by the program and the second
        and later pieces of one take-back entry do not."""
        if state.phase == "place" or (state.phase == "deal" and self.digital is not None):
            return False
        return not (action.kind == "keep" and previous is not None and previous.kind == "keep")

    def restarted(self) -> None:
        """After a takeback: the view is printed again."""
        self._shown, self._hint = None, None

    def show(self, *, force: bool = False) -> None:
        """Print the view when the game changed since it was last printed (or when ``force``)."""
        key = self._key()
        if force or key != self._shown:
            self._shown = key
            self.console.rule()
            for line in view_lines(self.state):
                say(self.console, line)

    def _key(self) -> str:
        doc = self.state.to_json()
        return json.dumps({k: v for k, v in doc.items() if k not in ("history", "events")})

    def apply(self, actions: Sequence[Action | Mapping[str, Any]]) -> bool:
        """Apply ``actions`` in order, tell what they did and save; an action the engine
        refuses prints why and is not applied (the checks before make a later refusal
        impossible, so nothing changes)."""
        events: list[Mapping[str, Any]] = []
        for action in actions:
            try:
                self.state.apply(action)
            except ActionError as error:
                error_line(self.console, error)
                return False
            events += self.state.events
        for sentence in event_sentences(self.state, events):
            say(self.console, sentence, "bold")
        if self.save_path is not None:
            self.save(self.save_path, quiet=True)
        return True

    def ask(self, prompt: Message, parse: Callable[[str], T], hint: Message | None = None) -> T:
        """Ask until an entry parses; ``hint`` is what ``help`` adds at this prompt."""
        self._hint = hint
        while True:
            entry = self.prompter.read(prompt)
            try:
                return parse(entry)
            except EntryError as error:
                error_line(self.console, error)

    # ----- the steps ---------------------------------------------------------------------

    def _draft(self) -> None:
        seat = self.state.drafting_seat()
        piece = self.ask(
            message("{seat}, which piece do you take?", seat=seat_title(seat)),
            self._from_pile,
            message("Type a piece of the pile, such as red-cube or red cube (T03, TD02)."),
        )
        self.apply([{"kind": "take", "piece": piece}])

    def _deal(self) -> None:
        if self.digital is not None:
            while self.state.phase == "deal":
                self.state.apply(self.digital.outcome(self.state))
            say(self.console, message("The program dealt the pieces at random (TD02)."), "bold")
            if self.save_path is not None:
                self.save(self.save_path, quiet=True)
            return
        seat = self.state.drafting_seat()
        piece = self.ask(
            message("Which piece did {seat} receive?", seat=seat_name(seat)),
            self._from_pile,
            message("Deal a real piece to this seat and type it, such as red-cube (TD02)."),
        )
        self.apply([{"kind": "deal", "piece": piece}])

    def _from_pile(self, entry: str) -> str:
        return self._checked_piece(entry, pile_problem)

    def _checked_piece(
        self, entry: str, problem_of: Callable[[TowerState, str], Message | None]
    ) -> str:
        """The piece ``entry`` names; :class:`EntryError` when ``problem_of`` finds one."""
        piece = parse_piece(self.game.catalogue, entry)
        problem = problem_of(self.state, piece)
        if problem is not None:
            raise EntryError(entry, problem)
        return piece

    def _give(self) -> None:
        state = self.state
        piece = self.ask(
            message(
                "{giver}, which piece do you give to {placer}?",
                giver=seat_title(state.giver),
                placer=seat_name(state.placer),
            ),
            self._gift,
            message(
                "Type one of the legal gifts the view lists (T07, T08); the placer puts it on"
                " the piece shown after the arrow (TD04)."
            ),
        )
        self.apply([{"kind": "give", "piece": piece}])

    def _gift(self, entry: str) -> str:
        return self._checked_piece(entry, gift_problem)

    def _place(self) -> None:
        # The real piece is placed by hand: the placement carries no pose (TD13 is digital).
        # The view already says where it goes: it is not shown again for this step.
        if self.apply([{"kind": "place"}]):
            self._shown = self._key()

    def _result(self) -> None:
        while True:
            result = self.ask(
                message("What happened? stood, fell, spontaneous or knocked:"),
                parse_result,
                message(
                    "stood: the tower still stands with the new piece; fell: the tower fell"
                    " (Splash!); spontaneous: it fell by itself before the piece touched it"
                    " (T17); knocked: someone knocked it over (T18)."
                ),
            )
            action = self._outcome(result)
            if action is not None and self.apply([action]):
                return

    def _outcome(self, result: str) -> Action | None:
        """The outcome action for ``result`` after its questions; ``None`` to ask again."""
        state = self.state
        if state.gift is None:
            return None
        if result == "stood":
            target = rules.target_of(state, state.gift)
            room = False
            if target is not None:
                room = self.ask(
                    message(
                        "Did {piece} leave room on {target} for another piece? (y/n)",
                        piece=state.gift,
                        target=target.piece,
                    ),
                    parse_yes_no,
                    message(
                        "y: part of the top of {target} is still free for another piece, so the"
                        " tower may branch there (TD04); n: {piece} covers it.",
                        target=target.piece,
                        piece=state.gift,
                    ),
                )
            return referee.stood(state, room_left=room)
        if result in ("spontaneous", "knocked") and not state.tower.pieces:
            error_line(self.console, message("there is no tower yet: it cannot have fallen"))
            return None
        if result == "spontaneous":
            confirm = message(
                "The tower ({count}) goes to the box, nobody gets a drop, and {placer} places"
                " {piece} on the table. Right? (y/n)",
                count=piece_count(len(state.tower)),
                placer=seat_name(state.placer),
                piece=state.gift,
            )
            return referee.spontaneous(state) if self.ask(confirm, parse_yes_no) else None
        knocker = None
        if result == "knocked":
            knocker = self.ask(
                message("Which seat knocked the tower over? (0 to {last})", last=state.players - 1),
                lambda entry: parse_seat(entry, state.players),
            )
        pieces = [*state.tower.ids(), *([state.gift] if knocker is None else [])]
        stacks = self._ask_stacks(pieces, with_gift=knocker is None)
        standing = {p for stack in stacks for p in stack}
        lying = [p for p in pieces if p not in standing]
        confirm = message(
            "Standing: {stacks}. Lying on the table: {lying}. Right? (y/n)",
            stacks=stacks_text(stacks),
            lying=pieces_text(lying),
        )
        if not self.ask(confirm, parse_yes_no):
            return None
        if knocker is None:
            return referee.fell(state, stacks, lying)
        return referee.knocked(state, knocker, stacks, lying)

    def _ask_stacks(self, pieces: Sequence[str], *, with_gift: bool) -> list[list[str]]:
        example = " ".join(pieces[:2])

        def parse(entry: str) -> list[list[str]]:
            stacks = parse_stacks(entry, self.game.catalogue)
            problem = check_stacks(self.state, stacks, with_gift=with_gift)
            if problem is not None:
                raise EntryError(entry, problem)
            return stacks

        return self.ask(
            message(
                "Which stacks still stand? Each base first, stacks separated by ; (such as"
                " {example}), or none:",
                example=example,
            ),
            parse,
            message(
                "A standing stack is a piece that stayed on the table, with the pieces still"
                " resting on it (TD07). Every other piece counts as lying on the table, even if"
                " it fell off (T12)."
            ),
        )

    def _base(self) -> None:
        state = self.state
        chooser = state.chooser if state.chooser is not None else state.placer
        piece = self.ask(
            message("{seat}, which piece is the new base?", seat=seat_title(chooser)),
            lambda entry: parse_base(self.game.catalogue, entry, state.candidates),
        )
        self.apply([{"kind": "base", "piece": piece}])

    def _keep(self) -> None:
        state = self.state
        chooser = state.chooser if state.chooser is not None else state.placer
        count = state.keep_left
        table = [p.piece for p in state.table]
        pieces = self.ask(
            message(
                "{seat}, which {count} pieces do you take back?",
                seat=seat_title(chooser),
                count=count,
            ),
            lambda entry: parse_take_back(self.game.catalogue, entry, table, count),
        )
        self.apply([{"kind": "keep", "piece": piece} for piece in pieces])

    # ----- commands ----------------------------------------------------------------------

    def _cmd_view(self, rest: str) -> None:
        self.show(force=True)

    def _cmd_help(self, rest: str) -> None:
        say(
            self.console,
            message(
                "Name a piece by its id (red-cube) or its colour and shape (red cube), in any"
                " case. Commands at any prompt: view (show the game again), undo (take back the"
                " last entry: a decision or a report), save [FILE], help, quit."
            ),
        )
        if self._hint is not None:
            self.console.print(Text(self._hint.render(), style="italic"))
