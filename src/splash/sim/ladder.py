"""A round-robin ladder of bots: every pair plays, each level must beat the one below it.

A :class:`LadderSpec` names a 2-seat game (``bash`` with its two teams, or ``tower`` with
``options.players=2``, set when not given; Splash!'s physics is slow, so a tower ladder takes
a while), its ``--set`` assignments, the bots in order (the lowest level first), the games
each pair plays and a seed.

Game ``k`` of the pair ``(i, j)`` (``i < j`` in the order given) seats bot ``i`` first when
``k`` is even and bot ``j`` first when ``k`` is odd, so each bot of a pair plays half its
games in each seat (one more in seat 0 for bot ``i`` when the count is odd).  Its seed is
derived from the ladder's seed, the pair and ``k`` alone (:func:`game_seed`), and recorded:
a game is replayed by ``splash simulate GAME --bots SEAT0,SEAT1 --seed SEED --games 1
--engine ENGINE``, with the ladder's engine (:mod:`splash.sim.engines`: every pairing on the
compiled core when it can play them all, else on the reference engine).

The games run on a backend of :mod:`splash.sim.backends`; :class:`Ladder` holds their results
and reports them: per bot, the games, wins and win rate with its 95 % Wilson interval and the
Elo rating with its 95 % interval (:func:`splash.sim.stats.elo_ratings`, anchored at mean
0, with :data:`VIRTUAL_DRAWS` virtual draws per pair); per consecutive pair of levels, the
higher level's win rate against the lower one and the one-sided sign test
(:func:`splash.sim.stats.sign_test`: draws left out), significant at ``p <``
:data:`SIGNIFICANCE`.  :meth:`Ladder.to_json` writes the ladder as a ``splash/ladder/1``
document, which :meth:`Ladder.from_json` reads back.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

import numpy as np
from numpy.typing import NDArray

from splash.core.errors import DocumentError, OptionError, UnsupportedFormatError
from splash.core.i18n import Message, message
from splash.games import GAMES
from splash.games.registry import declaration_of
from splash.sim.backends import Backend
from splash.sim.engines import EngineChoice, choose_engines
from splash.sim.runner import REFERENCE, GameSpec
from splash.sim.stats import EloFit, elo_ratings, sign_test, wilson

LADDER_FORMAT = "splash/ladder/1"
"""The format tag of a ladder document."""

SIGNIFICANCE = 0.05
"""A level beats the one below it significantly when the one-sided p-value is below this."""

VIRTUAL_DRAWS = 1.0
"""Virtual drawn games added to every pair for the Elo fit (finite ratings after a sweep)."""


def game_seed(seed: int, low: int, high: int, index: int) -> int:
    """The seed of game ``index`` of the pair of bots ``low < high`` in a ladder of seed
    ``seed``: 63 bits of ``SeedSequence(seed, spawn_key=(low, high, index))``, so it depends
    neither on the other pairs nor on how many games each pair plays."""
    words = np.random.SeedSequence(seed, spawn_key=(low, high, index)).generate_state(2)
    return (int(words[0]) << 31) | (int(words[1]) >> 1)


@dataclass(frozen=True)
class Fixture:
    """One game of the ladder: game ``index`` of the pair ``(low, high)`` (bot indices,
    ``low < high``), with the bot in each seat and its seed."""

    low: int
    high: int
    index: int
    seats: tuple[int, int]
    seed: int


@dataclass(frozen=True)
class LadderSpec:
    """What a ladder is: a 2-seat game, its options (JSON text), the bots from the lowest
    level up, the games per pair and the seed.  Build one with :meth:`of`, which checks it."""

    game: str
    options: str
    bots: tuple[str, ...]
    games: int
    seed: int
    engine: str = REFERENCE
    """The engine of every game (:data:`~splash.sim.runner.REFERENCE` or ``fast``)."""

    @classmethod
    def of(
        cls, game: str, settings: Sequence[str], bots: Sequence[str], games: int, seed: int = 0
    ) -> LadderSpec:
        """The ladder of ``bots`` (two or more, each named once) on ``game`` with ``settings``
        (``KEY=VALUE`` texts), ``games`` games per pair and ``seed``; raises
        :class:`OptionError` for anything that cannot make one."""
        names = [b.strip() for b in bots]
        if len(names) < 2:
            raise OptionError("--bots", ",".join(names), message("a ladder needs two bots or more"))
        twice = sorted({b for b in names if names.count(b) > 1})
        if twice:
            raise OptionError("--bots", twice[0], message("a bot is named twice"))
        if isinstance(games, bool) or not isinstance(games, int) or games < 1:
            raise OptionError("--games", games, message("must be a whole number >= 1"))
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise OptionError("--seed", seed, message("a seed is a whole number, 0 or more"))
        given = two_seats(game, settings)
        first = GameSpec.of(game, given, names[:2])
        if first.seats != 2:
            raise OptionError(
                "--set",
                first.options,
                message("{given} bots for {seats} seats", given=2, seats=first.seats),
            )
        for name in names[2:]:
            GameSpec.of(game, given, [name, names[0]])
        return cls(first.game, first.options, tuple(names), games, seed)

    @property
    def pairs(self) -> list[tuple[int, int]]:
        """Every pair of bots ``(low, high)``, ``low < high``, in order."""
        n = len(self.bots)
        return [(low, high) for low in range(n) for high in range(low + 1, n)]

    def fixtures(self) -> list[Fixture]:
        """Every game of the ladder, pair by pair; seats alternate from game to game."""
        return [
            Fixture(low, high, k, (low, high) if k % 2 == 0 else (high, low), seed)
            for low, high in self.pairs
            for k in range(self.games)
            for seed in (game_seed(self.seed, low, high, k),)
        ]

    def game_spec(self, seats: tuple[int, int]) -> GameSpec:
        """The simulator's spec of the games with these bots (indices) in seats 0 and 1."""
        bots = (self.bots[seats[0]], self.bots[seats[1]])
        return GameSpec(self.game, self.options, bots, engine=self.engine)

    def on_engine(self, choice: EngineChoice | str) -> tuple[LadderSpec, Message | None]:
        """This ladder on the engine ``choice`` names (the same for every pairing,
        :func:`~splash.sim.engines.choose_engines`), and the note saying why the reference
        engine plays it when ``auto`` could not take the compiled core."""
        pairings = {f.seats for f in self.fixtures()}
        decision = choose_engines([self.game_spec(seats) for seats in sorted(pairings)], choice)
        return replace(self, engine=decision.specs[0].engine), decision.note


