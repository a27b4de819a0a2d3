"""The variants of Splash & Bash that are not part of the draft (BV01-BV05).

Each is an option of :class:`~splash.games.bash.config.Options` whose default is the draft;
the state calls these functions, and :mod:`splash.fast.kernel` computes the same values.

- BV01 ``turn_order``: which team plays a team turn, from the number of turns played.
- BV02 ``first_turn_penalty``: a roll modifier of the game's first turn (in the state).
- BV03 ``start_stagger``: where a pawn put on the course at the start stands.
- BV04 ``catch_up_draw``: which team is furthest behind in the race.
- BV05 ``opening_cards``: the draws before the first turn (in the state).
"""

from __future__ import annotations

from splash.games.bash.board import Board
from splash.games.bash.config import TurnOrder
from splash.games.bash.geometry import HELMSMAN, Course


def turn_team(order: TurnOrder, teams: int, turns: int) -> int:
    """The team that plays the team turn after ``turns`` turns (BV01).

    Round ``r = turns // teams``, place ``i = turns % teams`` in it: ``seat`` gives seat ``i``;
    ``rotate`` gives seat ``(r + i) mod teams`` (round r is opened by seat r mod teams);
    ``snake`` gives seat ``i`` in even rounds and seat ``teams - 1 - i`` in odd ones.

    >>> [turn_team("snake", 3, t) for t in range(9)]
    [0, 1, 2, 2, 1, 0, 0, 1, 2]
    >>> [turn_team("rotate", 3, t) for t in range(9)]
    [0, 1, 2, 1, 2, 0, 2, 0, 1]
    """
    rnd, place = divmod(turns, teams)
    if order == "rotate":
        return (rnd + place) % teams
    if order == "snake" and rnd % 2 == 1:
        return teams - 1 - place
    return place


def start_square(course: Course, board: Board, team: int, lane: int) -> int:
    """The ``s`` where a pawn of ``team`` put in ``lane`` at the start stands (BV03).

    Its team's square of :meth:`Course.stagger_square`, or, when a pawn stands there, the
    nearest free square behind it in the same lane; the start line is always free (BD04).
    With no stagger it is the start line, as in the draft.
    """
    s = course.stagger_square(team, lane)
    taken = {p.s for p in board.on_course() if p.lane == lane}
    while s > 0 and s in taken:
        s -= 1
    return s


def race_progress(course: Course, board: Board, team: int) -> int:
    """The summed progress of ``team``'s three pawns (BV04), in units that make the lanes
    comparable: a pawn at ``s`` in lane L counts ``s * P / N_L`` where P is the product of
    the three lane lengths; a finished pawn counts a whole course, ``laps * P``."""
    product = course.lengths[0] * course.lengths[1] * course.lengths[2]
    total = 0
    for piece in board.pieces[team][:HELMSMAN]:
        if piece.finished:
            total += course.laps * product
        elif piece.lane is not None:
            total += piece.s * (product // course.lengths[piece.lane])
    return total


def furthest_behind(course: Course, board: Board) -> int:
    """The team with the least :func:`race_progress`; of tied teams, the latest seat (BV04)."""
    progress = [race_progress(course, board, team) for team in range(len(board.pieces))]
    least = min(progress)
    return max(team for team, value in enumerate(progress) if value == least)
