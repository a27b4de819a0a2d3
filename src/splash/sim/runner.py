"""One simulated game as a pure function of its spec and its seed: :func:`run_one`.

A :class:`GameSpec` names a game of :data:`splash.games.GAMES`, its ``--set`` assignments and
a bot per seat.  :func:`run_one` plays one game of a spec with an explicit seed: the numpy
``SeedSequence(seed)`` is split into children, one for the chance outcomes (for Splash!, one
for the physics — the placers' tremor — and one for the random deal) and one for each
seat's bot, exactly as ``splash bash simulate`` and ``splash tower simulate`` do.  It returns
one flat record (see :mod:`splash.sim.store` for its columns), counted from the events of
every action (:mod:`splash.sim.counters`).  Nothing else enters a game: the same spec and
seed give the same record on any machine, in any process.

:data:`SIMULATED` is the simulator's table of games: how each game is built, played, and
recorded.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, cast

import numpy as np

from splash.bots import make_bot, parse_spec
from splash.bots.tower_random import RandomTowerBot
from splash.core.actions import Action
from splash.core.errors import OptionError
from splash.core.i18n import message
from splash.core.outcomes import RandomOutcomes, RoutedOutcomes
from splash.core.play import Agent, play
from splash.core.protocol import Game, State
from splash.core.settings import parse_assignment
from splash.games import GAMES
from splash.games.bash import BashGame, BashState
from splash.games.bash.config import BashConfig
from splash.games.registry import declaration_of
from splash.games.tower import TowerGame, TowerState
from splash.sim.counters import (
    BashCounter,
    ColumnType,
    TowerCounter,
    Value,
    bash_columns,
    tower_columns,
)
from splash.sim.traces import (
    Evaluation,
    TowerEvaluator,
    TraceRecorder,
    bash_evaluation,
    bash_started,
    tower_started,
)

Record = dict[str, Value]
"""One game's result: a flat mapping from column name to value."""

REFERENCE = "reference"
"""The ``engine`` of games played by the rules engine of :mod:`splash.games`."""
FAST = "fast"
"""The ``engine`` of games played by the compiled core (:mod:`splash.sim.engines`)."""

COMMON_COLUMNS: dict[str, ColumnType] = {
    "seed": "int64",
    "game": "string",
    "options": "string",
    "data": "string",
    "seats": "int64",
    "bots": "string",
    "engine": "string",
    "winner": "int64",
    "winner_team": "int64",
    "turns": "int64",
    "actions": "int64",
    "decisions": "int64",
    "turn_cap": "bool",
    "events": "string",
}
"""The columns of every record, whatever the game."""

TOWER_COLUMNS: dict[str, ColumnType] = {
    "won_by": "string",
    "stopped": "bool",
    "spontaneous": "int64",
    "boxed": "int64",
}
"""The game-wide columns of a Splash! record, before its per-seat columns."""

TRACE_COLUMNS: dict[str, ColumnType] = {
    "moves": "int64",
    "trace": "trace",
}
"""The last columns of every record: the moves after set-up and the evaluation of every
player at ``s_0 … s_T`` (:mod:`splash.sim.traces`)."""


