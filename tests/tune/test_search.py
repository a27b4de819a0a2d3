"""The search of ``splash tune``: its plan's checks, the same result from the same seed,
resuming, the refusal of another plan's folder, and its page."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from splash.core.errors import OptionError
from splash.report.html import write_page
from splash.sim.backends import DaskBackend, Sequential
from splash.sim.runner import GameSpec, Record
from splash.tune.page import tune_page
from splash.tune.search import TunePlan, Tuner

TARGETS = ("|first_seat_advantage|<=0.05", "duration_turns=60..90")
VARY = ("board.lanes.outer=8..16", "decks.high_tide.undertow=0,2")


def small_plan(
    budget: int = 40,
    targets: tuple[str, ...] = TARGETS,
    vary: tuple[str, ...] = VARY,
    rungs: int = 1,
) -> TunePlan:
    return TunePlan.of(
        "bash",
        targets=targets,
        vary=vary,
        budget=budget,
        settings=["options.turn_cap=120", "board.lanes.centre=8", "board.lanes.high_tide=8"],
        bots=["random"],
        games=6,
        finalists=1,
        final_games=4,
        seed=3,
        rungs=rungs,
    )


def test_the_budget_pays_the_candidates_after_the_finalists_and_the_draft() -> None:
    assert small_plan(budget=40).trials == 5  # (40 - (1 + 1) * 4) // 6
    with pytest.raises(OptionError) as error:
        small_plan(budget=9)
    assert error.value.key == "--budget"


def test_the_default_bots_are_greedy_on_the_compiled_core() -> None:
    plan = TunePlan.of("bash", targets=TARGETS, vary=VARY, budget=5000)
    assert plan.base.bots == ("greedy", "greedy")
    on_auto, notes = plan.on_engine("auto")
    assert on_auto.base.engine == "fast" and notes == []
    assert on_auto.spec({"board.lanes.outer": 8}).engine == "fast"


def test_a_value_the_game_refuses_names_the_assignment() -> None:
    with pytest.raises(OptionError) as error:
        TunePlan.of("bash", targets=TARGETS, vary=["board.lanes.outer=0..10"], budget=100)
    assert error.value.value == "board.lanes.outer=0"


def test_a_key_both_fixed_and_searched_is_refused() -> None:
    with pytest.raises(OptionError, match="both --set and --vary"):
        TunePlan.of(
            "bash", targets=TARGETS, vary=VARY, budget=100, settings=["board.lanes.outer=9"]
        )


@pytest.mark.slow
def test_the_same_seed_finds_the_same_and_a_larger_budget_goes_on(tmp_path: Path) -> None:
    first = Tuner(small_plan(), tmp_path / "a").run(Sequential())
    again = Tuner(small_plan(), tmp_path / "b").run(Sequential())
    assert [m.values for m in first.candidates] == [m.values for m in again.candidates]
    assert [m.score for m in first.candidates] == [m.score for m in again.candidates]
    assert len(first.candidates) == 5
    assert first.best is not None and first.best.games == 4
    assert first.draft is not None and first.draft.games == 4 and first.draft.values == {}
    longer = Tuner(small_plan(budget=52), tmp_path / "a").run(Sequential())
    assert len(longer.candidates) == 7
    assert [m.values for m in longer.candidates[:5]] == [m.values for m in first.candidates]
    assert Tuner(small_plan(budget=52), tmp_path / "a").done_games() == 7 * 6 + 4 + 4
    page = tune_page(longer).render()
    assert "Recommended settings" in page and page.count("<figure>") == 3
    assert "Fairness at every level" in page
    write_page(tmp_path / "tune.html", tune_page(longer))
    with pytest.raises(OptionError) as error:
        Tuner(small_plan(targets=("duration_turns=50..90",)), tmp_path / "a")
    assert error.value.key == "--target"


def test_settings_proposed_again_are_not_played_again(tmp_path: Path) -> None:
    plan = small_plan(budget=20 * 6 + 8, vary=("board.lanes.outer=8..10", "options.tail_wind=0,2"))
    played: list[int] = []
    result = Tuner(plan, tmp_path).run(Sequential(), played.append)
    settings = sorted(
        (m.values["board.lanes.outer"], m.values["options.tail_wind"]) for m in result.candidates
    )
    assert settings == [(8, 0), (8, 2), (9, 0), (9, 2), (10, 0), (10, 2)]
    assert result.ended_early
    assert sum(played) == 6 * 6 + 4 + 4
    assert Tuner(plan, tmp_path).done_games() == 6 * 6 + 4 + 4
    again: list[int] = []
    resumed = Tuner(plan, tmp_path).run(Sequential(), again.append)
    assert again == [] and len(resumed.candidates) == 6
    assert (
        "The search ended after 6 candidates, 84 games of its budget unspent"
        in tune_page(resumed).render()
    )


class RecordingBackend:
    """Plays in this process, remembers the seeds of each candidate it is given, and stops
    with a KeyboardInterrupt (as Ctrl-C would) when asked for the candidate ``stop_at``."""

    def __init__(self, stop_at: int | None = None) -> None:
        self.seeds: list[list[int]] = []
        self.stop_at = stop_at

    def map(self, spec: GameSpec, seeds: Sequence[int]) -> Iterator[Record]:
        return Sequential().map(spec, seeds)

    def tables(self, spec: GameSpec, seeds: Sequence[int]) -> Iterator[Any]:
        if len(self.seeds) == self.stop_at:
            raise KeyboardInterrupt
        self.seeds.append(list(seeds))
        yield from Sequential().tables(spec, seeds)

    def close(self) -> None:
        """Nothing to release."""


def test_candidates_share_their_seeds_and_finalists_play_fresh_ones(tmp_path: Path) -> None:
    plan = small_plan(budget=4 * 6 + 8)
    backend = RecordingBackend()
    result = Tuner(plan, tmp_path).run(backend)
    assert len(result.candidates) == 4 and len(result.finalists) == 1
    assert backend.seeds[:4] == [[3, 4, 5, 6, 7, 8]] * 4
    assert backend.seeds[4:] == [[9, 10, 11, 12]] * 2  # the finalist, then the draft


def test_an_interrupted_search_plays_the_stopped_candidate_again(tmp_path: Path) -> None:
    plan = small_plan(budget=4 * 6 + 8)
    with pytest.raises(KeyboardInterrupt):
        Tuner(plan, tmp_path / "a").run(RecordingBackend(stop_at=2))
    assert Tuner(plan, tmp_path / "a").done_games() == 2 * 6
    resumed = RecordingBackend()
    found = Tuner(plan, tmp_path / "a").run(resumed)
    whole = Tuner(plan, tmp_path / "b").run(Sequential())
    assert len(found.candidates) == 4 and len(resumed.seeds) == 2 + 2
    assert [m.values for m in found.candidates[:2]] == [m.values for m in whole.candidates[:2]]
    assert Tuner(plan, tmp_path / "a").done_games() == 4 * 6 + 8


@pytest.mark.slow
def test_a_candidate_measures_the_same_on_dask(tmp_path: Path) -> None:
    plan, _ = small_plan(budget=2 * 6 + 8).on_engine("fast")
    here = Tuner(plan, tmp_path / "here").run(Sequential())
    backend = DaskBackend(local=1)
    try:
        there = Tuner(plan, tmp_path / "dask").run(backend)
    finally:
        backend.close()
    assert there.candidates == here.candidates and there.finalists == here.finalists
