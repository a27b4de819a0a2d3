"""``splash tune``'s search: Optuna over the draft's parameters, every candidate on the same
seeds, the best ones measured again on fresh seeds.

A :class:`TunePlan` is a game with its fixed settings and bots, the :class:`Target`\\ s, the
:class:`Parameter`\\ s, the games each candidate plays (``games``, seeds ``seed …
seed + games - 1``, the same for every candidate: common random numbers, so two candidates
differ by their settings and not by their luck), how many of the best candidates are measured
again (``finalists``) and on how many fresh games (``final_games``, seeds from
``seed + games`` on), and the budget: every game in all, the finalists' included.

The sampler is Optuna's TPE, seeded by the plan's seed; a candidate's score is the sum of its
targets' misses (:meth:`Target.miss`: 0 when every target is met), to be minimised.  The
study is kept in ``OUT/study.log`` (Optuna's journal file), beside ``OUT/tune.json`` (the
plan's document): a run started again with the same folder resumes, playing only what is
missing (a candidate stopped half-way is played again), and a larger ``--budget`` goes on
searching.  A folder of another plan is refused, naming what differs.

A candidate's games are a pure function of its settings and the search seeds, so settings
the sampler proposes again are not played again: the sampler is told their stored score, and
only candidates of new settings count against the budget.  The search ends early when every
setting of a finite space is measured, or when the sampler proposes only measured settings
:data:`REPEATS_IN_A_ROW` times in a row.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from splash.core.documents import format_tag
from splash.core.errors import ConfigError, OptionError
from splash.core.i18n import Message, message
from splash.report.estimates import Estimate, estimate, games_table
from splash.sim.backends import Backend
from splash.sim.engines import EngineChoice, choose_engines
from splash.sim.runner import GameSpec
from splash.sim.sweep import check_varied, run_manifest
from splash.tune.targets import Parameter, Target, parse_parameter, parse_target

FORMAT_KIND = "tune"
MANIFEST = "tune.json"
JOURNAL = "study.log"
STUDY = "splash-tune"
REPEATS_IN_A_ROW = 100
"""Proposals of measured settings in a row after which the search stops early."""

PLAN_KEYS: tuple[tuple[str, str], ...] = (
    ("game", "GAME"),
    ("options", "--set"),
    ("bots", "--bots"),
    ("engine", "--engine"),
    ("data", "--data"),
    ("targets", "--target"),
    ("parameters", "--vary"),
    ("games", "--games"),
    ("finalists", "--finalists"),
    ("final_games", "--final-games"),
    ("seed", "--seed"),
)
"""The keys of the plan's document that must match to resume, with the option of each (the
budget may grow)."""

Values = dict[str, Any]
"""A candidate's settings: a value per parameter key."""


