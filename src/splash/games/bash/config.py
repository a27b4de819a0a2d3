"""The data and options of Splash & Bash: board, decks, options, validated on load.

The three data files ship in ``splash/games/bash/data`` (TOML).  Every value can be changed
with a ``--set KEY=VALUE`` assignment whose key is its path in the tree of
:meth:`BashConfig.tree` (``board.lanes.outer``, ``decks.high_tide.undertow``,
``options.teams``).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from splash.core.datafiles import read_toml
from splash.core.documents import format_tag
from splash.core.errors import DataFileError, OptionError
from splash.core.i18n import message
from splash.core.settings import apply_assignments

LANES: tuple[str, ...] = ("outer", "centre", "high_tide")
"""Lane ids from the outer edge (0) to the pool's edge (2)."""
DECKS: tuple[str, ...] = ("low_tide", "high_tide")

LaneName = Literal["outer", "centre", "high_tide"]
DeckName = Literal["low_tide", "high_tide"]
HAND_DECK: DeckName = "high_tide"
"""The deck whose cards are kept in hand (B07), unseen by the other teams (BD12)."""
Timing = Literal[
    "on_draw", "before_roll", "after_roll", "after_lane", "after_walk", "any", "on_fall"
]

BOARD_FORMAT = format_tag("bash-board", 1)
DECK_FORMAT = format_tag("bash-deck", 1)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class PawnTarget(_Strict):
    """Which pawns a card may choose."""

    team: Literal["any", "own", "other"] = "any"
    lane: LaneName | None = None
    within: Annotated[int, Field(ge=0)] | None = None
    """Distance in physical squares of the target's lane from the square alongside the
    active pawn, ahead or behind, across the line if shorter."""
    next_to: bool = False
    """A square next to the active pawn: alongside in an adjacent lane, or just ahead."""


class RollModifier(_Strict):
    """Add ``amount`` to this turn's roll (never below ``minimum``)."""

    primitive: Literal["roll_modifier"]
    amount: int
    minimum: Annotated[int, Field(ge=0)] = 1


class ExtraDie(_Strict):
    """Roll ``dice`` more dice this turn and add them."""

    primitive: Literal["extra_die"]
    dice: Annotated[int, Field(ge=1, le=4)] = 1


class Reroll(_Strict):
    """Roll again and keep either result."""

    primitive: Literal["reroll"]


class FreeLaneChange(_Strict):
    """This turn's lane change costs nothing."""

    primitive: Literal["free_lane_change"]


class SkipMove(_Strict):
    """The active pawn does not move this turn: no roll, no lane change, no card moves it."""

    primitive: Literal["skip_move"]


class PlaceObstacle(_Strict):
    """The team puts ``count`` obstacles on empty squares off the start line."""

    primitive: Literal["place_obstacle"]
    count: Annotated[int, Field(ge=1, le=5)] = 1


class Move(_Strict):
    """The active pawn walks ``squares`` forward now (bumps and obstacles apply)."""

    primitive: Literal["move"]
    squares: Annotated[int, Field(ge=1, le=20)]
    tail_wind: bool = False


class Push(_Strict):
    """A chosen pawn is pushed one lane toward the pool (or outward)."""

    primitive: Literal["push"]
    direction: Literal["pool", "outward"] = "pool"
    target: PawnTarget


class Fall(_Strict):
    """A chosen pawn falls into the pool."""

    primitive: Literal["fall"]
    target: PawnTarget


class CancelFall(_Strict):
    """A pawn of the team about to fall into the pool does not fall."""

    primitive: Literal["cancel_fall"]


class DiscardCard(_Strict):
    """A chosen other team discards one high tide card of its choice."""

    primitive: Literal["discard_card"]


class StealCard(_Strict):
    """Take one card at random from a chosen other team's hand."""

    primitive: Literal["steal_card"]


Effect = Annotated[
    RollModifier
    | ExtraDie
    | Reroll
    | FreeLaneChange
    | SkipMove
    | PlaceObstacle
    | Move
    | Push
    | Fall
    | CancelFall
    | DiscardCard
    | StealCard,
    Field(discriminator="primitive"),
]

ROLL_EFFECTS = (RollModifier, ExtraDie, FreeLaneChange, SkipMove)
ACTIVE_PAWN_EFFECTS = (Move, Push, Fall)


class CardSpec(_Strict):
    """One kind of card: how many copies, when it may be played, what it does."""

    count: Annotated[int, Field(ge=0, le=99)]
    timing: Timing
    effects: list[Effect] = Field(default_factory=list)

    @model_validator(mode="after")
    def _consistent(self) -> CardSpec:
        kinds = {type(e) for e in self.effects}
        if self.timing == "on_fall" and kinds != {CancelFall}:
            raise ValueError("an on_fall card has exactly the cancel_fall effect")
        if CancelFall in kinds and self.timing != "on_fall":
            raise ValueError("cancel_fall is played on_fall")
        if Reroll in kinds and self.timing != "after_roll":
            raise ValueError("reroll is played after_roll")
        if kinds & set(ROLL_EFFECTS) and self.timing not in ("on_draw", "before_roll"):
            raise ValueError(
                "roll_modifier, extra_die, free_lane_change and skip_move act before the roll "
                "(timing on_draw or before_roll)"
            )
        return self


