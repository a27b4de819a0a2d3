"""Splash & Bash results from the compiled core (:mod:`splash.fast`), column by column.

:func:`fast_refusal` tells whether the core can play a spec (random and greedy bots, one
greedy setting per game looking through at most three decisions, an expressible
configuration); :func:`fast_bots` turns its bots into the core's policies and greedy
weights; :func:`record_plan` gathers what a worker needs to play a spec's games and
build their records (:mod:`splash.fast.records`); :func:`fast_table` plays the games of a
list of seeds and returns them as a ``pyarrow.Table`` with exactly the schema of
:func:`splash.sim.schema.arrow_schema`, built from the core's numpy arrays (no dict per game).  :func:`verify_records` replays fast games
through the reference engine and compares the records its counters and tracer compute with
the fast ones.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from splash.bots import parse_spec
from splash.core.actions import Action
from splash.core.errors import OptionError, SplashError
from splash.core.i18n import Message, message
from splash.core.protocol import State
from splash.fast import kernel as k
from splash.fast.batch import FloatArray, IntArray, play_games
from splash.fast.greedy import GreedySettings, weight_array
from splash.fast.records import RecordPlan, games_table, plan_table
from splash.fast.tables import FastConfigError, Tables, build_tables
from splash.fast.verify import Difference, replay
from splash.games.bash import BashGame, BashState
from splash.games.bash.config import DECKS, HAND_DECK, LANES
from splash.games.bash.events import EVENT_KINDS
from splash.sim.counters import BashCounter
from splash.sim.schema import arrow_schema
from splash.sim.traces import TraceRecorder, bash_evaluation, bash_started

if TYPE_CHECKING:
    from splash.sim.runner import GameSpec, Record

ENGINE = "fast"
FAST_BOTS = frozenset({"random", "greedy"})
"""The bots the core plays itself."""
FAST_GREEDY_DEPTH = 3
"""The most decisions of its own the compiled greedy looks through (``greedy:depth=``)."""
_TEAM_NAMES = ("bumps_made", "bumps_suffered", "chains", "pool_falls", "obstacle_hits")
_TEAM_OFFSETS = (k.TB_BM, k.TB_BS, k.TB_CH, k.TB_PF, k.TB_OH)


def _tables(spec: GameSpec) -> Tables:
    return _game_tables(cast(BashGame, spec.build()))


@lru_cache(maxsize=8)
def _game_tables(game: BashGame) -> Tables:
    """The core's tables of ``game`` (one game object per configuration and process:
    :meth:`GameSpec.build <splash.sim.runner.GameSpec.build>`)."""
    return build_tables(game)


@dataclass(frozen=True)
class FastBots:
    """A spec's bots as the core plays them: a policy per team
    (:data:`~splash.fast.kernel.POLICY_RANDOM` or :data:`~splash.fast.kernel.POLICY_GREEDY`)
    and the settings every greedy team shares (``None`` without a greedy team)."""

    policies: tuple[int, ...]
    greedy: GreedySettings | None


def _greedy_settings(bot: str, params: dict[str, str]) -> GreedySettings | Message:
    """The settings of ``greedy:...`` (already checked by the reference bot), or why the
    core cannot play them."""
    rest = dict(params)
    depth = int(rest.pop("depth", "3"))
    samples = int(rest.pop("samples", "1"))
    if depth > FAST_GREEDY_DEPTH:
        return message(
            "the fast core's greedy looks through at most {most} decisions of its own, "
            "not {depth} ({bot!r})",
            most=FAST_GREEDY_DEPTH,
            depth=depth,
            bot=bot,
        )
    weights = {key: float(value) for key, value in sorted(rest.items())}
    return GreedySettings(depth=depth, samples=samples, weights=weights)


def _same_greedy(a: GreedySettings, b: GreedySettings) -> bool:
    defaults = GreedySettings()
    return (a.depth, a.samples, {**defaults.weights, **a.weights}) == (
        b.depth,
        b.samples,
        {**defaults.weights, **b.weights},
    )


def fast_bots(bots: Sequence[str]) -> FastBots | Message:
    """The core's policies for ``bots`` (one per seat, a seat being a team), or a one-line
    reason naming the bot the core cannot play: a bot other than ``random`` and ``greedy``,
    a greedy looking through more than :data:`FAST_GREEDY_DEPTH` decisions, or greedy teams
    with different settings (the core has one set of weights per game)."""
    policies: list[int] = []
    shared: tuple[str, GreedySettings] | None = None
    for bot in bots:
        try:
            name, params = parse_spec(bot)
        except SplashError:
            return message("the fast core does not play the bot {bot!r}", bot=bot)
        if name not in FAST_BOTS or (name == "random" and params):
            return message("the fast core does not play the bot {bot!r}", bot=bot)
        if name == "random":
            policies.append(k.POLICY_RANDOM)
            continue
        try:
            settings = _greedy_settings(bot, params)
        except ValueError:
            return message("the fast core does not play the bot {bot!r}", bot=bot)
        if isinstance(settings, Message):
            return settings
        if shared is not None and not _same_greedy(shared[1], settings):
            return message(
                "the fast core plays one greedy setting per game, not both {a!r} and {b!r}",
                a=shared[0],
                b=bot,
            )
        shared = shared or (bot, settings)
        policies.append(k.POLICY_GREEDY)
    return FastBots(tuple(policies), None if shared is None else shared[1])


def fast_refusal(spec: GameSpec) -> Message | None:
    """``None`` when the fast core can play ``spec``; else a one-line reason that names the
    bot or the setting."""
    if spec.game != "bash":
        return message("the fast core plays only Splash & Bash, not {game}", game=spec.game)
    bots = fast_bots(spec.bots)
    if isinstance(bots, Message):
        return bots
    try:
        _tables(spec)
    except FastConfigError as error:
        return error.text
    return None


def fast_tables(spec: GameSpec) -> Tables:
    """The core's tables of ``spec``; :class:`OptionError` when the core cannot play it."""
    reason = fast_refusal(spec)
    if reason is not None:
        raise OptionError("--engine", ENGINE, reason)
    return _tables(spec)