@dataclass(frozen=True)
class GameSpec:
    """What a simulated game is: the game, its options and a bot per seat.

    ``options`` is the JSON text of the ``--set`` assignments (an object, keys sorted), so a
    spec is hashable, picklable and compared as text.  Build one with :meth:`of`, which
    checks everything.
    """

    game: str
    options: str
    bots: tuple[str, ...]
    data: str = ""
    """Splash & Bash with the data files of another folder (``--data``): the JSON text of
    their board and decks (:meth:`BashConfig.data_parts`); empty for the shipped files."""
    engine: str = REFERENCE
    """The engine that plays the games (:data:`REFERENCE` or :data:`FAST`): the same seed
    gives another game on each (set by :func:`splash.sim.engines.choose_engine`)."""

    @classmethod
    def of(
        cls,
        game: str,
        settings: Sequence[str] = (),
        bots: Sequence[str] = (),
        *,
        data_dir: Path | None = None,
    ) -> GameSpec:
        """The spec of ``game`` with ``settings`` (``KEY=VALUE`` texts) and ``bots``.

        ``bots`` are given in seat order, the last one repeated for the remaining seats
        (``random`` when none is given).  ``data_dir`` is a folder of Splash & Bash data
        files, read now and carried in the spec.  Raises :class:`OptionError` for an unknown
        game, a bad setting, too many bots or an unknown bot, and the errors of the data files.
        """
        declaration_of(GAMES, game, "GAME")
        assignments = dict(parse_assignment(text) for text in settings)
        options = json.dumps(assignments, sort_keys=True, ensure_ascii=False)
        data = ""
        if data_dir is not None:
            read_data = simulated(game).data_parts
            if read_data is None:
                raise OptionError(
                    "--data",
                    str(data_dir),
                    message("only Splash & Bash reads its data files from a folder"),
                )
            data = json.dumps(read_data(data_dir), sort_keys=True, ensure_ascii=False)
        seats = build_game(game, options, data).num_seats
        given = list(bots) or ["random"]
        if len(given) > seats:
            raise OptionError(
                "--bots",
                ",".join(given),
                message("{given} bots for {seats} seats", given=len(given), seats=seats),
            )
        per_seat = tuple(given[min(seat, len(given) - 1)] for seat in range(seats))
        for spec in sorted(set(per_seat)):
            seat_bot(game, spec, np.random.SeedSequence(0))
        return cls(game, options, per_seat, data)

    def build(self) -> Game:
        """The game this spec plays (built once per process)."""
        return build_game(self.game, self.options, self.data)

    @property
    def assignments(self) -> list[tuple[str, Any]]:
        """The ``--set`` assignments, sorted by key."""
        return sorted(json.loads(self.options).items())

    @property
    def seats(self) -> int:
        """How many seats the game has (one bot each)."""
        return len(self.bots)

    @property
    def recorded_data(self) -> str | None:
        """The ``data`` column: the JSON text of the data files the games are played with
        (``--data``'s, else the shipped ones); ``None`` for a game without data files."""
        return self.data or shipped_data(self.game)

    @property
    def bots_json(self) -> str:
        """The bots as the JSON text of a list, in seat order (the ``bots`` column)."""
        return json.dumps(list(self.bots), ensure_ascii=False)

    def columns(self) -> dict[str, ColumnType]:
        """Every column of this spec's records, in order, with its type."""
        return {**COMMON_COLUMNS, **simulated(self.game).columns(self), **TRACE_COLUMNS}


def build_game(game: str, options: str, data: str = "") -> Game:
    """The game ``game`` with the assignments of ``options`` (JSON text) and the data files
    of ``data`` (JSON text, empty for the shipped ones), built once per process (a game is
    immutable)."""
    return simulated(game).build(options, data)


def seat_bot(game: str, spec: str, seed: np.random.SeedSequence) -> Agent:
    """The bot ``spec`` names for a seat of ``game`` (:attr:`SimulatedGame.seat_bot`)."""
    return simulated(game).seat_bot(spec, seed)


@cache
def shipped_data(game: str) -> str | None:
    """The JSON text of the data files shipped with ``game`` (``None`` without any)."""
    parts = simulated(game).shipped_data
    return None if parts is None else json.dumps(parts(), sort_keys=True, ensure_ascii=False)


def seed_children(seed: int, count: int) -> list[np.random.SeedSequence]:
    """``count`` independent seed sequences from ``seed`` (a whole number, 0 or more)."""
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise OptionError("--seed", seed, message("a seed is a whole number, 0 or more"))
    return np.random.SeedSequence(int(seed)).spawn(count)


def run_one(spec: GameSpec, seed: int) -> Record:
    """Play one game of ``spec`` with ``seed`` on its engine and return its record."""
    if spec.engine == FAST:
        from splash.sim.fast_engine import fast_table

        row: Record = fast_table(spec, [seed]).to_pylist()[0]
        return row
    record: Record = {
        "seed": int(seed),
        "game": spec.game,
        "options": spec.options,
        "data": spec.recorded_data,
        "seats": spec.seats,
        "bots": spec.bots_json,
        "engine": REFERENCE,
    }
    record.update(simulated(spec.game).run(spec, seed))
    return {name: record[name] for name in spec.columns()}


def _observers(*observers: Callable[[State, Action], None]) -> Callable[[State, Action], None]:
    def observe(state: State, action: Action) -> None:
        for observer in observers:
            observer(state, action)

    return observe


def _trace_columns(tracer: TraceRecorder) -> Record:
    return {"moves": tracer.moves, "trace": tracer.rows()}


def _assignments(options: str) -> list[tuple[str, Any]]:
    return sorted(json.loads(options).items())