class DeckSpec(_Strict):
    """A deck file."""

    format: Literal["splash/bash-deck/1"]
    deck: DeckName
    cards: dict[str, CardSpec]


class Lanes(_Strict):
    """Squares per lap of each lane."""

    outer: Annotated[int, Field(ge=4, le=400)]
    centre: Annotated[int, Field(ge=4, le=400)]
    high_tide: Annotated[int, Field(ge=4, le=400)]


class Colours(_Strict):
    """The deck drawn from when a turn starts in each lane."""

    outer: DeckName
    centre: DeckName
    high_tide: DeckName


class Checkpoints(_Strict):
    """Checkpoint lines as fractions of a lap."""

    fractions: list[Annotated[float, Field(ge=0.0, lt=1.0)]]

    @model_validator(mode="after")
    def _sorted_from_zero(self) -> Checkpoints:
        if not self.fractions or self.fractions[0] != 0.0:
            raise ValueError("the first checkpoint is the start line, 0.0")
        if list(self.fractions) != sorted(set(self.fractions)):
            raise ValueError("checkpoints must be increasing")
        return self


class BoardSpec(_Strict):
    """The board file."""

    format: Literal["splash/bash-board/1"]
    laps: Annotated[int, Field(ge=1, le=10)]
    lanes: Lanes
    colours: Colours
    checkpoints: Checkpoints


TurnOrder = Literal["seat", "rotate", "snake"]
TURN_ORDERS: tuple[TurnOrder, ...] = ("seat", "rotate", "snake")
"""The turn orders of BV01, the draft's (``seat``) first."""


class Options(_Strict):
    """Rule options (BD01, BD05, BD11, BD13, BD14 and the numbers of the seed), and the
    variants that are not part of the draft (BV01-BV05); every default is the draft."""

    teams: Annotated[int, Field(ge=2, le=4)] = 2
    die_faces: Annotated[int, Field(ge=2, le=20)] = 6
    obstacles: Literal["one-shot", "permanent"] = "one-shot"
    helmsman_laps: Annotated[int, Field(ge=1, le=10)] = 1
    turn_cap: Annotated[int, Field(ge=1, le=1_000_000)] = 1000
    hand_limit: Annotated[int, Field(ge=1, le=10)] = 2
    lane_change_cost: Annotated[int, Field(ge=0, le=10)] = 2
    tail_wind: Annotated[int, Field(ge=0, le=10)] = 1
    bump_distance: Annotated[int, Field(ge=1, le=10)] = 2
    turn_order: TurnOrder = "seat"
    """BV01: who opens each round and in which direction it goes."""
    first_turn_penalty: Annotated[int, Field(ge=0, le=20)] = 0
    """BV02: subtracted from the roll of the game's first turn (never below 1)."""
    start_stagger: Annotated[int, Field(ge=0, le=10)] = 0
    """BV03: seat k's pawns start ``start_stagger * k`` Centre squares ahead."""
    catch_up_draw: bool = False
    """BV04: the team furthest behind makes its automatic draw twice."""
    opening_cards: Annotated[int, Field(ge=0, le=1)] = 0
    """BV05: high tide cards each team but seat 0 draws before the first turn."""


DATA_FILES = {"board": "board.toml", "low_tide": "low_tide.toml", "high_tide": "high_tide.toml"}


def _data_error(file: str, error: ValidationError) -> DataFileError:
    first = error.errors()[0]
    loc = [str(part) for part in first["loc"]]
    entry: str | None
    if loc[:1] == ["cards"]:
        entry = loc[1] if len(loc) > 1 else None
        field = ".".join(loc[2:]) or None
    else:
        entry = loc[0] if loc else None
        field = ".".join(loc[1:]) or None
    return DataFileError(file, entry, field, message("{problem}", problem=first["msg"]))