def _whole(option: str, value: object, least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise OptionError(option, value, message("must be a whole number >= {least}", least=least))
    return value


@dataclass(frozen=True)
class TunePlan:
    """What a tuning run is; build one with :meth:`of`, which checks everything."""

    base: GameSpec
    settings: tuple[str, ...]
    targets: tuple[Target, ...]
    parameters: tuple[Parameter, ...]
    budget: int
    games: int
    finalists: int
    final_games: int
    seed: int
    data_dir: Path | None = None

    @classmethod
    def of(
        cls,
        game: str,
        *,
        targets: Sequence[str],
        vary: Sequence[str],
        budget: int,
        settings: Sequence[str] = (),
        bots: Sequence[str] = ("greedy",),
        games: int = 200,
        finalists: int = 3,
        final_games: int = 1000,
        seed: int = 0,
        data_dir: Path | None = None,
    ) -> TunePlan:
        """The plan of these options; an :class:`OptionError` (or :class:`ConfigError`) naming
        what is wrong: no target or parameter, a key varied twice or also ``--set``, a value
        the game refuses at either end of a range, a budget that pays for no candidate."""
        if not targets:
            raise OptionError("--target", None, message("give at least one --target"))
        if not vary:
            raise OptionError("--vary", None, message("give at least one --vary KEY=A..B"))
        _whole("--games", games, 1)
        _whole("--finalists", finalists, 0)
        _whole("--final-games", final_games, 1)
        _whole("--seed", seed, 0)
        _whole("--budget", budget, 1)
        parsed_targets = tuple(parse_target(text) for text in targets)
        parameters = tuple(parse_parameter(text) for text in vary)
        check_varied([p.key for p in parameters], settings)
        base = GameSpec.of(game, settings, bots, data_dir=data_dir)
        plan = cls(
            base,
            tuple(settings),
            parsed_targets,
            parameters,
            budget,
            games,
            finalists,
            final_games,
            seed,
            data_dir,
        )
        for parameter in parameters:
            for value in parameter.ends():
                try:
                    plan.spec({parameter.key: value})
                except ConfigError as error:
                    raise OptionError(
                        "--vary",
                        parameter.assignment(value),
                        message("the game refuses it: {error}", error=error.text),
                    ) from None
        if plan.trials < 1:
            raise OptionError(
                "--budget",
                budget,
                message(
                    "too small: one candidate takes {games} games and the finalists {final} more",
                    games=games,
                    final=finalists * final_games,
                ),
            )
        return plan

    @property
    def trials(self) -> int:
        """How many candidates the budget pays for, the finalists' games set aside."""
        return (self.budget - self.finalists * self.final_games) // self.games

    def spec(self, values: Mapping[str, Any]) -> GameSpec:
        """The spec of the games of a candidate (on the plan's engine)."""
        assigned = [p.assignment(values[p.key]) for p in self.parameters if p.key in values]
        spec = GameSpec.of(
            self.base.game, [*self.settings, *assigned], self.base.bots, data_dir=self.data_dir
        )
        return replace(spec, engine=self.base.engine)

    def on_engine(self, choice: EngineChoice | str) -> tuple[TunePlan, Message | None]:
        """This plan on the engine ``choice`` names for the base and both ends of every
        parameter (:func:`~splash.sim.engines.choose_engines`), with the note saying why the
        reference engine plays it when ``auto`` could not take the compiled core."""
        specs = [self.base] + [
            self.spec({p.key: value}) for p in self.parameters for value in p.ends()
        ]
        decision = choose_engines(specs, choice)
        return replace(self, base=decision.specs[0]), decision.note

    def document(self) -> dict[str, Any]:
        """The ``tune.json`` document of this plan."""
        return {
            "format": format_tag(FORMAT_KIND, 1),
            "game": self.base.game,
            "options": self.base.options,
            "bots": list(self.base.bots),
            "engine": self.base.engine,
            "data": self.base.data or None,
            "targets": [t.text for t in self.targets],
            "parameters": [p.text for p in self.parameters],
            "games": self.games,
            "finalists": self.finalists,
            "final_games": self.final_games,
            "seed": self.seed,
            "budget": self.budget,
        }

    @property
    def search_seeds(self) -> list[int]:
        """The seeds every candidate plays."""
        return list(range(self.seed, self.seed + self.games))

    @property
    def final_seeds(self) -> list[int]:
        """The fresh seeds the finalists play."""
        start = self.seed + self.games
        return list(range(start, start + self.final_games))


@dataclass(frozen=True)
class Measure:
    """A candidate measured: its settings, each target's estimate, its score, and on how
    many games."""

    values: Values
    estimates: tuple[Estimate, ...]
    score: float
    games: int

    def to_json(self) -> dict[str, Any]:
        """As the study keeps it."""
        return {
            "values": self.values,
            "estimates": [
                [_finite(e.value), _finite(e.low), _finite(e.high), e.games] for e in self.estimates
            ],
            "score": self.score if math.isfinite(self.score) else None,
            "games": self.games,
        }

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> Measure:
        """The measure of :meth:`to_json`."""
        estimates = tuple(
            Estimate(_float(row[0]), _float(row[1]), _float(row[2]), int(row[3]))
            for row in doc["estimates"]
        )
        score = doc["score"]
        return cls(
            dict(doc["values"]),
            estimates,
            math.inf if score is None else float(score),
            int(doc["games"]),
        )


def _float(value: float | None) -> float:
    return math.nan if value is None else float(value)


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


def score(targets: Sequence[Target], estimates: Sequence[Estimate]) -> float:
    """The sum of the targets' misses by the estimates' values."""
    return sum(t.miss(e.value) for t, e in zip(targets, estimates, strict=True))


def measure(
    plan: TunePlan,
    values: Values,
    seeds: Sequence[int],
    backend: Backend,
    on_games: Callable[[int], None] | None = None,
) -> Measure:
    """Play the candidate ``values`` on ``seeds`` and estimate every target's metric."""
    import pyarrow as pa

    from splash.report.results import Results, Run, results_frame

    spec = plan.spec(values)
    tables = []
    for table in backend.tables(spec, seeds):
        tables.append(table)
        if on_games is not None:
            on_games(table.num_rows)
    table = pa.concat_tables(tables)
    if not any(t.metric.ludii for t in plan.targets):
        table = table.drop_columns(["trace"])
    frame = results_frame(table.sort_by("seed"))
    run = Run(Path(MANIFEST), spec.game, spec.options, spec.bots, len(frame), spec.data or None)
    results = Results(spec.game, spec.seats, (run,), frame)
    games = games_table(results)
    estimates = tuple(estimate(t.metric, games, seed=plan.seed) for t in plan.targets)
    return Measure(values, estimates, score(plan.targets, estimates), len(frame))


def check_folder(directory: Path, plan: TunePlan) -> None:
    """Refuse a ``directory`` that is a file, that holds other things than a tuning run, or
    that holds the run of another plan (naming the option that differs)."""
    stored = run_manifest(
        directory,
        MANIFEST,
        FORMAT_KIND,
        lambda file: message("{file} is not a tuning document", file=file),
    )
    if stored is None:
        return
    mine = plan.document()
    for key, option in PLAN_KEYS:
        if stored.get(key) != mine[key]:
            raise OptionError(
                option,
                mine[key],
                message(
                    "{folder} holds a tuning run with {what} {found}: give the same to "
                    "resume, or another --out",
                    folder=str(directory),
                    what=key,
                    found=json.dumps(stored.get(key)),
                ),
            )


@dataclass(frozen=True)
class TuneResult:
    """What a run found: every candidate measured on the search seeds (in the order tried),
    and the finalists measured again on the fresh seeds (best first)."""

    plan: TunePlan
    candidates: tuple[Measure, ...]
    finalists: tuple[Measure, ...]
    ended_early: bool = False
    """Whether the search stopped before the budget's candidates: every setting measured, or
    the sampler proposing only measured ones (:data:`REPEATS_IN_A_ROW`)."""

    @property
    def best(self) -> Measure | None:
        """The recommended settings: the finalist of the lowest score on the fresh seeds."""
        return self.finalists[0] if self.finalists else None


class Tuner:
    """A plan run in ``directory``: see the module."""

    def __init__(self, plan: TunePlan, directory: Path) -> None:
        check_folder(directory, plan)
        self.plan = plan
        self.directory = directory

    def _study(self) -> Any:
        import optuna
        from optuna.storages import JournalStorage
        from optuna.storages.journal import JournalFileBackend

        optuna.logging.set_verbosity(optuna.logging.WARNING)
        self.directory.mkdir(parents=True, exist_ok=True)
        text = json.dumps(self.plan.document(), indent=1, ensure_ascii=False) + "\n"
        (self.directory / MANIFEST).write_text(text, encoding="utf-8")
        storage = JournalStorage(JournalFileBackend(str(self.directory / JOURNAL)))
        sampler = optuna.samplers.TPESampler(seed=self.plan.seed)
        return optuna.create_study(
            storage=storage,
            sampler=sampler,
            study_name=STUDY,
            direction="minimize",
            load_if_exists=True,
        )

    def _distributions(self) -> dict[str, Any]:
        from optuna.distributions import (
            CategoricalDistribution,
            FloatDistribution,
            IntDistribution,
        )

        found: dict[str, Any] = {}
        for p in self.plan.parameters:
            if p.kind == "int":
                found[p.key] = IntDistribution(int(p.low), int(p.high))
            elif p.kind == "float":
                found[p.key] = FloatDistribution(p.low, p.high)
            else:
                found[p.key] = CategoricalDistribution(list(p.choices))
        return found

    def _values(self, params: Mapping[str, Any]) -> Values:
        from splash.core.settings import parse_value

        kinds = {p.key: p.kind for p in self.plan.parameters}
        return {k: parse_value(v) if kinds[k] == "list" else v for k, v in params.items()}

    def done_games(self) -> int:
        """The games of the budget already spent (0 before the first run)."""
        if not (self.directory / JOURNAL).is_file():
            return 0
        candidates, finalists = self._stored(self._study())
        return sum(m.games for m in candidates) + sum(m.games for m in finalists)

    def _stored(self, study: Any) -> tuple[list[Measure], list[Measure]]:
        from optuna.trial import TrialState

        candidates = [
            Measure.from_json(t.user_attrs["measure"])
            for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
            if "measure" in t.user_attrs
        ]
        finalists = [Measure.from_json(m) for m in study.user_attrs.get("finalists", [])]
        return candidates, finalists

    def run(self, backend: Backend, on_games: Callable[[int], None] | None = None) -> TuneResult:
        """Search until the budget's candidates are measured, then measure the finalists
        (the backend stays open)."""
        from optuna.trial import TrialState

        plan = self.plan
        study = self._study()
        for trial in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):
            study.tell(trial.number, state=TrialState.FAIL)
        distributions = self._distributions()
        candidates, finalists = self._stored(study)
        known = {_key(m.values): m for m in candidates}
        space = _space_size(plan.parameters)
        repeats = 0
        while len(candidates) < plan.trials and len(known) < space:
            if repeats == REPEATS_IN_A_ROW:
                break
            trial = study.ask(distributions)
            values = self._values(trial.params)
            found = known.get(_key(values))
            if found is not None:
                trial.set_user_attr("repeat", True)
                study.tell(trial, _objective(found))
                repeats += 1
                continue
            repeats = 0
            found = measure(plan, values, plan.search_seeds, backend, on_games)
            trial.set_user_attr("measure", found.to_json())
            study.tell(trial, _objective(found))
            candidates.append(found)
            known[_key(values)] = found
        ended_early = len(candidates) < plan.trials
        chosen = _best_distinct(candidates, plan.finalists)
        if _settings(finalists) != _settings(chosen):
            finalists = [
                measure(plan, m.values, plan.final_seeds, backend, on_games) for m in chosen
            ]
            study.set_user_attr("finalists", [m.to_json() for m in finalists])
        finalists.sort(key=lambda m: m.score)
        return TuneResult(plan, tuple(candidates), tuple(finalists), ended_early)


def _objective(found: Measure) -> float:
    return found.score if math.isfinite(found.score) else 1e9


def _key(values: Values) -> str:
    return json.dumps(values, sort_keys=True)


def _space_size(parameters: Sequence[Parameter]) -> float:
    """How many settings the parameters allow (infinite with a range of floats)."""
    size = 1.0
    for p in parameters:
        if p.kind == "float":
            return math.inf
        size *= len(p.choices) if p.kind == "list" else int(p.high) - int(p.low) + 1
    return size


def _settings(measures: Sequence[Measure]) -> list[str]:
    return sorted(_key(m.values) for m in measures)


def _best_distinct(candidates: Sequence[Measure], count: int) -> list[Measure]:
    """The ``count`` candidates of lowest score with different settings, best first."""
    chosen: list[Measure] = []
    for found in sorted(candidates, key=lambda m: m.score):
        if len(chosen) == count:
            break
        if all(found.values != other.values for other in chosen):
            chosen.append(found)
    return chosen
