"""The typed records a Splash & Bash turn passes around: what the state waits for, the
card effects queued, and the movements it runs.

Each record has a JSON form with the keys the state document (``splash/bash/1``) has always
used, so saved games and views are unchanged; :func:`awaited_from_json` and
:func:`operation_from_json` read them back, naming the offending field of a bad document.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from splash.core.actions import Json
from splash.core.documents import Field
from splash.core.i18n import message
from splash.games.bash.board import Board
from splash.games.bash.resolver import Question

SetupPurpose = Literal["setup", "helmsman"]
RollPurpose = Literal["roll", "reroll"]
Window = Literal["before_roll", "after_roll", "after_lane", "after_walk"]
WINDOWS: tuple[Window, ...] = ("before_roll", "after_roll", "after_lane", "after_walk")
SETUP_PURPOSES: tuple[SetupPurpose, ...] = ("setup", "helmsman")
ROLL_PURPOSES: tuple[RollPurpose, ...] = ("roll", "reroll")


@dataclass(frozen=True, slots=True)
class EffectRef:
    """One effect of a card: effect ``index`` of card ``card`` of deck ``deck``."""

    deck: str
    card: str
    index: int

    def to_json(self) -> list[Json]:
        """``[deck, card, index]``."""
        return [self.deck, self.card, self.index]

    @staticmethod
    def from_json(doc: Field) -> EffectRef:
        """The inverse of :meth:`to_json`."""
        items = doc.as_list()
        if len(items) != 3:
            doc.fail(message("a card effect is [deck, card, index]"))
        return EffectRef(items[0].as_str(), items[1].as_str(), items[2].as_int())


# ----- what the state waits for ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StartLane:
    """A team puts a pawn on the start line (set-up) or its helmsman on the course (BD13)."""

    kind: ClassVar[str] = "start_lane"

    team: int
    purpose: SetupPurpose

    def to_json(self) -> dict[str, Json]:
        """The ``awaiting`` entry of the state document."""
        return {"kind": "start_lane", "team": self.team, "purpose": self.purpose}


@dataclass(frozen=True, slots=True)
class AwaitDraw:
    """Chance: a card drawn from ``deck`` (B05, B32)."""

    kind: ClassVar[str] = "draw"

    deck: str

    def to_json(self) -> dict[str, Json]:
        """The ``awaiting`` entry of the state document."""
        return {"kind": "draw", "deck": self.deck}


@dataclass(frozen=True, slots=True)
class AwaitRoll:
    """Chance: ``dice`` more dice to roll, for the turn's roll or a second chance's reroll."""

    kind: ClassVar[str] = "roll"

    dice: int
    purpose: RollPurpose

    def to_json(self) -> dict[str, Json]:
        """The ``awaiting`` entry of the state document."""
        return {"kind": "roll", "dice": self.dice, "purpose": self.purpose}


@dataclass(frozen=True, slots=True)
class AwaitSteal:
    """Chance: the card taken from ``victim``'s hand."""

    kind: ClassVar[str] = "steal"

    victim: int

    def to_json(self) -> dict[str, Json]:
        """The ``awaiting`` entry of the state document."""
        return {"kind": "steal", "victim": self.victim}


@dataclass(frozen=True, slots=True)
class PlayWindow:
    """The acting team may play a high tide card at ``window`` or pass (BD18)."""

    kind: ClassVar[str] = "window"

    team: int
    window: Window

    def to_json(self) -> dict[str, Json]:
        """The ``awaiting`` entry of the state document."""
        return {"kind": "window", "team": self.team, "window": self.window}


@dataclass(frozen=True, slots=True)
class LaneChoice:
    """The acting team stays in its lane or changes lane (B09)."""

    kind: ClassVar[str] = "lane"

    team: int

    def to_json(self) -> dict[str, Json]:
        """The ``awaiting`` entry of the state document."""
        return {"kind": "lane", "team": self.team}


@dataclass(frozen=True, slots=True)
class DiscardChoice:
    """``team`` discards a card: over the hand limit (B20; ``new``, just drawn, is kept) or
    chosen by another team's card (``new`` is ``None``)."""

    kind: ClassVar[str] = "discard"

    team: int
    new: str | None

    def to_json(self) -> dict[str, Json]:
        """The ``awaiting`` entry of the state document."""
        return {"kind": "discard", "team": self.team, "new": self.new}


@dataclass(frozen=True, slots=True)
class ObstacleChoice:
    """The acting team puts ``left`` more obstacles on free squares (B17, BD11)."""

    kind: ClassVar[str] = "obstacle"

    team: int
    left: int

    def to_json(self) -> dict[str, Json]:
        """The ``awaiting`` entry of the state document."""
        return {"kind": "obstacle", "team": self.team, "left": self.left}


@dataclass(frozen=True, slots=True)
class TargetChoice:
    """The acting team chooses the pawn a card's ``effect`` hits (shove, undertow)."""

    kind: ClassVar[str] = "target"

    team: int
    effect: EffectRef

    def to_json(self) -> dict[str, Json]:
        """The ``awaiting`` entry of the state document."""
        return {"kind": "target", "team": self.team, "effect": self.effect.to_json()}