def two_seats(game: str, settings: Sequence[str]) -> list[str]:
    """``settings`` (``KEY=VALUE`` texts) for a two-seat game of ``game``: the game's seats
    key set to 2 when the settings leave it and the game does not default to two seats
    (Splash! is played by four by default: ``options.players=2`` is added)."""
    declaration = declaration_of(GAMES, game, "GAME")
    given = list(settings)
    key = declaration.seats_key
    fixed = any(s.split("=")[0].strip() == key for s in given)
    if not fixed and declaration.from_settings(()).num_seats != 2:
        given.append(f"{key}=2")
    return given


@dataclass(frozen=True)
class GameResult:
    """A fixture played: the bot (index) that won it, ``None`` for a draw (no winner)."""

    fixture: Fixture
    winner: int | None


@dataclass(frozen=True)
class BotLine:
    """One bot's line of the ladder's table."""

    bot: str
    games: int
    wins: int
    draws: int
    win_rate: float
    win_interval: tuple[float, float]
    elo: float
    elo_interval: tuple[float, float]


@dataclass(frozen=True)
class Step:
    """The higher level against the level just below it."""

    lower: str
    higher: str
    games: int
    wins: int
    """The higher level's wins."""
    draws: int
    win_rate: float
    win_interval: tuple[float, float]
    p_value: float
    """One-sided sign test (draws left out) that the higher level wins more than it loses."""
    elo_difference: float
    elo_interval: tuple[float, float]

    @property
    def significant(self) -> bool:
        """Whether ``p_value < SIGNIFICANCE``."""
        return self.p_value < SIGNIFICANCE


def play_ladder(
    spec: LadderSpec,
    backend: Backend,
    on_game: Callable[[GameResult], None] | None = None,
) -> Ladder:
    """Play every fixture of ``spec`` on ``backend`` (not closed here); ``on_game`` is called
    with each result as its game finishes."""
    groups: dict[tuple[int, int], dict[int, list[Fixture]]] = {}
    for fixture in spec.fixtures():
        groups.setdefault(fixture.seats, {}).setdefault(fixture.seed, []).append(fixture)
    results: list[GameResult] = []
    for seats, by_seed in groups.items():
        seeds = [seed for seed, same in by_seed.items() for _ in same]
        for record in backend.map(spec.game_spec(seats), seeds):
            fixture = by_seed[int(str(record["seed"]))].pop()
            seat = record["winner"]
            winner = seats[seat] if isinstance(seat, int) and 0 <= seat < 2 else None
            result = GameResult(fixture, winner)
            results.append(result)
            if on_game is not None:
                on_game(result)
    results.sort(key=lambda r: (r.fixture.low, r.fixture.high, r.fixture.index))
    return Ladder(spec, tuple(results))


