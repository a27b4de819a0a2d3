"""What a simulated game is counted by: observers of each action, fed by ``play(on_action=...)``.

A counter sees every state after each action is applied, reads the events of that action
(``state.board.events`` in Splash & Bash, ``state.events`` in Splash!) and keeps counts per
seat and per team.  :meth:`columns` turns them into the flat columns of a result record;
:func:`bash_columns` and :func:`tower_columns` name those columns (with their types) for a
game before any game is played, so that every record of a run has the same schema.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Literal, cast

from splash.core.actions import Action
from splash.core.protocol import CHANCE, State
from splash.games.bash import BashGame, BashState
from splash.games.bash.board import TEAM_LETTERS
from splash.games.bash.config import LANES
from splash.games.bash.events import BashEvent
from splash.games.tower import TowerGame, TowerState

ColumnType = Literal["int64", "string", "bool", "trace"]
"""The type of a result column (``int64`` columns may hold nulls: ``winner``, say; a
``trace`` is a list of rows of floats, one row per state, one float per player)."""

Value = int | str | bool | list[list[float]] | None
"""The value of one column of a result record."""

HEIGHT_BUCKETS: tuple[tuple[int, int | None], ...] = ((0, 4), (5, 9), (10, 14), (15, None))
"""Tower heights (pieces standing when a placement was made) by which falls are counted."""

COLLAPSES = ("fell", "knocked", "spontaneous")
"""The placement results that bring the tower down."""


def bucket_name(low: int, high: int | None) -> str:
    """``falls_height_0_4`` … ``falls_height_15_plus``."""
    return f"falls_height_{low}_{high}" if high is not None else f"falls_height_{low}_plus"


def _team_of_piece(name: object) -> int | None:
    text = str(name)
    return TEAM_LETTERS.index(text[0]) if text and text[0] in TEAM_LETTERS else None


class DecisionCounter:
    """Counts the actions and, among them, the decisions (the actions of a seat, not chance)."""

    def __init__(self, state: State) -> None:
        self.actions = 0
        self.decisions = 0
        self._chance_next = state.to_act() == CHANCE

    def observe(self, state: State) -> None:
        """Count the action just applied to ``state``."""
        self.actions += 1
        if not self._chance_next:
            self.decisions += 1
        self._chance_next = not state.is_terminal() and state.to_act() == CHANCE


def bash_columns(game: BashGame) -> dict[str, ColumnType]:
    """The per-team columns of a Splash & Bash record, in order (``_t0`` is team A)."""
    columns: dict[str, ColumnType] = {}
    for team in range(game.num_seats):
        for lane in LANES:
            columns[f"lane_{lane}_t{team}"] = "int64"
        for name in ("bumps_made", "bumps_suffered", "chains", "pool_falls", "obstacle_hits"):
            columns[f"{name}_t{team}"] = "int64"
        for deck, spec in game.settings.decks.items():
            for card in spec.cards:
                columns[f"drawn_{deck}_{card}_t{team}"] = "int64"
        for card in game.settings.decks["high_tide"].cards:
            columns[f"played_{card}_t{team}"] = "int64"
    columns["longest_chain"] = "int64"
    return columns


class BashCounter:
    """The counts of one Splash & Bash game, per team.

    An action whose movement stops for a team's answer (a lifebuoy, a discard) leaves the
    board as it was with provisional events; the movement is run again, from the start,
    by the answer.  Events are therefore counted only after an action that leaves no
    question pending, when they are final.
    """

    def __init__(self, state: BashState) -> None:
        self.moves = DecisionCounter(state)
        self.counts: Counter[str] = Counter()
        self.events: Counter[str] = Counter()
        self._turn: tuple[int, int] | None = None
        self._lane_counted = True
        self.longest_chain = 0

    def __call__(self, state: State, action: Action) -> None:
        """Observe ``action``, just applied to ``state``."""
        bash = cast(BashState, state)
        self.moves.observe(bash)
        if bash.pending is None:
            for event in bash.board.events:
                self._count(event)
            self._chains(bash.board.events)
        self._lane_use(bash)

    def _chains(self, events: Sequence[BashEvent]) -> None:
        # A chain (B15) is a run of bumps in which each bumped piece bumps the next one.
        length, starter, target = 0, None, None
        for event in events:
            bump = event.get("event") == "bump"
            if bump and length and event.get("piece") == target:
                length += 1
            else:
                self._end_chain(length, starter)
                length = 1 if bump else 0
                starter = _team_of_piece(event.get("piece")) if bump else None
            target = event.get("target") if bump else None
        self._end_chain(length, starter)

    def _end_chain(self, length: int, team: int | None) -> None:
        if length >= 2:
            self.counts[f"chains_t{team}"] += 1
        self.longest_chain = max(self.longest_chain, length)

    def _lane_use(self, state: BashState) -> None:
        # A team turn starts with the program's first step; its lane is the active piece's
        # once that piece stands on the course (a helmsman's entry lane).
        if state.over or state.step == 0:
            return
        turn = (state.turns, state.team)
        if turn != self._turn:
            self._turn, self._lane_counted = turn, False
        piece = state.active_piece
        if not self._lane_counted and piece.lane is not None and not piece.finished:
            self.counts[f"lane_{LANES[piece.lane]}_t{state.team}"] += 1
            self._lane_counted = True

    def _count(self, event: BashEvent) -> None:
        kind = str(event.get("event"))
        self.events[kind] += 1
        team = _team_of_piece(event.get("piece"))
        if kind == "bump":
            target = _team_of_piece(event.get("target"))
            self.counts[f"bumps_made_t{team}"] += 1
            self.counts[f"bumps_suffered_t{target}"] += 1
        elif kind == "fall":
            self.counts[f"pool_falls_t{team}"] += 1
        elif kind == "slip":
            self.counts[f"obstacle_hits_t{team}"] += 1
        elif kind == "draw":
            self.counts[f"drawn_{event.get('deck')}_{event.get('card')}_t{event.get('team')}"] += 1
        elif kind == "play":
            self.counts[f"played_{event.get('card')}_t{event.get('team')}"] += 1

    def columns(self, game: BashGame) -> dict[str, Value]:
        """The per-team columns of :func:`bash_columns`, filled."""
        values: dict[str, Value] = {name: self.counts.get(name, 0) for name in bash_columns(game)}
        values["longest_chain"] = self.longest_chain
        return values


def tower_columns(game: TowerGame) -> dict[str, ColumnType]:
    """The per-seat columns of a Splash! record, then the falls by tower height."""
    columns: dict[str, ColumnType] = {}
    for seat in range(game.num_seats):
        for name in ("drops", "falls_caused", "pieces_placed", "placements"):
            columns[f"{name}_s{seat}"] = "int64"
    for low, high in HEIGHT_BUCKETS:
        columns[bucket_name(low, high)] = "int64"
    return columns


class TowerCounter:
    """The counts of one Splash! game, per seat, and its falls by tower height."""

    def __init__(self, state: TowerState) -> None:
        self.moves = DecisionCounter(state)
        self.counts: Counter[str] = Counter()
        self.events: Counter[str] = Counter()
        self._height = len(state.tower)

    def __call__(self, state: State, action: Action) -> None:
        """Observe ``action``, just applied to ``state``."""
        tower = cast(TowerState, state)
        self.moves.observe(tower)
        for event in tower.events:
            kind = str(event.get("event"))
            self.events[kind] += 1
            seat = event.get("seat")
            if kind in ("stood", *COLLAPSES):
                self.counts[f"placements_s{seat}"] += 1
            if kind == "stood":
                self.counts[f"pieces_placed_s{seat}"] += 1
            elif kind in ("fell", "knocked"):
                self.counts[f"falls_caused_s{seat}"] += 1
            if kind in COLLAPSES:
                self.counts[self._bucket()] += 1
        self._height = len(tower.tower)

    def _bucket(self) -> str:
        for low, high in HEIGHT_BUCKETS:
            if high is not None and self._height <= high:
                return bucket_name(low, high)
        return bucket_name(*HEIGHT_BUCKETS[-1])

    def columns(self, state: TowerState) -> dict[str, Value]:
        """The columns of :func:`tower_columns`, filled (drops as the game ended)."""
        values: dict[str, Value] = {
            name: self.counts.get(name, 0) for name in tower_columns(state.tower_game)
        }
        for seat, drops in enumerate(state.drops):
            values[f"drops_s{seat}"] = drops
        return values