@dataclass(frozen=True)
class BashConfig:
    """Board, decks and options of one Splash & Bash game, validated."""

    board: BoardSpec
    decks: Mapping[str, DeckSpec]
    options: Options

    @classmethod
    def load(
        cls,
        assignments: Iterable[tuple[str, Any]] = (),
        *,
        data_dir: Path | None = None,
        data: Mapping[str, Any] | None = None,
    ) -> BashConfig:
        """The shipped data (or the files of ``data_dir``, or ``data``: the data parts of a
        :meth:`raw_tree`, as :meth:`data_parts` gives them) with ``assignments`` applied."""
        if data is not None:
            raw: dict[str, Any] = {"options": Options().model_dump(), **copy.deepcopy(dict(data))}
            names = dict(DATA_FILES)
        else:
            raw, names = cls.raw_tree(data_dir)
        tree = apply_assignments(raw, assignments, leaf_key="count")
        changed = {
            key.split(".")[0] + "." + key.split(".")[1] for key, _ in assignments if "." in key
        }
        return cls.from_tree(tree, names=names, changed=changed)

    @staticmethod
    def raw_tree(data_dir: Path | None = None) -> tuple[dict[str, Any], dict[str, str]]:
        """The unvalidated tree of data and default options, and each part's file name."""
        base: Path | resources.abc.Traversable = (
            data_dir if data_dir is not None else resources.files("splash.games.bash") / "data"
        )
        names = {
            part: str(Path(data_dir) / file) if data_dir is not None else file
            for part, file in DATA_FILES.items()
        }
        board = read_toml(base / DATA_FILES["board"], names["board"])
        decks = {}
        for deck in DECKS:
            doc = read_toml(base / DATA_FILES[deck], names[deck])
            if doc.get("deck") != deck:
                raise DataFileError(
                    names[deck], "deck", "deck", message("must be {deck!r}", deck=deck)
                )
            decks[deck] = doc
        tree = {
            "options": Options().model_dump(),
            "board": board,
            "decks": {deck: decks[deck]["cards"] for deck in DECKS},
        }
        meta = {deck: {k: v for k, v in decks[deck].items() if k != "cards"} for deck in DECKS}
        tree["_deck_meta"] = meta
        return tree, names

    @classmethod
    def data_parts(cls, data_dir: Path) -> dict[str, Any]:
        """The board and decks read from the files of ``data_dir`` (checked only as TOML), as
        one JSON-ready mapping that :meth:`load` takes as ``data``."""
        raw, _ = cls.raw_tree(data_dir)
        return {key: value for key, value in raw.items() if key != "options"}

    @classmethod
    def from_tree(
        cls,
        tree: Mapping[str, Any],
        *,
        names: Mapping[str, str] | None = None,
        changed: Iterable[str] = (),
    ) -> BashConfig:
        """Validate a tree such as :meth:`tree` returns."""
        names = dict(names or DATA_FILES)
        changed = set(changed)

        def label(part: str, prefix: str) -> str:
            return names[part] + (
                " (with --set)" if any(c.startswith(prefix) for c in changed) else ""
            )

        if not isinstance(tree, Mapping):
            raise OptionError("-", tree, message("the configuration must be a table"))
        for key in ("options", "board", "decks"):
            if not isinstance(tree.get(key), Mapping):
                raise OptionError(key, tree.get(key), message("missing or not a table"))
        try:
            options = Options.model_validate(tree["options"])
        except ValidationError as error:
            first = error.errors()[0]
            key = "options." + ".".join(str(p) for p in first["loc"])
            value = first.get("input")
            raise OptionError(key, value, message("{problem}", problem=first["msg"])) from None
        try:
            board = BoardSpec.model_validate(tree["board"])
        except ValidationError as error:
            raise _data_error(label("board", "board."), error) from None
        decks: dict[str, DeckSpec] = {}
        meta = tree.get("_deck_meta", {})
        for deck in DECKS:
            cards = tree["decks"].get(deck)
            doc = {"format": DECK_FORMAT, "deck": deck, **meta.get(deck, {}), "cards": cards}
            try:
                decks[deck] = DeckSpec.model_validate(doc)
            except ValidationError as error:
                raise _data_error(label(deck, f"decks.{deck}"), error) from None
            for name, card in decks[deck].cards.items():
                problem = None
                if not name.isidentifier():
                    problem = message("a card id is an identifier (letters, digits, _)")
                elif deck == "low_tide" and card.timing != "on_draw":
                    problem = message("a low tide card is applied on_draw")
                elif deck == "high_tide" and card.timing == "on_draw":
                    problem = message("a high tide card is kept in hand, not applied on_draw")
                if problem is not None:
                    raise DataFileError(label(deck, f"decks.{deck}"), name, "timing", problem)
            if not any(card.count for card in decks[deck].cards.values()):
                raise DataFileError(
                    label(deck, f"decks.{deck}"), "cards", "count", message("the deck has no card")
                )
        return cls(board=board, decks=decks, options=options)

    def tree(self) -> dict[str, Any]:
        """Options and data as one JSON-ready tree (the keys ``--set`` addresses)."""
        return {
            "options": self.options.model_dump(mode="json"),
            "board": self.board.model_dump(mode="json"),
            "decks": {
                deck: {
                    name: card.model_dump(mode="json", exclude_defaults=False)
                    for name, card in spec.cards.items()
                }
                for deck, spec in self.decks.items()
            },
        }