@lru_cache(maxsize=8)
def _count_columns(spec: GameSpec) -> tuple[tuple[str, int], ...]:
    tables = _tables(spec)
    teams = int(tables.T[k.T_TEAMS])
    counts: list[tuple[str, int]] = [
        ("actions", k.C_ACTIONS),
        ("decisions", k.C_DECISIONS),
        ("longest_chain", k.C_LONG),
        ("moves", k.C_MOVES),
    ]
    cfg = tables.game.settings
    for t in range(teams):
        base = k.C_TEAM + t * k.TB
        for lane, name in enumerate(LANES):
            counts.append((f"lane_{name}_t{t}", base + k.TB_LANE + lane))
        for name, offset in zip(_TEAM_NAMES, _TEAM_OFFSETS, strict=True):
            counts.append((f"{name}_t{t}", base + offset))
        for d, deck in enumerate(DECKS):
            for c, card in enumerate(cfg.decks[deck].cards):
                counts.append((f"drawn_{deck}_{card}_t{t}", base + k.TB_DRAWN + d * k.MAXC + c))
        for c, card in enumerate(cfg.decks[HAND_DECK].cards):
            counts.append((f"played_{card}_t{t}", base + k.TB_PLAYED + c))
    return tuple(counts)


def _policies(spec: GameSpec, tables: Tables) -> tuple[IntArray, FloatArray | None]:
    """The core's ``P`` and ``W`` for ``spec`` (``W`` is ``None`` without a greedy team)."""
    bots = fast_bots(spec.bots)
    if isinstance(bots, Message):
        raise OptionError("--engine", ENGINE, bots)
    policies = np.asarray(bots.policies, np.int64)
    weights = None if bots.greedy is None else weight_array(tables, bots.greedy)
    return policies, weights


