"""The plan of a ``splash tune`` run: :class:`TunePlan` (what is searched, at which levels,
on how many games, within which budget), its ``tune.json`` document, and the refusal of a
folder holding another plan's run (:func:`check_folder`).  The search itself is
:mod:`splash.tune.search`."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from splash.core.documents import format_tag
from splash.core.errors import ConfigError, OptionError
from splash.core.i18n import Message, message
from splash.sim.engines import EngineChoice, choose_engines
from splash.sim.runner import GameSpec
from splash.sim.sweep import check_varied, run_manifest
from splash.tune.levels import Level, level_indices
from splash.tune.targets import Parameter, Target, parse_parameter, parse_target

FORMAT_KIND = "tune"
MANIFEST = "tune.json"
JOURNAL = "study.log"
STUDY = "splash-tune"
REDUCTION = 3
"""Successive halving's reduction factor: each rung plays this many times the games of the
one before, and about one candidate in this many goes on to the next."""
RUNGS = 3
"""The rungs of a candidate by default (``--rungs``; 1: every candidate plays every game)."""

PLAN_KEYS: tuple[tuple[str, str], ...] = (
    ("game", "GAME"),
    ("options", "--set"),
    ("skills", "--skills"),
    ("bots", "--bots"),
    ("engine", "--engine"),
    ("engines", "--engine"),
    ("data", "--data"),
    ("targets", "--target"),
    ("parameters", "--vary"),
    ("games", "--games"),
    ("rungs", "--rungs"),
    ("finalists", "--finalists"),
    ("final_games", "--final-games"),
    ("seed", "--seed"),
)
"""The keys of the plan's document that must match to resume, with the option of each (the
budget may grow)."""


def _whole(option: str, value: object, least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise OptionError(option, value, message("must be a whole number >= {least}", least=least))
    return value


def per_level(option: str, counts: int | Sequence[int], levels: int) -> tuple[int, ...]:
    """Game counts for each level: one count for all, or one per level; an
    :class:`OptionError` of ``option`` otherwise."""
    given = [counts] if isinstance(counts, int) else list(counts)
    for count in given:
        _whole(option, count, 1)
    if len(given) == 1:
        return tuple(given) * levels
    if len(given) != levels:
        raise OptionError(
            option,
            ",".join(map(str, given)),
            message(
                "give one count, or one per level ({levels} levels)",
                levels=levels,
            ),
        )
    return tuple(given)


def _one_or_list(counts: tuple[int, ...]) -> int | list[int]:
    return counts[0] if len(set(counts)) == 1 else list(counts)


@dataclass(frozen=True)
class TunePlan:
    """What a tuning run is; build one with :meth:`of`, which checks everything."""

    base: GameSpec
    """The draft's games at the first level."""
    settings: tuple[str, ...]
    targets: tuple[Target, ...]
    parameters: tuple[Parameter, ...]
    budget: int
    games: tuple[int, ...]
    """A candidate's games at each level."""
    finalists: int
    final_games: tuple[int, ...]
    """A finalist's (and the draft's) fresh games at each level."""
    seed: int
    data_dir: Path | None = None
    levels: tuple[Level, ...] = ()
    skilled: bool = False
    """Whether the levels came from ``--skills`` (else the one level of ``--bots``)."""
    scopes: tuple[tuple[int, ...], ...] = ()
    """The levels each target applies to."""
    rungs: int = RUNGS

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
        skills: Sequence[str] = (),
        games: int | Sequence[int] = 200,
        finalists: int = 3,
        final_games: int | Sequence[int] = 1000,
        seed: int = 0,
        rungs: int = RUNGS,
        data_dir: Path | None = None,
    ) -> TunePlan:
        """The plan of these options; an :class:`OptionError` (or :class:`ConfigError`) naming
        what is wrong: no target or parameter, a key varied twice or also ``--set``, a value
        the game refuses at either end of a range, a target naming no level, game counts
        that are not one or one per level, a budget that pays for no candidate.

        ``skills`` are the levels' bot specs (each plays every seat); without them the one
        level is ``bots``, in seat order."""
        if not targets:
            raise OptionError("--target", None, message("give at least one --target"))
        if not vary:
            raise OptionError("--vary", None, message("give at least one --vary KEY=A..B"))
        _whole("--finalists", finalists, 0)
        _whole("--seed", seed, 0)
        _whole("--budget", budget, 1)
        _whole("--rungs", rungs, 1)
        parsed_targets = tuple(parse_target(text) for text in targets)
        parameters = tuple(parse_parameter(text) for text in vary)
        check_varied([p.key for p in parameters], settings)
        level_bots = [[spec] for spec in skills] if skills else [list(bots)]
        specs = [GameSpec.of(game, settings, b, data_dir=data_dir) for b in level_bots]
        levels = tuple(Level(spec.bots, spec.engine) for spec in specs)
        counts = per_level("--games", games, len(levels))
        finals = per_level("--final-games", final_games, len(levels))
        scopes = tuple(level_indices(levels, t.level, t.text) for t in parsed_targets)
        plan = cls(
            specs[0],
            tuple(settings),
            parsed_targets,
            parameters,
            budget,
            counts,
            finalists,
            finals,
            seed,
            data_dir,
            levels,
            bool(skills),
            scopes,
            rungs,
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
                    "too small: one candidate takes {games} games, the finalists and the draft "
                    "{final} more",
                    games=plan.candidate_games,
                    final=plan.final_cost,
                ),
            )
        return plan

    @property
    def candidate_games(self) -> int:
        """The games of a candidate that plays every rung, all levels together."""
        return sum(self.games)

    @property
    def final_cost(self) -> int:
        """The games of the finalists and of the draft on the fresh seeds (the draft is
        measured beside the finalists, none without finalists)."""
        designs = self.finalists + 1 if self.finalists else 0
        return designs * sum(self.final_games)

    @property
    def search_budget(self) -> int:
        """The games of the budget left to the search."""
        return self.budget - self.final_cost

    @property
    def trials(self) -> int:
        """How many candidates the budget pays for if none is pruned."""
        return self.search_budget // self.candidate_games

    @property
    def rung_games(self) -> list[tuple[int, ...]]:
        """The games a candidate has played at each level at the end of each rung, the last
        rung its every game (rungs that would play no more games are left out)."""
        found: list[tuple[int, ...]] = []
        for rung in range(self.rungs):
            share = REDUCTION ** (self.rungs - 1 - rung)
            counts = tuple(max(1, math.ceil(g / share)) for g in self.games)
            if not found or counts != found[-1]:
                found.append(counts)
        return found

    def spec(self, values: Mapping[str, Any], level: int = 0) -> GameSpec:
        """The spec of the games of a candidate at ``level`` (on that level's engine)."""
        assigned = [p.assignment(values[p.key]) for p in self.parameters if p.key in values]
        chosen = self.levels[level] if self.levels else Level(self.base.bots, self.base.engine)
        spec = GameSpec.of(
            self.base.game, [*self.settings, *assigned], chosen.bots, data_dir=self.data_dir
        )
        return replace(spec, engine=chosen.engine)

    def on_engine(self, choice: EngineChoice | str) -> tuple[TunePlan, list[Message]]:
        """This plan with each level on the engine ``choice`` names for its base and both
        ends of every parameter (:func:`~splash.sim.engines.choose_engines`), with the notes
        saying why the reference engine plays a level when ``auto`` could not take the
        compiled core."""
        levels = []
        notes: list[Message] = []
        for index, level in enumerate(self.levels):
            specs = [self.spec({}, index)] + [
                self.spec({p.key: value}, index) for p in self.parameters for value in p.ends()
            ]
            decision = choose_engines(specs, choice)
            levels.append(replace(level, engine=decision.specs[0].engine))
            if decision.note is not None:
                notes.append(
                    message("Level {level}: {note}", level=level.bot, note=decision.note)
                    if self.skilled
                    else decision.note
                )
        plan = replace(self, levels=tuple(levels))
        return replace(plan, base=plan.spec({}, 0)), notes

    def document(self) -> dict[str, Any]:
        """The ``tune.json`` document of this plan."""
        return {
            "format": format_tag(FORMAT_KIND, 1),
            "game": self.base.game,
            "options": self.base.options,
            "skills": [level.bot for level in self.levels] if self.skilled else None,
            "bots": list(self.base.bots),
            "engine": self.base.engine,
            "engines": [level.engine for level in self.levels] if self.skilled else None,
            "data": self.base.data or None,
            "targets": [t.text for t in self.targets],
            "parameters": [p.text for p in self.parameters],
            "games": _one_or_list(self.games),
            "rungs": self.rungs,
            "finalists": self.finalists,
            "final_games": _one_or_list(self.final_games),
            "seed": self.seed,
            "budget": self.budget,
        }

    @property
    def search_seeds(self) -> list[list[int]]:
        """The seeds every candidate plays at each level."""
        return [list(range(self.seed, self.seed + games)) for games in self.games]

    @property
    def final_seeds(self) -> list[list[int]]:
        """The fresh seeds the finalists and the draft play at each level (after the
        search seeds of every level)."""
        start = self.seed + max(self.games)
        return [list(range(start, start + games)) for games in self.final_games]


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