@lru_cache(maxsize=8)
def _bash_game(options: str, data: str = "") -> BashGame:
    parts = json.loads(data) if data else None
    return BashGame.from_settings(_assignments(options), data=parts)


def _shipped_bash_data() -> dict[str, Any]:
    return BashConfig.data_parts(Path(str(resources.files("splash.games.bash") / "data")))


def _bash_bot(spec: str, seed: np.random.SeedSequence) -> Agent:
    return make_bot(spec, seed, game="bash")


def _bash_columns(spec: GameSpec) -> dict[str, ColumnType]:
    return bash_columns(_bash_game(spec.options, spec.data))


def _run_bash(spec: GameSpec, seed: int) -> Record:
    game = _bash_game(spec.options, spec.data)
    children = seed_children(seed, 1 + game.num_seats)
    outcomes = RandomOutcomes(children[0])
    bots = [_bash_bot(spec.bots[s], children[1 + s]) for s in range(game.num_seats)]
    state = game.new_initial_state()
    counter = BashCounter(state)
    tracer = TraceRecorder(
        state,
        evaluate=lambda s: bash_evaluation(cast(BashState, s)),
        started=lambda s: bash_started(cast(BashState, s)),
    )
    # The bots and the generator choose among the state's own actions (the bots' tests check
    # that they do): no second legality check.
    play(state, bots, outcomes, on_action=_observers(counter, tracer), trusted=True)
    tracer.finish(state)
    winner = state.board.winner
    return {
        "winner": winner,
        "winner_team": winner,
        "turns": state.turns + (1 if winner is not None else 0),
        "actions": counter.moves.actions,
        "decisions": counter.moves.decisions,
        "turn_cap": winner is None,
        "events": json.dumps(dict(sorted(counter.events.items()))),
        **counter.columns(game),
        **_trace_columns(tracer),
    }


@lru_cache(maxsize=8)
def _tower_game(options: str, data: str = "") -> TowerGame:
    from splash.physics.provider import physics_game

    return physics_game(_assignments(options))


def _tower_bot(spec: str, seed: np.random.SeedSequence) -> Agent:
    """``random`` is :class:`~splash.bots.tower_random.RandomTowerBot`, whose placements
    spread over the whole top of the target (``random:spread=0.5`` over half)."""
    name, params = parse_spec(spec)
    if name == "random" and set(params) <= {"spread"}:
        try:
            spread = float(params.get("spread", "1"))
        except ValueError:
            raise OptionError("--bots", spec, message("must be a finite number >= 0")) from None
        return RandomTowerBot(seed, offset_spread=spread)
    return make_bot(spec, seed, game="tower")


def _tower_columns(spec: GameSpec) -> dict[str, ColumnType]:
    return {**TOWER_COLUMNS, **tower_columns(_tower_game(spec.options, spec.data))}


def _run_tower(spec: GameSpec, seed: int) -> Record:
    from splash.physics.errors import PlacementError
    from splash.physics.games import placement_outcomes

    game = _tower_game(spec.options, spec.data)
    seats = game.num_seats
    children = seed_children(seed, 2 + seats)
    outcomes = RoutedOutcomes(
        {"placement": placement_outcomes(spec.assignments, children[0])},
        RandomOutcomes(children[1]),
    )
    bots = [_tower_bot(spec.bots[s], children[2 + s]) for s in range(seats)]
    state = game.new_initial_state()
    counter = TowerCounter(state)
    tracer = TraceRecorder(
        state,
        evaluate=TowerEvaluator(),
        started=lambda s: tower_started(cast(TowerState, s)),
    )
    stopped = False
    try:
        play(state, bots, outcomes, on_action=_observers(counter, tracer))
    except PlacementError:
        # No pose of the gift was accepted, and the centred one is refused (T06).
        stopped = True
    tracer.finish(state, (0.0,) * seats if stopped else None)
    win = state.win_event()
    return {
        "winner": int(str(win["seat"])) if win is not None else None,
        "winner_team": state.winner,
        "turns": state.placements,
        "actions": counter.moves.actions,
        "decisions": counter.moves.decisions,
        "turn_cap": counter.events["turn_cap"] > 0,
        "events": json.dumps(dict(sorted(counter.events.items()))),
        "won_by": str(win["by"]) if win is not None else None,
        "stopped": stopped,
        "spontaneous": counter.events["spontaneous"],
        "boxed": len(state.box),
        **counter.columns(state),
        **_trace_columns(tracer),
    }


