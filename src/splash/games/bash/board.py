"""What lies on and around the course: pieces, obstacles, hands, decks, discards."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from splash.core.actions import Json
from splash.games.bash.events import BashEvent, event_json
from splash.games.bash.geometry import HELMSMAN

PIECE_LABELS = ("1", "2", "3", "H")
TEAM_LETTERS = "ABCD"


def piece_name(team: int, index: int) -> str:
    """``A1`` … ``A3`` for a team's pawns, ``AH`` for its helmsman."""
    return TEAM_LETTERS[team] + PIECE_LABELS[index]


@dataclass(slots=True)
class Piece:
    """A pawn or a helmsman: on the course at ``(lane, s)``, not yet on it, or finished."""

    team: int
    index: int
    lane: int | None = None
    s: int = 0
    finished: bool = False

    @property
    def helmsman(self) -> bool:
        """Whether this piece is its team's helmsman."""
        return self.index == HELMSMAN

    @property
    def on_course(self) -> bool:
        """Whether the piece stands on the course now."""
        return self.lane is not None and not self.finished

    @property
    def name(self) -> str:
        """Its label (``B2``, ``CH``)."""
        return piece_name(self.team, self.index)

    def copy(self) -> Piece:
        """An independent copy."""
        return Piece(self.team, self.index, self.lane, self.s, self.finished)

    def to_json(self) -> dict[str, Json]:
        """``{"lane": 1, "s": 12, "finished": false}``."""
        return {"lane": self.lane, "s": self.s, "finished": self.finished}


def _counts(value: Any) -> dict[str, int]:
    return {str(k): int(v) for k, v in dict(value).items()}


@dataclass(slots=True)
class Board:
    """Everything a movement, a bump or a card can change.

    ``hands`` hold card ids (sorted); ``decks`` and ``discards`` hold counts per card id
    (a deck has no order); ``played`` is the set of teams that played a card this team turn.
    """

    pieces: list[list[Piece]]
    obstacles: set[tuple[int, int]] = field(default_factory=set)
    hands: list[list[str]] = field(default_factory=list)
    decks: dict[str, dict[str, int]] = field(default_factory=dict)
    discards: dict[str, dict[str, int]] = field(default_factory=dict)
    played: set[int] = field(default_factory=set)
    events: list[BashEvent] = field(default_factory=list)
    winner: int | None = None

    @classmethod
    def empty(cls, teams: int, decks: dict[str, dict[str, int]]) -> Board:
        """No piece on the course, empty hands, full decks."""
        return cls(
            pieces=[[Piece(t, i) for i in range(4)] for t in range(teams)],
            hands=[[] for _ in range(teams)],
            decks={deck: dict(cards) for deck, cards in decks.items()},
            discards={deck: {card: 0 for card in cards} for deck, cards in decks.items()},
        )

    def copy(self) -> Board:
        """An independent copy."""
        return Board(
            pieces=[[p.copy() for p in team] for team in self.pieces],
            obstacles=set(self.obstacles),
            hands=[list(h) for h in self.hands],
            decks={d: dict(c) for d, c in self.decks.items()},
            discards={d: dict(c) for d, c in self.discards.items()},
            played=set(self.played),
            events=list(self.events),
            winner=self.winner,
        )

    def restore_from(self, other: Board) -> None:
        """Take every value of ``other`` while keeping this board's piece objects."""
        for mine, theirs in zip(self.all_pieces(), other.all_pieces(), strict=True):
            mine.lane, mine.s, mine.finished = theirs.lane, theirs.s, theirs.finished
        self.obstacles = set(other.obstacles)
        self.hands = [list(h) for h in other.hands]
        self.decks = {d: dict(c) for d, c in other.decks.items()}
        self.discards = {d: dict(c) for d, c in other.discards.items()}
        self.played = set(other.played)
        self.events = list(other.events)
        self.winner = other.winner

    def all_pieces(self) -> Iterator[Piece]:
        """Every pawn and helmsman, team by team."""
        for team in self.pieces:
            yield from team

    def on_course(self) -> Iterator[Piece]:
        """The pieces standing on the course."""
        return (p for p in self.all_pieces() if p.on_course)

    def add_card(self, team: int, card: str) -> None:
        """Put ``card`` into ``team``'s hand."""
        self.hands[team].append(card)
        self.hands[team].sort()

    def remove_card(self, team: int, card: str) -> None:
        """Take ``card`` out of ``team``'s hand."""
        self.hands[team].remove(card)

    def discard(self, deck: str, card: str) -> None:
        """Put ``card`` on ``deck``'s discard pile."""
        self.discards[deck][card] = self.discards[deck].get(card, 0) + 1

    def to_json(self) -> dict[str, Json]:
        """The whole board, hands included."""
        return {
            "pieces": [[p.to_json() for p in team] for team in self.pieces],
            "obstacles": [list(o) for o in sorted(self.obstacles)],
            "hands": [list(h) for h in self.hands],
            "decks": {d: dict(c) for d, c in self.decks.items()},
            "discards": {d: dict(c) for d, c in self.discards.items()},
            "played": [int(t) for t in sorted(self.played)],
            "events": [event_json(e) for e in self.events],
            "winner": self.winner,
        }

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> Board:
        """The board a :meth:`to_json` document describes."""
        pieces = [
            [Piece(t, i, p["lane"], int(p["s"]), bool(p["finished"])) for i, p in enumerate(team)]
            for t, team in enumerate(doc["pieces"])
        ]
        return cls(
            pieces=pieces,
            obstacles={(int(a), int(b)) for a, b in doc["obstacles"]},
            hands=[sorted(str(c) for c in h) for h in doc["hands"]],
            decks={str(d): _counts(c) for d, c in doc["decks"].items()},
            discards={str(d): _counts(c) for d, c in doc["discards"].items()},
            played={int(t) for t in doc["played"]},
            events=list(doc["events"]),
            winner=doc["winner"],
        )
