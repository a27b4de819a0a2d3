"""Which cards may be played now, and which pawns or teams a card may choose (B18, BD16, BD18)."""

from __future__ import annotations

from splash.games.bash.board import Board, Piece
from splash.games.bash.config import (
    LANES,
    CardSpec,
    DiscardCard,
    Effect,
    ExtraDie,
    Fall,
    FreeLaneChange,
    Move,
    PawnTarget,
    Push,
    Reroll,
    RollModifier,
    SkipMove,
    StealCard,
)
from splash.games.bash.geometry import Course

WINDOWS = ("before_roll", "after_roll", "after_lane", "after_walk")


def fits_window(card: CardSpec, window: str) -> bool:
    """Whether a card's timing lets it be played at ``window``."""
    if card.timing == "any":
        return True
    return card.timing == window


def pawn_candidates(
    course: Course, board: Board, team: int, active: Piece, target: PawnTarget
) -> list[Piece]:
    """The pieces a card with ``target`` may choose, measured from ``active``."""
    if not active.on_course:
        return []
    assert active.lane is not None
    found = []
    for piece in board.on_course():
        assert piece.lane is not None
        if piece is active or course.on_line(piece.lane, piece.s):
            continue
        if target.team == "own" and piece.team != team:
            continue
        if target.team == "other" and piece.team == team:
            continue
        if target.lane is not None and LANES[piece.lane] != target.lane:
            continue
        square = course.physical(piece.lane, piece.s)
        reference = course.physical(piece.lane, course.alongside(active.lane, active.s, piece.lane))
        if (
            target.within is not None
            and course.ring_distance(piece.lane, square, reference) > target.within
        ):
            continue
        if target.next_to and not _next_to(course, active, piece):
            continue
        found.append(piece)
    return found


def _next_to(course: Course, active: Piece, piece: Piece) -> bool:
    assert active.lane is not None and piece.lane is not None
    mine = course.physical(active.lane, active.s)
    theirs = course.physical(piece.lane, piece.s)
    if piece.lane == active.lane:
        return theirs == (mine + 1) % course.length(active.lane)
    return course.next_to(active.lane, mine, piece.lane, theirs)


def victim_candidates(board: Board, team: int) -> list[int]:
    """Other teams holding at least one card."""
    return [t for t, hand in enumerate(board.hands) if t != team and hand]


def effect_possible(
    effect: Effect,
    *,
    course: Course,
    board: Board,
    team: int,
    active: Piece,
    skip_move: bool,
) -> bool:
    """Whether ``effect`` can take effect now (a card is playable when all of its effects can)."""
    if isinstance(effect, RollModifier | ExtraDie | FreeLaneChange | Reroll):
        return not skip_move
    if isinstance(effect, SkipMove):
        return True
    if isinstance(effect, Move):
        return active.on_course and not skip_move
    if isinstance(effect, Push | Fall):
        return bool(pawn_candidates(course, board, team, active, effect.target))
    if isinstance(effect, DiscardCard | StealCard):
        return bool(victim_candidates(board, team))
    return True