@dataclass(frozen=True)
class SimulatedGame:
    """How the simulator plays one game and what its records hold."""

    build: Callable[[str, str], Game]
    """The game of a spec's ``options`` and ``data`` (JSON texts), built once per process."""
    columns: Callable[[GameSpec], dict[str, ColumnType]]
    """The game's own columns, between :data:`COMMON_COLUMNS` and :data:`TRACE_COLUMNS`."""
    run: Callable[[GameSpec, int], Record]
    """One game of a spec with a seed: every column but the spec's own (seed, game, ...)."""
    seat_bot: Callable[[str, np.random.SeedSequence], Agent]
    """The bot a spec names for a seat."""
    data_parts: Callable[[Path], dict[str, Any]] | None = None
    """The data files of a folder (``--data``), for a game that reads them."""
    shipped_data: Callable[[], dict[str, Any]] | None = None
    """The data files shipped with the game, as :attr:`data_parts` reads a folder's."""
    measures: tuple[str, ...] = ()
    """The per-game means the summary gives (:func:`splash.sim.summary.summarise`)."""


SIMULATED: Mapping[str, SimulatedGame] = {
    "bash": SimulatedGame(
        build=_bash_game,
        columns=_bash_columns,
        run=_run_bash,
        seat_bot=_bash_bot,
        data_parts=BashConfig.data_parts,
        shipped_data=_shipped_bash_data,
    ),
    "tower": SimulatedGame(
        build=_tower_game,
        columns=_tower_columns,
        run=_run_tower,
        seat_bot=_tower_bot,
        measures=("won_by", "falls", "spontaneous", "boxed"),
    ),
}
"""The games the simulator plays in their own way, keyed by game id; every other game of
:data:`splash.games.GAMES` is played as :func:`simulated` says."""


class _Moves:
    """The actions and decisions (the actions of a seat, not of chance) of one game, fed
    after each action like a counter."""

    def __init__(self, state: State) -> None:
        self.actions = 0
        self.decisions = 0
        self._chance = state.is_chance()

    def __call__(self, state: State, action: Action) -> None:
        self.actions += 1
        self.decisions += 0 if self._chance else 1
        self._chance = state.is_chance()


@cache
def simulated(game: str) -> SimulatedGame:
    """How the simulator plays ``game``: its entry of :data:`SIMULATED`, else the common way
    of any game of :data:`splash.games.GAMES` — the rules engine with random chance
    outcomes, the bots of :func:`~splash.bots.make_bot`, the common columns only (the
    ``turns`` column counts decisions; the trace is 0 for every seat until the end, then
    the returns)."""
    own = SIMULATED.get(game)
    if own is not None:
        return own
    declaration = declaration_of(GAMES, game, "GAME")

    @lru_cache(maxsize=8)
    def build(options: str, data: str = "") -> Game:
        return declaration.from_settings(_assignments(options))

    def seat(spec: str, seed: np.random.SeedSequence) -> Agent:
        return make_bot(spec, seed, game=game)

    def run(spec: GameSpec, seed: int) -> Record:
        built = build(spec.options, spec.data)
        seats = built.num_seats
        children = seed_children(seed, 1 + seats)
        bots = [seat(spec.bots[s], children[1 + s]) for s in range(seats)]
        state = built.new_initial_state()
        moves = _Moves(state)

        def evaluate(now: State) -> Evaluation:
            if not now.is_terminal():
                return (0.0,) * seats
            return tuple(min(1.0, max(-1.0, float(r))) for r in now.returns())

        tracer = TraceRecorder(state, evaluate=evaluate, started=lambda _: True)
        play(state, bots, RandomOutcomes(children[0]), on_action=_observers(moves, tracer))
        tracer.finish(state)
        returns = state.returns()
        best = max(returns)
        winners = [s for s, value in enumerate(returns) if value == best]
        winner = winners[0] if len(winners) == 1 else None
        return {
            "winner": winner,
            "winner_team": built.team_of(winner).id if winner is not None else None,
            "turns": moves.decisions,
            "actions": moves.actions,
            "decisions": moves.decisions,
            "turn_cap": False,
            "events": "{}",
            **_trace_columns(tracer),
        }

    return SimulatedGame(build=build, columns=lambda spec: {}, run=run, seat_bot=seat)
