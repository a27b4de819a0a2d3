"""A training run of the TD(λ) learner in worker processes, as ``splash train bash`` runs it.

The run is :func:`splash.learn.td.train`'s rounds (:func:`~splash.learn.td.blocks`): each
round, every worker process plays one block of games from the same parameters, and the
blocks' changes are added in the order of the blocks, so the agent is a function of the
seed, the workers and the games (``S``, ``K``, ``N``), not of the processes' timing.  The
workers' linear algebra runs on one thread each.

``minutes`` stops the run at the end of the first round past that much training time; the
agent file records the games played (:class:`~splash.learn.agent.Training`), and a run on
the same file goes on from there to its ``games``: the same agent as a run that never
stopped.  Every ``every`` games, and at the end, the network plays
:data:`EVALUATION_GAMES` games at ply 1 against the compiled greedy bot
(:func:`splash.learn.evaluate.versus_greedy`, always the same games); that time is not
training time.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from splash.core.errors import OptionError
from splash.core.i18n import message
from splash.fast.afterstate import FastAfterstates
from splash.fast.tables import build_tables
from splash.games.bash import BashGame
from splash.learn.agent import AgentFile, Training, read_agent, write_agent
from splash.learn.evaluate import Match, versus_greedy
from splash.learn.search import Search
from splash.learn.td import Block, TDSettings, TrainResult, ValueNet, blocks, initial_net, merge
from splash.learn.td import play_block as _play_block

EVALUATION_GAMES = 200
"""The games of each evaluation against the compiled greedy bot."""
EVERY = 20_000
"""Games between evaluations, by default."""
BLAS_THREADS = "OPENBLAS_NUM_THREADS"
MAX_HIDDEN = 1024
"""The most hidden units a run may ask for."""


@dataclass(frozen=True)
class RunSpec:
    """What a run is asked to do."""

    out: Path
    games: int
    seed: int
    workers: int
    teams: int = 2
    minutes: float | None = None
    every: int = EVERY
    evaluation_games: int = EVALUATION_GAMES
    settings: TDSettings = field(default_factory=TDSettings)


@dataclass(frozen=True)
class Report:
    """Where a run stands after a round (or an evaluation)."""

    played: int
    games: int
    positions: int
    seconds: float
    evaluation: Match | None
    """The last evaluation, if any yet."""


_SEARCH: list[Search] = []


def _start_worker(teams: int, inputs: int, hidden: int) -> None:
    game = BashGame.from_settings([("options.teams", teams)])
    fast = FastAfterstates(build_tables(game))
    _SEARCH[:] = [Search(fast, ValueNet(inputs, hidden, np.random.default_rng(0)))]


def _play(params: np.ndarray, seed: int, first: int, count: int, settings: TDSettings) -> Block:
    return _play_block(_SEARCH[0], params, seed, first, count, settings)


def _evaluate(params: np.ndarray, first: int, games: int) -> Match:
    search = _SEARCH[0]
    search.net.params[:] = params
    return versus_greedy(search, games, first=first)


def _check(spec: RunSpec) -> None:
    for key, value in (
        ("--games", spec.games),
        ("--workers", spec.workers),
        ("--every", spec.every),
    ):
        if value < 1:
            raise OptionError(key, value, message("must be a whole number, 1 or more"))
    if spec.seed < 0:
        raise OptionError("--seed", spec.seed, message("a seed is a whole number, 0 or more"))
    if spec.minutes is not None and not spec.minutes > 0:
        raise OptionError("--minutes", spec.minutes, message("must be a number > 0"))
    if not 2 <= spec.teams <= 4:
        raise OptionError("--teams", spec.teams, message("must be 2, 3 or 4"))
    settings = spec.settings
    if not 1 <= settings.hidden <= MAX_HIDDEN:
        raise OptionError(
            "--hidden",
            settings.hidden,
            message("must be a whole number from 1 to {most}", most=MAX_HIDDEN),
        )
    if not 0.0 < settings.alpha <= 1.0:
        raise OptionError("--alpha", settings.alpha, message("must be a number above 0, at most 1"))
    for key, number in (("--lambda", settings.lam), ("--epsilon", settings.epsilon)):
        if not 0.0 <= number <= 1.0:
            raise OptionError(key, number, message("must be a number from 0 to 1"))


def _resumed(spec: RunSpec, inputs: int) -> AgentFile | None:
    """The agent of an earlier run of this spec in ``spec.out``, or ``None`` for none."""
    if not spec.out.exists():
        return None
    agent = read_agent(spec.out)
    training = agent.training
    if (
        training.seed != spec.seed
        or training.workers != spec.workers
        or agent.teams != spec.teams
        or agent.net.inputs != inputs
    ):
        raise OptionError(
            "--out",
            str(spec.out),
            message(
                "holds an agent trained with seed {seed}, {workers} workers and {teams} "
                "teams: give the same options to go on with it, or another file",
                seed=training.seed,
                workers=training.workers,
                teams=agent.teams,
            ),
        )
    if training.settings != spec.settings:
        was = training.settings
        raise OptionError(
            "--out",
            str(spec.out),
            message(
                "holds an agent trained with --hidden {hidden} --alpha {alpha} --lambda {lam} "
                "--epsilon {epsilon}: give the same options to go on with it, or another file",
                hidden=was.hidden,
                alpha=was.alpha,
                lam=was.lam,
                epsilon=was.epsilon,
            ),
        )
    if training.played > spec.games:
        raise OptionError(
            "--games",
            spec.games,
            message("the agent in --out has played {played} games already", played=training.played),
        )
    return agent


def run(spec: RunSpec, on_report: Callable[[Report], None] | None = None) -> AgentFile:
    """Train (or go on training) the agent of ``spec`` and write it to ``spec.out`` after
    every evaluation and at the end; ``on_report`` hears of every round."""
    _check(spec)
    game = BashGame.from_settings([("options.teams", spec.teams)])
    inputs = FastAfterstates(build_tables(game)).encoding.size
    found = _resumed(spec, inputs)
    if found is None:
        net = initial_net(inputs, spec.seed, spec.settings)
        training = Training(spec.seed, spec.workers, spec.games, 0, 0, 0.0, spec.settings)
    else:
        net, training = found.net, replace(found.training, games=spec.games)
    result = TrainResult(net, training.played, training.positions)
    threads = os.environ.get(BLAS_THREADS)
    os.environ[BLAS_THREADS] = "1"  # inherited by the workers, started during the run
    try:
        return _rounds(spec, inputs, net, training, result, on_report)
    finally:
        if threads is None:
            os.environ.pop(BLAS_THREADS, None)
        else:
            os.environ[BLAS_THREADS] = threads


def _rounds(  # noqa: PLR0917
    spec: RunSpec,
    inputs: int,
    net: ValueNet,
    training: Training,
    result: TrainResult,
    on_report: Callable[[Report], None] | None,
) -> AgentFile:
    """The rounds of :func:`run`, in a pool of ``spec.workers`` processes."""
    seconds = training.seconds
    evaluation: Match | None = None
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(
        spec.workers,
        mp_context=context,
        initializer=_start_worker,
        initargs=(spec.teams, inputs, spec.settings.hidden),
    ) as pool:

        def save() -> AgentFile:
            done = replace(
                training, played=result.games, positions=result.decisions, seconds=seconds
            )
            agent = AgentFile(net, spec.teams, done)
            write_agent(spec.out, agent)
            return agent

        def evaluate() -> Match:
            share = -(-spec.evaluation_games // spec.workers)
            parts = [
                pool.submit(_evaluate, net.params, first, min(share, spec.evaluation_games - first))
                for first in range(0, spec.evaluation_games, share)
            ]
            matches = [part.result() for part in parts]
            return Match(
                sum(m.wins for m in matches),
                sum(m.draws for m in matches),
                sum(m.games for m in matches),
                spec.teams,
            )

        if on_report is not None:  # where a run gone on with starts
            on_report(Report(result.games, spec.games, result.decisions, seconds, None))
        while result.games < spec.games:
            if spec.minutes is not None and seconds >= 60 * spec.minutes:
                break
            started = time.perf_counter()
            before = result.games
            work = [
                pool.submit(_play, net.params, spec.seed, first, count, spec.settings)
                for first, count in blocks(result.games, spec.games, spec.workers, spec.settings)
            ]
            merge(net, [part.result() for part in work], result)
            seconds += time.perf_counter() - started
            if result.games // spec.every > before // spec.every or result.games >= spec.games:
                evaluation = evaluate()
                save()
            if on_report is not None:
                on_report(Report(result.games, spec.games, result.decisions, seconds, evaluation))
        return save()


__all__ = ["EVALUATION_GAMES", "EVERY", "Report", "RunSpec", "run"]
