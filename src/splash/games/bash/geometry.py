"""The course: lane lengths, positions, squares alongside, checkpoints (B03, B04, BD02-BD04)."""

from __future__ import annotations

from fractions import Fraction

from splash.games.bash.config import LANES, BoardSpec, Options

OUTER, CENTRE, HIGH_TIDE = 0, 1, 2
HELMSMAN = 3
"""Index of a team's helmsman among its pieces (pawns are 0, 1, 2)."""


def round_half_up(value: Fraction) -> int:
    """⌊value + ½⌋."""
    return int((value + Fraction(1, 2)) // 1)


class Course:
    """Geometry of the three lanes; positions are ``(lane, s)`` with ``s`` counting laps."""

    def __init__(self, board: BoardSpec, options: Options) -> None:
        self.lengths: tuple[int, int, int] = (
            board.lanes.outer,
            board.lanes.centre,
            board.lanes.high_tide,
        )
        self.laps = board.laps
        self.helmsman_laps = options.helmsman_laps
        self.stagger = options.start_stagger
        self.colours: tuple[str, str, str] = (
            board.colours.outer,
            board.colours.centre,
            board.colours.high_tide,
        )
        fractions = [Fraction(repr(f)) for f in board.checkpoints.fractions]
        self.checkpoints: tuple[tuple[int, ...], ...] = tuple(
            tuple(round_half_up(f * n) for f in fractions) for n in self.lengths
        )

    def length(self, lane: int) -> int:
        """Squares per lap of ``lane``."""
        return self.lengths[lane]

    def total(self, lane: int, helmsman: bool) -> int:
        """The ``s`` at which a pawn (or a helmsman) in ``lane`` finishes."""
        return (self.helmsman_laps if helmsman else self.laps) * self.lengths[lane]

    def physical(self, lane: int, s: int) -> int:
        """The square of the lap under position ``s``."""
        return s % self.lengths[lane]

    def on_line(self, lane: int, s: int) -> bool:
        """Whether ``(lane, s)`` is on the start/finish line."""
        return s % self.lengths[lane] == 0

    def alongside(self, lane: int, s: int, to_lane: int) -> int:
        """The position in ``to_lane`` alongside ``(lane, s)`` (through Centre if needed)."""
        while lane != to_lane:
            step = 1 if to_lane > lane else -1
            n_from, n_to = self.lengths[lane], self.lengths[lane + step]
            s = (2 * s * n_to + n_from) // (2 * n_from)
            lane += step
        return s

    def stagger_square(self, team: int, lane: int) -> int:
        """Where team ``team``'s pawns start in ``lane`` under BV03: the square alongside
        Centre square ``stagger * team``, at most the first lap's last square."""
        return min(self.alongside(CENTRE, self.stagger * team, lane), self.lengths[lane] - 1)

    def next_to(self, lane_a: int, square_a: int, lane_b: int, square_b: int) -> bool:
        """Whether physical squares of two adjacent lanes are next to each other (BD03)."""
        if abs(lane_a - lane_b) != 1:
            return False
        a_to_b = self.alongside(lane_a, square_a, lane_b) % self.lengths[lane_b]
        b_to_a = self.alongside(lane_b, square_b, lane_a) % self.lengths[lane_a]
        return a_to_b == square_b or b_to_a == square_a

    def ring_distance(self, lane: int, a: int, b: int) -> int:
        """Physical squares between squares ``a`` and ``b`` of ``lane``, across the line if shorter."""
        n = self.lengths[lane]
        d = abs(a - b) % n
        return min(d, n - d)

    def restart(self, lane: int, s: int) -> int:
        """The Centre position of the checkpoint line at or behind ``(lane, s)`` (BD10)."""
        n = self.lengths[lane]
        lap, square = divmod(s, n)
        line = max(i for i, cp in enumerate(self.checkpoints[lane]) if cp <= square)
        return lap * self.lengths[CENTRE] + self.checkpoints[CENTRE][line]

    def lane_name(self, lane: int) -> str:
        """The lane's identifier."""
        return LANES[lane]
