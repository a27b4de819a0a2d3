"""Movement on the course: walks, lane changes, bumps, chains, obstacles, falls (B10-B17).

A :class:`Resolver` runs one operation (a walk, a lane change, a card's push or fall) on a
:class:`Board`.  When a team must decide in the middle of it (a lifebuoy, a discard under
B14), it raises :class:`NeedAnswer`; the caller keeps the board as it was before the
operation and runs it again from there with the answers given so far, so an operation is a
pure function of (board, operation, answers).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from splash.core.actions import Json
from splash.games.bash.board import Board, Piece
from splash.games.bash.config import Options
from splash.games.bash.events import BashEvent, EventKind
from splash.games.bash.geometry import CENTRE, HIGH_TIDE, OUTER, Course

PASS = "pass"
QuestionKind = Literal["lifebuoy", "discard"]
QUESTION_KINDS: tuple[QuestionKind, ...] = ("lifebuoy", "discard")


class Result(enum.Enum):
    """How a movement ended."""

    MOVED = "moved"
    BUMPED = "bumped"
    SLIPPED = "slipped"
    FELL = "fell"
    SAVED = "saved"
    STOPPED = "stopped"
    FINISHED = "finished"


class How(enum.Enum):
    """The way a piece enters a square; a bump pushes the occupant the same way."""

    FORWARD = "forward"
    BACKWARD = "backward"
    INWARD = "inward"
    OUTWARD = "outward"
    PUT = "put"


_PUSH = {
    How.FORWARD: How.FORWARD,
    How.BACKWARD: How.BACKWARD,
    How.INWARD: How.INWARD,
    How.OUTWARD: How.OUTWARD,
    How.PUT: How.BACKWARD,
}


@dataclass(frozen=True, slots=True)
class Question:
    """A decision a team takes in the middle of a movement."""

    kind: QuestionKind
    """``lifebuoy`` (play a reaction card or pass) or ``discard`` (B14)."""
    team: int
    options: tuple[str, ...]
    piece: tuple[int, int]

    def to_json(self) -> dict[str, Json]:
        """JSON form (the options are private to ``team``)."""
        return {
            "kind": self.kind,
            "team": self.team,
            "options": list(self.options),
            "piece": list(self.piece),
        }


class NeedAnswer(Exception):  # noqa: N818
    """Raised when an operation needs a team's decision it was not given."""

    def __init__(self, question: Question) -> None:
        super().__init__(question.kind)
        self.question = question


class GameWon(Exception):  # noqa: N818
    """Raised when a helmsman finishes: the game ends at once (BD14)."""

    def __init__(self, team: int) -> None:
        super().__init__(team)
        self.team = team


class _UndoChain(Exception):  # noqa: N818
    def __init__(self, saved: tuple[int, str] | None = None) -> None:
        super().__init__()
        self.saved = saved


