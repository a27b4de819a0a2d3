"""Skill levels of ``splash tune``: ``--skills``, targets of one level, the score as the
worst miss over the levels, successive halving on common seeds, and resuming."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from splash.core.errors import DocumentError, OptionError
from splash.report.estimates import Estimate
from splash.sim.backends import Sequential
from splash.sim.runner import GameSpec, Record
from splash.tune.levels import STRONG, Level, length_level, parse_skills
from splash.tune.measure import score, worst
from splash.tune.search import TunePlan, Tuner, load_finalists
from splash.tune.targets import parse_target

SMALL = ["options.turn_cap=120", "board.lanes.centre=8", "board.lanes.high_tide=8"]


def plan_of(**changes: Any) -> TunePlan:
    options: dict[str, Any] = {
        "targets": ["|first_seat_advantage|<=0.05", "duration_turns@greedy=40..90"],
        "vary": ["board.lanes.outer=8..30", "options.turn_order=seat,rotate,snake"],
        "budget": 400,
        "settings": SMALL,
        "skills": ["random", "greedy"],
        "games": [9, 9],
        "finalists": 1,
        "final_games": 6,
        "seed": 5,
        "rungs": 2,
    }
    options.update(changes)
    return TunePlan.of("bash", **options)


def test_strong_stands_for_the_measured_bot_and_a_level_is_given_once() -> None:
    assert parse_skills(["random,greedy,strong"]) == ("random", "greedy", STRONG)
    assert parse_skills(["ismcts:engine=fast,iterations=400,rollout=greedy"]) == (
        "ismcts:engine=fast,iterations=400,rollout=greedy",
    )
    with pytest.raises(OptionError, match="given twice"):
        parse_skills(["greedy,greedy"])


def test_each_level_plays_its_bot_in_every_seat_on_its_own_engine() -> None:
    plan, notes = plan_of(skills=["random", "greedy", "expectimax"], games=[9, 9, 3]).on_engine(
        "auto"
    )
    assert [(lv.bots, lv.engine) for lv in plan.levels] == [
        (("random", "random"), "fast"),
        (("greedy", "greedy"), "fast"),
        (("expectimax", "expectimax"), "reference"),
    ]
    assert len(notes) == 1 and "expectimax" in notes[0].render()
    assert plan.spec({"options.turn_order": "snake"}, 2).bots == ("expectimax", "expectimax")
    assert plan.document()["skills"] == ["random", "greedy", "expectimax"]
    assert plan.document()["games"] == [9, 9, 3]
    assert length_level(plan.levels) == 1
    with pytest.raises(OptionError) as error:
        plan_of(skills=["random", "expectimax"], targets=["balance>=0.5"]).on_engine("fast")
    assert error.value.key == "--engine"


def test_a_target_names_one_level_or_applies_to_all() -> None:
    plan = plan_of()
    assert plan.scopes == ((0, 1), (1,))
    assert plan_of(targets=["duration_turns@1=40..90"]).scopes == ((0,),)
    with pytest.raises(OptionError, match="no level plays expectimax"):
        plan_of(targets=["duration_turns@expectimax=40..90"])
    with pytest.raises(OptionError, match="one per level"):
        plan_of(games=[9, 9, 9])


def test_the_score_is_each_targets_worst_miss_over_its_levels_summed() -> None:
    edge = parse_target("|first_seat_advantage|<=0.02")
    length = parse_target("duration_turns@greedy=150..220")
    levels = [
        {
            "first_seat_advantage": Estimate(0.03, 0.0, 0.06, 100),
            "duration_turns": Estimate(300.0, 290.0, 310.0, 100),
        },
        {
            "first_seat_advantage": Estimate(-0.06, -0.09, -0.03, 100),
            "duration_turns": Estimate(185.0, 180.0, 190.0, 100),
        },
    ]
    found = worst([edge, length], [(0, 1), (1,)], levels)
    assert found[0].value == -0.06  # misses by 2 at greedy, by 0.5 at random
    assert found[1].value == 185.0  # the length at random is no target's
    assert score([edge, length], found) == pytest.approx(2.0)


class CountingBackend:
    """Plays in this process and remembers the seeds and bots of every batch."""

    def __init__(self) -> None:
        self.batches: list[tuple[tuple[str, ...], list[int]]] = []

    def map(self, spec: GameSpec, seeds: Sequence[int]) -> Iterator[Record]:
        return Sequential().map(spec, seeds)

    def tables(self, spec: GameSpec, seeds: Sequence[int]) -> Iterator[Any]:
        self.batches.append((spec.bots, list(seeds)))
        yield from Sequential().tables(spec, seeds)

    def close(self) -> None:
        """Nothing to release."""


def test_successive_halving_stops_candidates_on_the_common_first_seeds(tmp_path: Path) -> None:
    plan, _ = plan_of().on_engine("fast")
    assert plan.rung_games == [(3, 3), (9, 9)]
    backend = CountingBackend()
    result = Tuner(plan, tmp_path).run(backend)
    pruned = [m for m in result.candidates if m.pruned]
    whole = [m for m in result.candidates if not m.pruned]
    assert pruned and whole
    assert all(m.games == 6 for m in pruned) and all(m.games == 18 for m in whole)
    searched = [seeds for _, seeds in backend.batches if seeds[0] < 14]
    assert {tuple(s) for s in searched} == {(5, 6, 7), (8, 9, 10, 11, 12, 13)}
    spent = sum(m.games for m in result.candidates)
    assert not result.ended_early
    assert spent <= plan.search_budget < spent + plan.candidate_games
    assert result.best is not None and not result.best.pruned
    assert result.draft is not None and len(result.draft.levels) == 2
    assert [e.games for e in (result.draft.edge(0), result.draft.edge(1))] == [6, 6]
    assert Tuner(plan, tmp_path).done_games() == spent + 2 * 12
    again = Tuner(plan, tmp_path).run(CountingBackend())
    assert again.candidates == result.candidates and again.draft == result.draft
    document, finalists = load_finalists(tmp_path)
    assert document["skills"] == ["random", "greedy"] and finalists[0] == result.best
    with pytest.raises(DocumentError, match="holds no tuning run"):
        load_finalists(tmp_path / "none")


def test_a_resume_refuses_other_levels(tmp_path: Path) -> None:
    plan, _ = plan_of(budget=120).on_engine("fast")
    Tuner(plan, tmp_path).run(Sequential())
    changed, _ = plan_of(budget=120, skills=["random", "greedy:depth=1"]).on_engine("fast")
    with pytest.raises(OptionError) as error:
        Tuner(changed, tmp_path)
    assert error.value.key == "--skills"


def test_a_level_of_mixed_bots_is_named_by_its_seats() -> None:
    assert Level(("random", "greedy")).bot == "random,greedy"
    assert Level(("greedy", "greedy")).name == "greedy"