@dataclass(frozen=True, slots=True)
class VictimChoice:
    """The acting team chooses the team a card's ``effect`` robs."""

    kind: ClassVar[str] = "victim"

    team: int
    effect: EffectRef

    def to_json(self) -> dict[str, Json]:
        """The ``awaiting`` entry of the state document."""
        return {"kind": "victim", "team": self.team, "effect": self.effect.to_json()}


@dataclass(frozen=True, slots=True)
class KeepChoice:
    """After a second chance, the acting team keeps the first or the second roll."""

    kind: ClassVar[str] = "keep"

    team: int

    def to_json(self) -> dict[str, Json]:
        """The ``awaiting`` entry of the state document."""
        return {"kind": "keep", "team": self.team}


Decision = (
    StartLane
    | PlayWindow
    | LaneChoice
    | DiscardChoice
    | ObstacleChoice
    | TargetChoice
    | VictimChoice
    | KeepChoice
)
"""What a team decides."""
Chance = AwaitDraw | AwaitRoll | AwaitSteal
"""What an outcome provider supplies."""
Awaited = Decision | Chance
"""What a state waits for between its steps."""


def awaited_from_json(doc: Field) -> Awaited:
    """The record an ``awaiting`` entry of a state document describes."""
    kind = doc["kind"].one_of(
        (
            "start_lane",
            "draw",
            "roll",
            "steal",
            "window",
            "lane",
            "discard",
            "obstacle",
            "target",
            "victim",
            "keep",
        )
    )
    match kind:
        case "start_lane":
            return StartLane(doc["team"].as_int(), doc["purpose"].one_of(SETUP_PURPOSES))
        case "draw":
            return AwaitDraw(doc["deck"].as_str())
        case "roll":
            return AwaitRoll(doc["dice"].as_int(), doc["purpose"].one_of(ROLL_PURPOSES))
        case "steal":
            return AwaitSteal(doc["victim"].as_int())
        case "window":
            return PlayWindow(doc["team"].as_int(), doc["window"].one_of(WINDOWS))
        case "lane":
            return LaneChoice(doc["team"].as_int())
        case "discard":
            return DiscardChoice(doc["team"].as_int(), doc["new"].optional_str())
        case "obstacle":
            return ObstacleChoice(doc["team"].as_int(), doc["left"].as_int())
        case "target":
            return TargetChoice(doc["team"].as_int(), EffectRef.from_json(doc["effect"]))
        case "victim":
            return VictimChoice(doc["team"].as_int(), EffectRef.from_json(doc["effect"]))
        case _:
            return KeepChoice(doc["team"].as_int())


# ----- movements ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Walk:
    """Piece ``piece`` of ``team`` walks ``points`` squares (a die or a card move)."""

    team: int
    piece: int
    points: int

    def to_json(self) -> dict[str, Json]:
        """The ``op`` entry of a pending movement."""
        return {"op": "walk", "team": self.team, "piece": self.piece, "points": self.points}


@dataclass(frozen=True, slots=True)
class ChangeLane:
    """Piece ``piece`` of ``team`` moves sideways to ``lane`` (B09)."""

    team: int
    piece: int
    lane: int

    def to_json(self) -> dict[str, Json]:
        """The ``op`` entry of a pending movement."""
        return {"op": "lane", "team": self.team, "piece": self.piece, "lane": self.lane}


@dataclass(frozen=True, slots=True)
class CardPush:
    """A card pushes piece ``piece`` of ``team`` one lane, toward the pool when ``inward``."""

    team: int
    piece: int
    inward: bool

    def to_json(self) -> dict[str, Json]:
        """The ``op`` entry of a pending movement."""
        return {"op": "push", "team": self.team, "piece": self.piece, "inward": self.inward}


@dataclass(frozen=True, slots=True)
class CardFall:
    """A card makes piece ``piece`` of ``team`` fall into the pool."""

    team: int
    piece: int

    def to_json(self) -> dict[str, Json]:
        """The ``op`` entry of a pending movement."""
        return {"op": "fall", "team": self.team, "piece": self.piece}


Operation = Walk | ChangeLane | CardPush | CardFall
"""A movement the resolver runs."""


def operation_from_json(doc: Field) -> Operation:
    """The movement an ``op`` entry describes."""
    kind = doc["op"].one_of(("walk", "lane", "push", "fall"))
    team, piece = doc["team"].as_int(), doc["piece"].int_in(0, 3)
    match kind:
        case "walk":
            return Walk(team, piece, doc["points"].as_int())
        case "lane":
            return ChangeLane(team, piece, doc["lane"].int_in(0, 2))
        case "push":
            return CardPush(team, piece, doc["inward"].as_bool())
        case _:
            return CardFall(team, piece)


@dataclass(slots=True)
class PendingMove:
    """A movement waiting for a team's answer midway (a lifebuoy, a B14 discard).

    The board stays as ``snapshot`` (before the movement) while the team decides; the
    movement is then run again from it with ``answers`` and the new one.
    """

    op: Operation
    answers: tuple[str, ...]
    snapshot: Board
    question: Question

    def to_json(self) -> dict[str, Json]:
        """The ``pending`` entry of the state document (the snapshot holds every hand)."""
        return {
            "op": self.op.to_json(),
            "answers": list(self.answers),
            "snapshot": self.snapshot.to_json(),
            "question": self.question.to_json(),
        }