def record_plan(spec: GameSpec) -> RecordPlan:
    """What a process needs to play ``spec``'s games on the core and build their records
    (:func:`splash.fast.records.plan_table`), the bots' policies and greedy weights
    included; :class:`OptionError` when the core cannot play ``spec``."""
    tables = fast_tables(spec)
    policies, weights = _policies(spec, tables)
    order = sorted(range(len(EVENT_KINDS)), key=lambda i: EVENT_KINDS[i])
    return RecordPlan(
        T=tables.T,
        initial=tables.initial,
        schema=arrow_schema(spec),
        constants=(
            ("game", spec.game),
            ("options", spec.options),
            ("data", spec.recorded_data),
            ("bots", spec.bots_json),
            ("engine", ENGINE),
        ),
        seats=spec.seats,
        counts=_count_columns(spec),
        events=tuple((EVENT_KINDS[i], k.C_EV + i) for i in order),
        policies=policies,
        weights=weights,
    )


def fast_table(spec: GameSpec, seeds: Sequence[int]) -> Any:
    """The results of one game per seed, played by the fast core, as a ``pyarrow.Table`` with
    the schema of :func:`splash.sim.schema.arrow_schema`."""
    return plan_table(record_plan(spec), seeds)


def _reference_record(
    spec: GameSpec, state: BashState, counter: BashCounter, tracer: TraceRecorder
) -> Record:
    game = cast(BashGame, state.game)
    winner = state.board.winner
    record: Record = {
        "seed": 0,
        "winner": winner,
        "winner_team": winner,
        "turns": state.turns + (1 if winner is not None else 0),
        "actions": counter.moves.actions,
        "decisions": counter.moves.decisions,
        "turn_cap": winner is None,
        "events": json.dumps(dict(sorted(counter.events.items()))),
        **counter.columns(game),
        "moves": tracer.moves,
        "trace": tracer.rows(),
    }
    return record


def _same(name: str, fast: object, reference: object) -> bool:
    if name == "trace":
        a = np.asarray(fast, dtype=np.float64)
        b = np.asarray(reference, dtype=np.float64)
        return a.shape == b.shape and bool(np.all(np.abs(a - b) <= 1e-6))
    return fast == reference


def verify_records(spec: GameSpec, seeds: Sequence[int]) -> tuple[int, list[Difference]]:
    """Play ``seeds`` with the fast core and replay each game through the reference engine:
    legal actions at every step, the final state, and every column of the record against
    what :class:`~splash.sim.counters.BashCounter` and the tracer compute on the replay.
    The number of games checked and the differences."""
    tables = fast_tables(spec)
    plan = record_plan(spec)
    games = play_games(
        tables, list(seeds), verify=True, policies=plan.policies, weights=plan.weights
    )
    table = games_table(plan, games).to_pylist()
    differences: list[Difference] = []
    for g in range(len(table)):
        state = tables.game.new_initial_state()
        counter = BashCounter(state)
        tracer = TraceRecorder(
            state,
            evaluate=lambda s: bash_evaluation(cast(BashState, s)),
            started=lambda s: bash_started(cast(BashState, s)),
        )

        def observe(
            s: State, a: Action, c: BashCounter = counter, t: TraceRecorder = tracer
        ) -> None:
            c(s, a)
            t(s, a)

        final, found = replay(tables, games, g, observe)
        differences += found
        if found:
            continue
        tracer.finish(final)
        reference = _reference_record(spec, final, counter, tracer)
        seed = int(games.seeds[g])
        for name, value in reference.items():
            if name != "seed" and not _same(name, table[g][name], value):
                differences.append(
                    Difference(
                        seed, -1, f"column {name}", repr(table[g][name])[:200], repr(value)[:200]
                    )
                )
    return len(table), differences
