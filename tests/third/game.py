"""Third: a tiny game made only for the tests, declared outside ``splash`` and registered
with ``SPLASH_GAMES=tests.third.game:DECLARATION`` (docs/adding-a-game.md).

Two seats.  Each is dealt one hidden card from a deck of six animals worth 1 to 6 (a chance
event each: the deal).  Then the seats take turns: the seat to act rolls the die (a chance
event) and adds it to its total, or stays and acts no more.  A seat whose dice pass
:data:`BUST` scores 0; a seat that has rolled :data:`MAX_ROLLS` times stays.  When both
stay, the higher score (dice plus card) wins; a tie is a draw.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from splash.core.actions import Action, ActionSpace, Json, make_action
from splash.core.errors import OptionError
from splash.core.i18n import N_, Message, message
from splash.core.protocol import CHANCE, TERMINAL, ChanceEvent, Game, State, Team
from splash.games.registry import (
    Assignments,
    GameDeclaration,
    Information,
    Lobby,
    Screens,
    SeatKind,
    SeatNaming,
    Variant,
)

CARDS = ("owl", "fox", "elk", "yak", "emu", "gnu")
"""The deck, the card at index ``i`` worth ``i + 1``."""
MAX_ROLLS = 3
BUST = 12
SEATS = 2


class ThirdGame(Game):
    """The game; its one option is ``options.max_rolls`` (1 to 5)."""

    id = "third"

    def __init__(self, max_rolls: int = MAX_ROLLS) -> None:
        self.max_rolls = max_rolls
        actions = [make_action(0, "roll"), make_action(1, "stay")]
        actions += [make_action(2 + i, "deal", card=card) for i, card in enumerate(CARDS)]
        actions += [make_action(8 + face, "die", face=face + 1) for face in range(6)]
        self._space = ActionSpace(actions)

    @classmethod
    def from_settings(cls, settings: Assignments) -> ThirdGame:
        """The game with ``--set`` style assignments (``options.max_rolls``)."""
        max_rolls = MAX_ROLLS
        for key, value in settings:
            if key == "options.players" and value in (SEATS, str(SEATS)):
                continue
            if key != "options.max_rolls" or str(value) not in {"1", "2", "3", "4", "5"}:
                raise OptionError(key, value, message("not an option of this game"))
            max_rolls = int(value)
        return cls(max_rolls)

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> ThirdGame:
        """The game of a :meth:`config` tree."""
        return cls(int(config["options"]["max_rolls"]))

    @property
    def num_seats(self) -> int:
        return SEATS

    @property
    def teams(self) -> tuple[Team, ...]:
        return tuple(Team(seat, (seat,)) for seat in range(SEATS))

    @property
    def action_space(self) -> ActionSpace:
        return self._space

    def new_initial_state(self) -> ThirdState:
        return ThirdState(self)

    def config(self) -> dict[str, Any]:
        return {"options": {"max_rolls": self.max_rolls}}

    def state_from_json(self, doc: Mapping[str, Any]) -> ThirdState:
        state = ThirdState(self)
        for action in doc["history"]:
            state.apply(action)
        return state

    def action_text(self, action: Action) -> Message:
        return message("{action}", action=str(action))


class ThirdState(State):
    """A position: the cards dealt, each seat's dice, rolls and whether it stayed."""

    def __init__(self, game: ThirdGame) -> None:
        super().__init__(game)
        self.max_rolls = game.max_rolls
        self.cards: list[str | None] = [None] * SEATS
        self.dice = [0] * SEATS
        self.rolls = [0] * SEATS
        self.stayed = [False] * SEATS
        self.seat = 0
        self.rolling = False

    def to_act(self) -> int:
        if None in self.cards or self.rolling:
            return CHANCE
        return TERMINAL if all(self.stayed) else self.seat

    def legal_actions(self) -> list[Action]:
        to_act = self.to_act()
        if to_act == CHANCE:
            return [action for action, _ in self.chance_outcomes()]
        return [] if to_act == TERMINAL else [self.game.action_space[0], self.game.action_space[1]]

    def chance_event(self) -> ChanceEvent | None:
        if None in self.cards:
            return ChanceEvent("deal", {"seat": self.cards.index(None)})
        return ChanceEvent("die", {"seat": self.seat}) if self.rolling else None

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        event = self.chance_event()
        if event is None:
            return []
        space = self.game.action_space
        if event.kind == "deal":
            left = [i for i, card in enumerate(CARDS) if card not in self.cards]
            return [(space[2 + i], Fraction(1, len(left))) for i in left]
        return [(space[8 + face], Fraction(1, 6)) for face in range(6)]

    def _apply(self, action: Action) -> None:
        if action.kind == "deal":
            self.cards[self.cards.index(None)] = str(action.param("card"))
            return
        seat = self.seat
        if action.kind == "die":
            self.rolling = False
            self.dice[seat] += int(action.param("face"))
            self.rolls[seat] += 1
            if self.dice[seat] > BUST or self.rolls[seat] >= self.max_rolls:
                self.stayed[seat] = True
        elif action.kind == "roll":
            self.rolling = True
            return
        else:
            self.stayed[seat] = True
        if not self.stayed[1 - seat]:
            self.seat = 1 - seat

    def score(self, seat: int) -> int:
        """The seat's dice plus its card, or 0 for dice past :data:`BUST`."""
        card = self.cards[seat]
        if self.dice[seat] > BUST or card is None:
            return 0
        return self.dice[seat] + CARDS.index(card) + 1

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * SEATS
        a, b = self.score(0), self.score(1)
        return [0.0, 0.0] if a == b else ([1.0, -1.0] if a > b else [-1.0, 1.0])

    def public(self) -> dict[str, Json]:
        """What every seat and screen sees: the dice, the rolls, who stayed, who was dealt."""
        to_act = self.to_act()
        return {
            "format": "splash/third/1",
            "to_act": to_act,
            "dice": list(self.dice),
            "rolls": list(self.rolls),
            "stayed": list(self.stayed),
            "dealt": [card is not None for card in self.cards],
        }

    def view(self, seat: int) -> dict[str, Json]:
        """The public counts and this seat's own card, never the other's."""
        legal = self.legal_actions() if self.to_act() == seat else []
        return {
            **self.public(),
            "seat": seat,
            "card": self.cards[seat],
            "legal_actions": [action.to_json() for action in legal],
        }

    def to_json(self) -> dict[str, Json]:
        return {**self.public(), "history": [a.to_json() for a in self.history]}

    def describe(self) -> str:
        return f"third: to act {self.to_act()}, dice {self.dice}, rolls {self.rolls}"