@dataclass(frozen=True)
class Ladder:
    """The results of a ladder's games, and what they come to."""

    spec: LadderSpec
    results: tuple[GameResult, ...]

    @cached_property
    def _wins(self) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        n = len(self.spec.bots)
        wins = np.zeros((n, n), dtype=np.int64)
        draws = np.zeros((n, n), dtype=np.int64)
        for result in self.results:
            f = result.fixture
            if result.winner is None:
                draws[f.low, f.high] += 1
                draws[f.high, f.low] += 1
            else:
                loser = f.high if result.winner == f.low else f.low
                wins[result.winner, loser] += 1
        return wins, draws

    def wins(self, bot: int, other: int) -> int:
        """The games ``bot`` won against ``other``."""
        return int(self._wins[0][bot, other])

    def draws(self, bot: int, other: int) -> int:
        """The games between ``bot`` and ``other`` without a winner."""
        return int(self._wins[1][bot, other])

    @cached_property
    def elo(self) -> EloFit:
        """The Elo fit of every game (a draw half a point each), with ``VIRTUAL_DRAWS``."""
        wins, draws = self._wins
        points = (wins + draws / 2.0).tolist()
        return elo_ratings(points, virtual_draws=VIRTUAL_DRAWS)

    def table(self) -> list[BotLine]:
        """One line per bot, in the order given."""
        wins, draws = self._wins
        lines = []
        for i, bot in enumerate(self.spec.bots):
            won = int(wins[i].sum())
            drawn = int(draws[i].sum())
            games = won + drawn + int(wins[:, i].sum())
            lines.append(
                BotLine(
                    bot=bot,
                    games=games,
                    wins=won,
                    draws=drawn,
                    win_rate=won / games if games else 0.0,
                    win_interval=wilson(won, games),
                    elo=self.elo.ratings[i],
                    elo_interval=self.elo.interval(i),
                )
            )
        return lines

    def steps(self) -> list[Step]:
        """Each level against the one just below it (the order given is lowest first)."""
        steps = []
        for lower in range(len(self.spec.bots) - 1):
            higher = lower + 1
            won, lost = self.wins(higher, lower), self.wins(lower, higher)
            drawn = self.draws(higher, lower)
            games = won + lost + drawn
            steps.append(
                Step(
                    lower=self.spec.bots[lower],
                    higher=self.spec.bots[higher],
                    games=games,
                    wins=won,
                    draws=drawn,
                    win_rate=won / games if games else 0.0,
                    win_interval=wilson(won, games),
                    p_value=sign_test(won, lost),
                    elo_difference=self.elo.difference(higher, lower),
                    elo_interval=self.elo.difference_interval(higher, lower),
                )
            )
        return steps

    def to_json(self) -> dict[str, Any]:
        """The ladder as a ``splash/ladder/1`` document: the spec, every game, and the
        table and steps computed from them (for readers; :meth:`from_json` recomputes)."""
        s = self.spec
        return {
            "format": LADDER_FORMAT,
            "game": s.game,
            "options": json.loads(s.options),
            "bots": list(s.bots),
            "games_per_pair": s.games,
            "seed": s.seed,
            "engine": s.engine,
            "significance": SIGNIFICANCE,
            "virtual_draws": VIRTUAL_DRAWS,
            "games": [
                {
                    "pair": [r.fixture.low, r.fixture.high],
                    "index": r.fixture.index,
                    "seats": list(r.fixture.seats),
                    "seed": r.fixture.seed,
                    "winner": r.winner,
                }
                for r in self.results
            ],
            "table": [_plain(line.__dict__) for line in self.table()],
            "steps": [
                _plain({**step.__dict__, "significant": step.significant}) for step in self.steps()
            ],
        }

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> Ladder:
        """The ladder of a ``splash/ladder/1`` document; :class:`DocumentError` (or
        :class:`UnsupportedFormatError`) when it is not one."""
        found = doc.get("format") if isinstance(doc, Mapping) else None
        if found != LADDER_FORMAT:
            raise UnsupportedFormatError(found, LADDER_FORMAT)
        try:
            spec = LadderSpec(
                game=str(doc["game"]),
                options=json.dumps(dict(doc["options"]), sort_keys=True, ensure_ascii=False),
                bots=tuple(str(b) for b in doc["bots"]),
                games=int(doc["games_per_pair"]),
                seed=int(doc["seed"]),
                engine=str(doc.get("engine", REFERENCE)),
            )
            results = []
            for game in doc["games"]:
                low, high = (int(v) for v in game["pair"])
                seat0, seat1 = (int(v) for v in game["seats"])
                winner = game["winner"]
                known = 0 <= low < high < len(spec.bots)
                if not known or {low, high} != {seat0, seat1} or winner not in (None, low, high):
                    raise ValueError(game)
                fixture = Fixture(low, high, int(game["index"]), (seat0, seat1), int(game["seed"]))
                results.append(GameResult(fixture, None if winner is None else int(winner)))
        except (KeyError, TypeError, ValueError) as error:
            raise DocumentError(
                message("cannot be read: {error}", error=repr(error)), dict(doc)
            ) from None
        return cls(spec, tuple(results))


def _plain(fields: Mapping[str, Any]) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in fields.items()}
