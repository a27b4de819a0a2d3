"""Referee mode: a real game at the pool, on a screen every team can see (BD17).

People type the rolled number and, with printed cards, the card drawn; every team's
decisions are typed by its helmsman.  The screen shows the sizes of the hands, never their
cards, unless the team to decide types ``show``.  ``undo`` takes back the last entry (see
:class:`~splash.cli.saving.SavingCommands`); digital cards come from (seed, index), so the
same card comes again after a takeback.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from rich.console import Console

from splash.cli.choices import HAND_KINDS, Choice, EntryError, build_choices
from splash.cli.common import error_line, say
from splash.cli.prompt import TakeBack, parse_card, parse_roll
from splash.cli.session import Session
from splash.core.actions import Action, Json
from splash.core.i18n import Message, message
from splash.core.outcomes import OutcomeProvider, RefereeOutcomes
from splash.core.protocol import CHANCE, ChanceEvent, State
from splash.games.bash import BashGame
from splash.games.bash.board import TEAM_LETTERS
from splash.games.bash.config import HAND_DECK
from splash.games.bash.names import name
from splash.games.bash.render import card_count, public_view

T = TypeVar("T")

"""The deck whose cards are held in secret hands."""


def _automatic(view: Mapping[str, Any], choices: list[Choice]) -> bool:
    """Whether the program takes the only choice by itself (a hand's decision is always
    asked, so that the screen does not tell what the hand holds)."""
    return len(choices) == 1 and (view.get("awaiting") or {}).get("kind") not in HAND_KINDS


class RefereeSession(Session):
    """Every team is people; chance comes from their entries (cards, maybe, from ``digital``)."""

    def __init__(
        self,
        console: Console,
        game: BashGame,
        state: State,
        *,
        digital: OutcomeProvider | None,
        save_path: Path | None,
        meta: dict[str, Json],
    ) -> None:
        super().__init__(console, game, state, save_path=save_path, meta=meta, takebacks=True)
        delegate = {"draw": digital, "steal": digital} if digital is not None else None
        self.drawn = frozenset(delegate or ())
        self.outcomes = RefereeOutcomes(self._ask_outcome, delegate)

    def screen_view(self) -> Mapping[str, Any]:
        """What every team may see."""
        return public_view(self.state.view(0))

    def chance(self) -> Action:
        """The outcome typed by the people (or drawn by the program, for digital cards)."""
        return self.outcomes.outcome(self.state)

    def begins_entry(self, state: State, action: Action, previous: Action | None) -> bool:
        """Whether people typed ``action``: every roll, every printed card and every decision
        with a choice (an only choice, and a card the program draws, are not entries)."""
        seat = state.to_act()
        if seat == CHANCE:
            event = state.chance_event()
            return event is None or event.kind not in self.drawn
        view = state.view(seat)
        return not _automatic(view, build_choices(view, state.legal_actions(), self.game))

    def decide(self, seat: int) -> Choice:
        """The choice typed for ``seat``; its cards stay hidden until it types ``show``."""
        view, choices = self.choices_for(seat)
        kind = (view.get("awaiting") or {}).get("kind")
        if _automatic(view, choices):
            return self.auto(choices[0])
        self.show_picture()
        try:
            choice = self.ask_choice(view, choices, hidden=True)
        except TakeBack:
            if self._hand_on_screen(kind):
                self.console.clear()  # the takeback draws the course again
            raise
        if self._hand_on_screen(kind):
            self.console.clear()
            self.show_picture(force=True)
        return choice

    def _hand_on_screen(self, kind: object) -> bool:
        """Whether the terminal shows the deciding team's hand (it typed ``show``)."""
        return self._revealed and kind in HAND_KINDS and self.console.is_terminal

    def help_text(self) -> Message:
        """How to answer, and the referee's commands, ``undo`` among them."""
        return message(
            "Type the number of a choice, or the choice itself: lane centre, stay, pass,"
            " play shove, discard shove, obstacle centre 12, target B2, team B, keep second."
            " Commands: board (draw the course again), show (the hand of the team to decide),"
            " undo (take back the last entry: a roll, a card or a decision), save [FILE], quit."
        )

    def tell_choice(self, seat: int, choice: Choice) -> bool:
        """Every choice that shows no card (a card played is told by its event)."""
        return not choice.secret and choice.action.kind != "obstacle"

    def reveal(self, view: Mapping[str, Any]) -> None:
        """The deciding team's hand, on its request."""
        team = int((view.get("awaiting") or {}).get("team", view["seat"]))
        hand = view.get("hand") or []
        cards = ", ".join(name(c).render() for c in hand) or message("no card").render()
        say(
            self.console,
            message("Team {team}'s hand: {cards}", team=TEAM_LETTERS[team], cards=cards),
            "bold",
        )

    def hidden_hint(self, view: Mapping[str, Any], hidden: int) -> None:
        """How the deciding team sees its cards and the choices that show them."""
        awaiting = view.get("awaiting") or {}
        if awaiting.get("kind") not in HAND_KINDS:
            return
        team = int(awaiting.get("team", view["seat"]))
        size = int(view["hand_sizes"][team])
        example = "play shove"
        if awaiting.get("kind") == "discard" or awaiting.get("question") == "discard":
            example = "discard shove"
        elif awaiting.get("question") == "lifebuoy":
            example = "play lifebuoy"
        say(
            self.console,
            message(
                "Team {team} holds {count}. Type show to see them and every choice (hide the"
                " screen from the other teams first), or type your choice, such as {example}.",
                team=TEAM_LETTERS[team],
                count=card_count(size),
                example=example,
            ),
            "italic",
        )

    # ----- chance typed by people ----------------------------------------------------------

    def _ask_outcome(self, state: State, event: ChanceEvent, possible: list[Action]) -> Action:
        self.show_picture()
        view = self.screen_view()
        space = self.game.action_space
        team = TEAM_LETTERS[int(view["team"])]
        if event.kind == "roll":
            faces = int(str(event.params["faces"]))
            say(self.console, self._roll_question(view, faces), "bold")
            face = self._read(message("Roll:"), lambda entry: parse_roll(entry, faces))
            return space.find("roll", face=face)
        if event.kind == "draw":
            deck = str(event.params["deck"])
            say(
                self.console,
                message(
                    "Team {team} draws a card from the {deck} deck: type the card drawn.",
                    team=team,
                    deck=name(deck),
                ),
                "bold",
            )
            card = self._read(
                message("Card:"),
                lambda entry: self._card(entry, deck, possible),
                secret=deck == HAND_DECK,
            )
            return space.find("draw", deck=deck, card=card)
        victim = TEAM_LETTERS[int(str(event.params["team"]))]
        say(
            self.console,
            message(
                "Team {team} takes a card at random from team {victim}'s hand: type the card"
                " taken.",
                team=team,
                victim=victim,
            ),
            "bold",
        )
        card = self._read(
            message("Card:"), lambda entry: self._card(entry, None, possible), secret=True
        )
        return space.find("steal", card=card)

    def _roll_question(self, view: Mapping[str, Any], faces: int) -> Message:
        awaiting = view.get("awaiting") or {}
        piece = view["active"]
        if awaiting.get("purpose") == "reroll":
            return message(
                "Second chance: roll the die again for {piece} and type the number it shows"
                " (1 to {faces}).",
                piece=piece,
                faces=faces,
            )
        left = int(awaiting.get("dice", 1))
        if left > 1:
            return message(
                "Roll the die for {piece} and type the number it shows (1 to {faces});"
                " {left} dice to roll.",
                piece=piece,
                faces=faces,
                left=left,
            )
        return message(
            "Roll the die for {piece} and type the number it shows (1 to {faces}).",
            piece=piece,
            faces=faces,
        )

    def _read(self, prompt: Message, parse: Callable[[str], T], *, secret: bool = False) -> T:
        while True:
            entry = self.prompter.read(prompt, secret=secret)
            try:
                value = parse(entry)
            except EntryError as error:
                error_line(self.console, error)
                continue
            return value

    def _card(self, entry: str, deck: str | None, possible: list[Action]) -> str:
        """The card ``entry`` names, checked against the ``possible`` draws (or steals)."""
        cards = list(self.game.settings.decks[deck or HAND_DECK].cards)
        card = parse_card(entry, deck or HAND_DECK, cards)
        left = [str(a.param("card")) for a in possible]
        if card in left:
            return card
        if deck is None:
            problem = message("{card} is not in that hand; check the card", card=name(card))
        elif deck == HAND_DECK:
            problem = message(
                "no {card} is left in the {deck} deck; check the card and type it again",
                card=name(card),
                deck=name(deck),
            )
        else:
            problem = message(
                "no {card} is left in the {deck} deck; the cards left are: {cards}",
                card=name(card),
                deck=name(deck),
                cards=", ".join(name(c).render() for c in left),
            )
        raise EntryError(entry, problem)
