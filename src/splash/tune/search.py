"""``splash tune``'s search: Optuna over the draft's parameters, every candidate on the same
seeds at every skill level, the best ones measured again on fresh seeds beside the draft.

A :class:`TunePlan` is a game with its fixed settings, its skill levels
(:mod:`splash.tune.levels`: ``--skills``, else the one level of ``--bots``), the
:class:`Target`\\ s, the :class:`Parameter`\\ s, the games each candidate plays at each level
(``games``, seeds ``seed … seed + games - 1``, the same for every candidate: common random
numbers, so two candidates differ by their settings and not by their luck), how many of the
best candidates are measured again (``finalists``) and on how many fresh games at each level
(``final_games``, seeds from ``seed + games`` on), and the budget: every game in all, the
finalists' and the draft's included.

The sampler is Optuna's TPE, seeded by the plan's seed; a candidate's score is, for each
target, its worst miss over the levels it applies to, summed over the targets
(:mod:`splash.tune.measure`: 0 when every target is met at every level), to be minimised.
The games go where they decide, by Optuna's successive halving
(:class:`~optuna.pruners.SuccessiveHalvingPruner`, reduction factor :data:`REDUCTION`): a
candidate plays its games in ``rungs`` steps, each :data:`REDUCTION` times the games of the
one before (at every level, on the first seeds of the search), and goes on to the next only
when its score so far is among the best third of the candidates that reached that rung
(compared on the same seeds); the others are *pruned*, and the budget their games saved pays
for more candidates.  The finalists are the best candidates that played every rung.

The study is kept in ``OUT/study.log`` (Optuna's journal file), beside ``OUT/tune.json`` (the
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

from splash.core.errors import DocumentError
from splash.core.i18n import Message, message
from splash.sim.backends import Backend
from splash.sim.sweep import run_manifest
from splash.tune.measure import Measure, Values, evaluate, measure, play
from splash.tune.plan import (
    FORMAT_KIND,
    JOURNAL,
    MANIFEST,
    REDUCTION,
    STUDY,
    TunePlan,
    check_folder,
)
from splash.tune.targets import Parameter

REPEATS_IN_A_ROW = 100
"""Proposals of measured settings in a row after which the search stops early."""

__all__ = ["REPEATS_IN_A_ROW", "TunePlan", "TuneResult", "Tuner", "check_folder", "load_finalists"]


@dataclass(frozen=True)
class TuneResult:
    """What a run found: every candidate measured on the search seeds (in the order tried,
    the pruned ones included), the finalists measured again on the fresh seeds (best
    first), and the draft on those fresh seeds."""

    plan: TunePlan
    candidates: tuple[Measure, ...]
    finalists: tuple[Measure, ...]
    ended_early: bool = False
    """Whether the search stopped before the budget was spent: every setting measured, or
    the sampler proposing only measured ones (:data:`REPEATS_IN_A_ROW`)."""
    draft: Measure | None = None
    """The draft (the fixed settings, no parameter changed) on the finalists' fresh seeds."""

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
        pruner = optuna.pruners.SuccessiveHalvingPruner(min_resource=1, reduction_factor=REDUCTION)
        return optuna.create_study(
            storage=storage,
            sampler=sampler,
            pruner=pruner,
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
        study = self._study()
        candidates, finalists = self._stored(study)
        draft = study.user_attrs.get("draft")
        drafted = 0 if draft is None else Measure.from_json(draft).games
        return sum(m.games for m in candidates) + sum(m.games for m in finalists) + drafted

    def _stored(self, study: Any) -> tuple[list[Measure], list[Measure]]:
        from optuna.trial import TrialState

        candidates = [
            Measure.from_json(t.user_attrs["measure"])
            for t in study.get_trials(
                deepcopy=False, states=(TrialState.COMPLETE, TrialState.PRUNED)
            )
            if "measure" in t.user_attrs
        ]
        finalists = [Measure.from_json(m) for m in study.user_attrs.get("finalists", [])]
        return candidates, finalists

    def _candidate(
        self,
        study: Any,
        trial: Any,
        values: Values,
        backend: Backend,
        on_games: Callable[[int], None] | None,
    ) -> Measure:
        """Play a new candidate rung by rung, pruned where successive halving says so."""
        import pyarrow as pa
        from optuna.trial import TrialState

        plan = self.plan
        seeds = plan.search_seeds
        tables: list[list[pa.Table]] = [[] for _ in plan.levels]
        played = [0] * len(plan.levels)
        rungs = plan.rung_games
        found: Measure | None = None
        for rung, counts in enumerate(rungs):
            for level, count in enumerate(counts):
                if count > played[level]:
                    fresh = seeds[level][played[level] : count]
                    tables[level].append(
                        play(plan, values, level, fresh, backend, on_games=on_games)
                    )
                    played[level] = count
            found = evaluate(plan, values, [pa.concat_tables(t) for t in tables])
            if rung < len(rungs) - 1:
                trial.report(_objective(found), REDUCTION**rung)
                if trial.should_prune():
                    found = replace(found, pruned=True)
                    trial.set_user_attr("measure", found.to_json())
                    study.tell(trial, state=TrialState.PRUNED)
                    return found
        assert found is not None  # a plan has one rung at least
        trial.set_user_attr("measure", found.to_json())
        study.tell(trial, _objective(found))
        return found

    def run(self, backend: Backend, on_games: Callable[[int], None] | None = None) -> TuneResult:
        """Search until the budget's games are spent, then measure the finalists and the
        draft on the fresh seeds (the backend stays open)."""
        from optuna.trial import TrialState

        plan = self.plan
        study = self._study()
        for trial in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):
            study.tell(trial.number, state=TrialState.FAIL)
        distributions = self._distributions()
        candidates, finalists = self._stored(study)
        known = {_key(m.values): m for m in candidates}
        spent = sum(m.games for m in candidates)
        space = _space_size(plan.parameters)
        repeats = 0
        ended_early = False
        while spent + plan.candidate_games <= plan.search_budget:
            if len(known) >= space or repeats == REPEATS_IN_A_ROW:
                ended_early = True
                break
            trial = study.ask(distributions)
            values = self._values(trial.params)
            found = known.get(_key(values))
            if found is not None:
                trial.set_user_attr("repeat", True)
                if found.pruned:
                    trial.report(_objective(found), 1)
                    study.tell(trial, state=TrialState.PRUNED)
                else:
                    study.tell(trial, _objective(found))
                repeats += 1
                continue
            repeats = 0
            found = self._candidate(study, trial, values, backend, on_games)
            candidates.append(found)
            known[_key(values)] = found
            spent += found.games
        chosen = _best_distinct([m for m in candidates if not m.pruned], plan.finalists)
        if _settings(finalists) != _settings(chosen):
            finalists = [
                measure(plan, m.values, plan.final_seeds, backend, on_games) for m in chosen
            ]
            study.set_user_attr("finalists", [m.to_json() for m in finalists])
        draft = None
        if finalists:
            stored = study.user_attrs.get("draft")
            if stored is None:
                draft = measure(plan, {}, plan.final_seeds, backend, on_games)
                study.set_user_attr("draft", draft.to_json())
            else:
                draft = Measure.from_json(stored)
        finalists.sort(key=lambda m: m.score)
        return TuneResult(plan, tuple(candidates), tuple(finalists), ended_early, draft)


def load_finalists(directory: Path) -> tuple[dict[str, Any], list[Measure]]:
    """The plan's document of the tuning run kept in ``directory`` and its finalists, best
    first (on their fresh seeds); a :class:`DocumentError` naming the folder when it holds
    no tuning run or no finalist."""
    import optuna
    from optuna.storages import JournalStorage
    from optuna.storages.journal import JournalFileBackend

    def refused(file: str) -> Message:
        return message("{file} is not a tuning document", file=file)

    document = run_manifest(directory, MANIFEST, FORMAT_KIND, refused)
    if document is None or not (directory / JOURNAL).is_file():
        raise DocumentError(message("{folder} holds no tuning run", folder=str(directory)))
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    storage = JournalStorage(JournalFileBackend(str(directory / JOURNAL)))
    study = optuna.load_study(study_name=STUDY, storage=storage)
    finalists = [Measure.from_json(m) for m in study.user_attrs.get("finalists", [])]
    if not finalists:
        raise DocumentError(
            message(
                "{folder} holds no finalist yet: run the search to its end", folder=str(directory)
            )
        )
    return document, sorted(finalists, key=lambda m: m.score)


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