def _state(state: State) -> ThirdState:
    if not isinstance(state, ThirdState):
        raise TypeError(f"not a Third state: {type(state).__name__}")
    return state


def audience(state: State, action: Action) -> frozenset[int] | None:
    """A dealt card is seen by the seat it is dealt to; everything else by everyone."""
    third = _state(state)
    return frozenset({third.cards.index(None)}) if action.kind == "deal" else None


def conceal(action: Action) -> dict[str, Json]:
    """A deal without its card."""
    return {k: v for k, v in action.to_json().items() if k != "card"}


def public_view(state: State, revealed: Sequence[int] = ()) -> dict[str, Json]:
    """The public counts, no card, and the legal actions of the seat to act."""
    third = _state(state)
    legal = third.legal_actions() if third.to_act() >= 0 else []
    return {**third.public(), "seat": None, "legal_actions": [a.to_json() for a in legal]}


def summary(state: State) -> dict[str, Json]:
    """Each seat's score and place (1 the winner's; the same for a draw)."""
    third = _state(state)
    scores = [third.score(seat) for seat in range(SEATS)]
    return {"scores": list(scores), "places": [1 + sum(s > own for s in scores) for own in scores]}


def _numbers(value: Json) -> list[float]:
    return (
        [float(x) for x in value if isinstance(x, int | float)] if isinstance(value, list) else []
    )


def observation(state: State, seat: int) -> list[float]:
    """Own card, both dice totals and roll counts, who stayed, whether ``seat`` is to act."""
    view = state.view(seat)
    card = view["card"]
    dice, rolls, stayed = (_numbers(view[key]) for key in ("dice", "rolls", "stayed"))
    own, other = seat, 1 - seat
    return [
        (CARDS.index(card) + 1) / 6 if isinstance(card, str) else 0.0,
        min(1.0, dice[own] / 30),
        min(1.0, dice[other] / 30),
        rolls[own] / 5,
        rolls[other] / 5,
        stayed[own],
        stayed[other],
        float(view["to_act"] == seat),
    ]


DECLARATION = GameDeclaration(
    id=ThirdGame.id,
    name="Third",
    from_settings=ThirdGame.from_settings,
    from_config=ThirdGame.from_config,
    seat=SeatKind.PLAYER,
    seats_key="options.players",
    min_seats=SEATS,
    max_seats=SEATS,
    information=Information.IMPERFECT,
    chance_kinds=frozenset({"deal", "die"}),
    view=lambda state, seat: _state(state).view(seat),
    state_format="third",
    summary=summary,
    seat_naming=SeatNaming(N_("Player {seat}"), "seat", ("1", "2"), N_("Players")),
    lobby=Lobby(page=None, default_seats=SEATS),
    assets=lambda game, locale: {},
    screens=Screens(public_view=public_view, audience=audience, conceal=conceal),
    variants=(Variant("3-rolls"), Variant("1-roll", (("options.max_rolls", 1),))),
    observation=observation,
)
"""Third, as the layers above the rules engines see it."""