class Resolver:
    """Runs movements on ``board`` under the rules and options of one game."""

    def __init__(
        self,
        course: Course,
        options: Options,
        board: Board,
        *,
        reaction_cards: frozenset[str],
        hand_deck: str,
        answers: Sequence[str] = (),
    ) -> None:
        self.course = course
        self.options = options
        self.board = board
        self.reaction_cards = reaction_cards
        self.hand_deck = hand_deck
        self._answers = list(answers)
        self._next_answer = 0
        self._chain: set[tuple[int, int]] | None = None

    # ----- operations -------------------------------------------------------------------

    def walk(self, piece: Piece, points: int) -> Result:
        """Walk ``points`` squares forward; a helmsman bounces back from the line (B31)."""
        assert piece.lane is not None
        total = self.course.total(piece.lane, piece.helmsman)
        position, step, remaining = piece.s, 1, points
        while remaining > 0:
            remaining -= 1
            target = position + step
            if step > 0 and target >= total:
                if not piece.helmsman or remaining == 0:
                    return self._finish(piece)
                self._event("bounce", piece, squares=remaining)
                position, step = total, -1
                continue
            if target < 0:
                break
            result = self._enter(
                piece, piece.lane, target, How.FORWARD if step > 0 else How.BACKWARD
            )
            position = target
            if result is not Result.MOVED:
                return result
        return Result.MOVED

    def change_lane(self, piece: Piece, lane: int) -> Result:
        """Move sideways, one lane at a time, to ``lane`` (B09, B13)."""
        while piece.lane is not None and piece.lane != lane:
            step = 1 if lane > piece.lane else -1
            new_lane = piece.lane + step
            square = self._alongside(piece, new_lane)
            how = How.INWARD if step > 0 else How.OUTWARD
            result = self._enter(piece, new_lane, square, how)
            if result is not Result.MOVED:
                return result
        return Result.MOVED

    def push(self, piece: Piece, inward: bool) -> Result:
        """A card pushes ``piece`` one lane; the card starts the chain (BD16 shove)."""
        snapshot = self.board.copy()
        self._chain = set()
        try:
            result = self._displace(piece, How.INWARD if inward else How.OUTWARD)
        except _UndoChain as undo:
            result = self._undo(snapshot, undo)
        self._chain = None
        return result

    def fall(self, piece: Piece) -> Result:
        """A card makes ``piece`` fall into the pool (BD16 undertow)."""
        return self._fall(piece, slipped=False)

    # ----- squares ----------------------------------------------------------------------

    def occupant(self, lane: int, s: int, exclude: Piece | None = None) -> Piece | None:
        """The piece on the physical square under ``(lane, s)``, if any."""
        n = self.course.length(lane)
        square = s % n
        for piece in self.board.on_course():
            if piece is not exclude and piece.lane == lane and piece.s % n == square:
                return piece
        return None

    def _alongside(self, piece: Piece, lane: int) -> int:
        assert piece.lane is not None
        square = self.course.alongside(piece.lane, piece.s, lane)
        return min(square, self.course.total(lane, piece.helmsman) - 1)

    def _has_obstacle(self, lane: int, s: int) -> bool:
        return (lane, self.course.physical(lane, s)) in self.board.obstacles

    # ----- entering, bumping, slipping --------------------------------------------------

    def _enter(self, piece: Piece, lane: int, s: int, how: How) -> Result:
        if self.course.on_line(lane, s):
            piece.lane, piece.s = lane, s
            return Result.MOVED
        occupant = self.occupant(lane, s, exclude=piece)
        result = Result.MOVED
        if occupant is not None:
            if self._chain is None:
                result = self._start_chain(piece, lane, s, occupant, how)
                if result is Result.STOPPED:
                    return result
            else:
                if (occupant.team, occupant.index) in self._chain:
                    raise _UndoChain()
                self._bump(piece, lane, s, occupant, how)
                result = Result.BUMPED
        else:
            piece.lane, piece.s = lane, s
        if piece.on_course and (piece.lane, piece.s) == (lane, s) and self._has_obstacle(lane, s):
            return self._slip(piece)
        return result

    def _start_chain(self, piece: Piece, lane: int, s: int, occupant: Piece, how: How) -> Result:
        snapshot = self.board.copy()
        self._chain = set()
        try:
            self._bump(piece, lane, s, occupant, how)
        except _UndoChain as undo:
            self._chain = None
            return self._undo(snapshot, undo)
        self._chain = None
        return Result.BUMPED

    def _bump(self, piece: Piece, lane: int, s: int, occupant: Piece, how: How) -> None:
        assert self._chain is not None
        self._chain.add((piece.team, piece.index))
        piece.lane, piece.s = lane, s
        self._event("bump", piece, target=occupant.name, direction=_PUSH[how].value)
        self._displace(occupant, _PUSH[how])

    def _undo(self, snapshot: Board, undo: _UndoChain) -> Result:
        self.board.restore_from(snapshot)
        if undo.saved is not None:
            team, card = undo.saved
            self._play_reaction(team, card)
        self.board.events.append({"event": "chain_undone"})
        return Result.STOPPED

    def _displace(self, piece: Piece, how: How) -> Result:
        assert self._chain is not None and piece.lane is not None
        self._chain.add((piece.team, piece.index))
        distance = self.options.bump_distance
        lane = piece.lane
        if how is How.FORWARD:
            total = self.course.total(lane, piece.helmsman)
            target = piece.s + distance
            slipped = self._cross(piece, lane, range(piece.s + 1, min(target, total)))
            if slipped is not None:
                return slipped
            if target >= total:
                if not piece.helmsman or target == total:
                    return self._finish(piece)
                target = max(0, total - (target - total))
                slipped = self._cross(piece, lane, range(total - 1, target, -1))
                if slipped is not None:
                    return slipped
                return self._enter(piece, lane, target, How.BACKWARD)
            return self._enter(piece, lane, target, How.FORWARD)
        if how is How.BACKWARD:
            target = max(0, piece.s - distance)
            slipped = self._cross(piece, lane, range(piece.s - 1, target, -1))
            if slipped is not None:
                return slipped
            return self._enter(piece, lane, target, How.BACKWARD)
        if how is How.INWARD:
            if piece.lane == HIGH_TIDE:
                return self._fall(piece, slipped=False)
            lane = piece.lane + 1
            return self._enter(piece, lane, self._alongside(piece, lane), How.INWARD)
        if piece.lane == OUTER:
            return self._outer_edge(piece)
        lane = piece.lane - 1
        return self._enter(piece, lane, self._alongside(piece, lane), How.OUTWARD)

    def _cross(self, piece: Piece, lane: int, squares: range) -> Result | None:
        """A pushed pawn crosses ``squares`` before it lands (BD08): the first with an
        obstacle makes it slip from there, ending its displacement; a pawn there is not
        bumped.  ``None`` when it crosses them all."""
        for s in squares:
            if self._has_obstacle(lane, s) and not self.course.on_line(lane, s):
                piece.lane, piece.s = lane, s
                return self._slip(piece)
        return None

    def _outer_edge(self, piece: Piece) -> Result:
        hand = self.board.hands[piece.team]
        if hand:
            if len(hand) == 1:
                card = hand[0]
            else:
                card = self._ask(
                    Question("discard", piece.team, tuple(sorted(set(hand))), _key(piece))
                )
            self.board.remove_card(piece.team, card)
            self.board.discard(self.hand_deck, card)
            self.board.events.append({"event": "discard", "team": piece.team, "card": card})
        # The pusher took the target's square: behind it is one square back in the target's
        # own count (the two may be on different laps).
        return self._enter(piece, OUTER, max(0, piece.s - 1), How.PUT)

    def _slip(self, piece: Piece) -> Result:
        assert piece.lane is not None
        square = (piece.lane, self.course.physical(piece.lane, piece.s))
        if self.options.obstacles == "one-shot":
            self.board.obstacles.discard(square)
        self._event("slip", piece)
        if piece.lane == HIGH_TIDE:
            return self._fall(piece, slipped=True)
        lane = piece.lane + 1
        result = self._enter(piece, lane, self._alongside(piece, lane), How.INWARD)
        return Result.SLIPPED if result in (Result.MOVED, Result.BUMPED) else result

    # ----- the pool ---------------------------------------------------------------------

    def _fall(self, piece: Piece, *, slipped: bool) -> Result:
        assert piece.lane is not None
        card = self._lifebuoy(piece)
        if card is not None:
            if self._chain is not None:
                raise _UndoChain((piece.team, card))
            self._play_reaction(piece.team, card)
            if slipped:
                self.board.obstacles.discard(
                    (piece.lane, self.course.physical(piece.lane, piece.s))
                )
            self._event("saved", piece, card=card)
            return Result.SAVED
        self._event("fall", piece)
        s = self.course.restart(piece.lane, piece.s)
        while not self.course.on_line(CENTRE, s) and (
            self.occupant(CENTRE, s, exclude=piece) is not None or self._has_obstacle(CENTRE, s)
        ):
            s -= 1
        piece.lane, piece.s = CENTRE, s
        self._event("restart", piece)
        return Result.FELL

    def _lifebuoy(self, piece: Piece) -> str | None:
        team = piece.team
        hand = self.board.hands[team]
        if not self.reaction_cards or not hand or team in self.board.played:
            return None
        options = (*sorted({c for c in hand if c in self.reaction_cards}), PASS)
        answer = self._ask(Question("lifebuoy", team, options, _key(piece)))
        return None if answer == PASS else answer

    def _play_reaction(self, team: int, card: str) -> None:
        self.board.remove_card(team, card)
        self.board.discard(self.hand_deck, card)
        self.board.played.add(team)
        self.board.events.append({"event": "play", "team": team, "card": card})

    def _finish(self, piece: Piece) -> Result:
        piece.finished, piece.lane, piece.s = True, None, 0
        self._event("finish", piece)
        if piece.helmsman:
            self.board.winner = piece.team
            raise GameWon(piece.team)
        return Result.FINISHED

    # ----- answers and events -----------------------------------------------------------

    def _ask(self, question: Question) -> str:
        if self._next_answer >= len(self._answers):
            raise NeedAnswer(question)
        answer = self._answers[self._next_answer]
        self._next_answer += 1
        if answer not in question.options:
            raise ValueError(f"answer {answer!r} is not one of {question.options}")
        return answer

    def _event(
        self,
        kind: EventKind,
        piece: Piece,
        *,
        target: str | None = None,
        direction: str | None = None,
        squares: int | None = None,
        card: str | None = None,
    ) -> None:
        event: BashEvent = {"event": kind, "piece": piece.name}
        if piece.lane is not None and not piece.finished:
            event["lane"] = self.course.lane_name(piece.lane)
            event["s"] = piece.s
        if target is not None:
            event["target"] = target
        if direction is not None:
            event["direction"] = direction
        if squares is not None:
            event["squares"] = squares
        if card is not None:
            event["card"] = card
        self.board.events.append(event)


def _key(piece: Piece) -> tuple[int, int]:
    return piece.team, piece.index
