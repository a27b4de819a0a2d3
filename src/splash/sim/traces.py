"""State evaluations of a game, move by move: the traces the designer metrics need.

A *move* is an action chosen by a seat (never a chance outcome), set-up excluded: the
placement of the pawns in Splash & Bash, the draft in Splash!.  ``s_0`` is the first state
after set-up at which a seat is to act; ``s_i`` is the state before move ``i + 1``, once every
chance outcome before it has been applied; ``s_T`` is the last state of the game.

The evaluation of a state is a vector with one value in ``[-1, 1]`` per player (a team in
Splash & Bash, a seat in Splash!), on a scale shared by all players:

- a finished game (or one stopped without a winner) is worth the players' utilities,
  :func:`utilities`, from their ranks;
- Splash & Bash: ``v_t = 2 d_t - 1``, where ``d_t`` (:func:`bash_progress`) is the mean over
  the team's four runners (three pawns and the helmsman) of ``s / (laps · N_lane)`` with the
  runner's own lane and laps, a finished runner counting 1 and a helmsman not yet entered 0;
- Splash!: ``v_p = 2 f_p - 1``, where ``f_p = clip(max(1 - R_p/R_0, drops_p/D), 0, 1)``
  (:func:`tower_progress`), ``R_p`` the pieces left in ``p``'s reserve, ``R_0`` the reserve
  at ``s_0`` and ``D`` the drops that win (3 by default).

:class:`TraceRecorder` watches a game through ``play(on_action=...)`` and keeps the
evaluations of ``s_0 … s_T`` and the seat of each move.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import cast

from splash.core.actions import Action
from splash.core.protocol import CHANCE, TERMINAL, State
from splash.games.bash import BashGame, BashState
from splash.games.bash.records import StartLane
from splash.games.tower import TowerState

Evaluation = tuple[float, ...]
"""One value in ``[-1, 1]`` per player."""


def utilities(players: int, winners: Collection[int]) -> Evaluation:
    """The utility of each player from the final ranks: ``u_p = 1 - 2(rank_p - 1)/(n - 1)``.

    The ``k`` winners share the top ranks (their mean, ``(k + 1)/2``); the others share the
    ranks below (``k + (n - k + 1)/2``).  Without a winner every player ranks alike and
    every utility is 0.  One winner among ``n`` gets 1, every other player ``-1/(n - 1)``.
    """
    n = players
    k = len(winners)
    if n < 2 or k in (0, n):
        return (0.0,) * n
    top = (k + 1) / 2
    rest = k + (n - k + 1) / 2
    return tuple(1.0 - 2.0 * ((top if p in winners else rest) - 1.0) / (n - 1) for p in range(n))


def _clip(value: float) -> float:
    return min(1.0, max(0.0, value))


def bash_progress(state: BashState) -> Evaluation:
    """``d_t`` of every team: the mean over its four runners of their share of the course."""
    course = cast(BashGame, state.game).course
    values = []
    for team in state.board.pieces:
        total = 0.0
        for piece in team:
            if piece.finished:
                total += 1.0
            elif piece.lane is not None:
                total += _clip(piece.s / course.total(piece.lane, piece.helmsman))
        values.append(total / len(team))
    return tuple(values)


def bash_winners(state: BashState) -> tuple[int, ...]:
    """The winning team, or none."""
    return () if state.board.winner is None else (state.board.winner,)


def bash_evaluation(state: BashState) -> Evaluation:
    """The evaluation of every team: utilities at the end, ``2 d_t - 1`` before."""
    if state.over:
        return utilities(len(state.board.pieces), bash_winners(state))
    return tuple(2.0 * d - 1.0 for d in bash_progress(state))


def tower_winners(state: TowerState) -> tuple[int, ...]:
    """The seats of the winning team (a lone winner without teams), or none."""
    if state.winner is None:
        return ()
    return tuple(state.tower_game.teams[state.winner].seats)


def tower_progress(state: TowerState, reserves: Sequence[int]) -> Evaluation:
    """``f_p`` of every seat, ``reserves`` being each seat's reserve size ``R_0`` at ``s_0``."""
    goal = state.tower_game.options.drops_to_win
    values = []
    for seat, reserve in enumerate(state.reserves):
        start = reserves[seat]
        emptied = 1.0 - len(reserve) / start if start > 0 else float(not reserve)
        values.append(_clip(max(emptied, state.drops[seat] / goal)))
    return tuple(values)


def tower_evaluation(state: TowerState, reserves: Sequence[int]) -> Evaluation:
    """The evaluation of every seat: utilities at the end, ``2 f_p - 1`` before."""
    if state.is_terminal():
        return utilities(state.players, tower_winners(state))
    return tuple(2.0 * f - 1.0 for f in tower_progress(state, reserves))


def bash_started(state: BashState) -> bool:
    """Whether the pawns' placement (the set-up) is over."""
    awaiting = state.awaiting
    return not (isinstance(awaiting, StartLane) and awaiting.purpose == "setup")


def tower_started(state: TowerState) -> bool:
    """Whether the draft (or the random deal) is over."""
    return state.phase not in ("draft", "deal")


class TowerEvaluator:
    """:func:`tower_evaluation` with ``R_0`` taken from the first state it evaluates (``s_0``)."""

    def __init__(self) -> None:
        self.reserves: tuple[int, ...] | None = None

    def __call__(self, state: State) -> Evaluation:
        tower = state if isinstance(state, TowerState) else None
        if tower is None:
            raise TypeError(f"not a Splash! state: {type(state).__name__}")
        if self.reserves is None:
            self.reserves = tuple(len(r) for r in tower.reserves)
        return tower_evaluation(tower, self.reserves)


class TraceRecorder:
    """The evaluations of ``s_0 … s_T`` of one game, fed like a counter after each action.

    ``evaluate`` maps a state to its evaluation; ``started`` tells when set-up is over.
    Call :meth:`finish` once the game has ended (or stopped) to record ``s_T``.
    """

    def __init__(
        self,
        state: State,
        *,
        evaluate: Callable[[State], Evaluation],
        started: Callable[[State], bool],
    ) -> None:
        self.evaluate = evaluate
        self.started = started
        self.values: list[Evaluation] = []
        """The evaluations of ``s_0 … s_{T-1}``, then ``s_T`` once finished."""
        self.movers: list[int] = []
        """The seat of each move."""
        self._finished = False
        self._look(state)

    def _look(self, state: State) -> None:
        seat = state.to_act()
        if seat in (CHANCE, TERMINAL) or not self.started(state):
            return
        self.values.append(self.evaluate(state))
        self.movers.append(seat)

    def __call__(self, state: State, action: Action) -> None:
        """Observe the state after ``action``: record it if a move comes next."""
        self._look(state)

    def finish(self, state: State, final: Evaluation | None = None) -> None:
        """Record ``s_T``: ``final`` when given (a game stopped without a winner), else its
        evaluation.  A game that never left set-up keeps an empty trace."""
        if self._finished:
            return
        self._finished = True
        if not self.values:
            return
        self.values.append(final if final is not None else self.evaluate(state))

    @property
    def moves(self) -> int:
        """``T``: the number of moves after set-up."""
        return len(self.movers)

    def rows(self, digits: int = 4) -> list[list[float]]:
        """The evaluations, rounded to ``digits`` decimals (what a record stores)."""
        return [[round(v, digits) for v in row] for row in self.values]
