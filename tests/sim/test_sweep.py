"""Variant sweeps: the plan of combinations, their files, resuming, pairing by seed, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from splash.core.errors import DocumentError, OptionError
from splash.sim import GameSpec, run_one
from splash.sim.backends import Sequential
from splash.sim.sweep import (
    MANIFEST,
    Sweep,
    SweepPlan,
    file_stem,
    parse_vary,
    value_text,
)
from tests.sim.conftest import CountingBackend

SHORT = "options.turn_cap=12"
"""A fixed setting that keeps random games short (they stop at the turn cap)."""


def plan_of(
    *vary: str, settings: tuple[str, ...] = (SHORT,), bots: tuple[str, ...] = ()
) -> SweepPlan:
    return SweepPlan.of("bash", list(settings), list(bots), list(vary))


def test_parse_vary_reads_toml_values_and_keeps_lists_whole() -> None:
    assert parse_vary("board.lanes.outer=36,40, 44").values == (36, 40, 44)
    assert parse_vary("options.obstacles=one-shot,permanent").values == ("one-shot", "permanent")
    fractions = parse_vary("board.checkpoints.fractions=[0.0, 0.5],[0.0, 0.25, 0.5, 0.75]")
    assert fractions.values == ([0.0, 0.5], [0.0, 0.25, 0.5, 0.75])
    assert parse_vary("options.tail_wind=1").texts == ("1",)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("board.lanes.outer", "expected KEY=VALUE,VALUE,..."),
        ("=36,40", "expected KEY=VALUE,VALUE,..."),
        ("board..outer=36,40", "a key is a dotted path"),
        ("board.lanes.outer=", "no values to try for board.lanes.outer"),
        ("board.lanes.outer=  ", "no values to try"),
        ("board.lanes.outer=36,,40", "an empty value"),
        ("board.lanes.outer=36,40,36", "the value 36 is given twice"),
    ],
)
def test_parse_vary_refuses_malformed_texts(text: str, problem: str) -> None:
    with pytest.raises(OptionError, match=problem):
        parse_vary(text)


def test_combinations_are_the_full_factorial_first_key_slowest() -> None:
    plan = plan_of("board.lanes.outer=36,40,44", "decks.high_tide.undertow=0,3")
    assert plan.keys == ("board.lanes.outer", "decks.high_tide.undertow")
    assert [c.assignments for c in plan.combinations] == [
        (("board.lanes.outer", 36), ("decks.high_tide.undertow", 0)),
        (("board.lanes.outer", 36), ("decks.high_tide.undertow", 3)),
        (("board.lanes.outer", 40), ("decks.high_tide.undertow", 0)),
        (("board.lanes.outer", 40), ("decks.high_tide.undertow", 3)),
        (("board.lanes.outer", 44), ("decks.high_tide.undertow", 0)),
        (("board.lanes.outer", 44), ("decks.high_tide.undertow", 3)),
    ]
    assert [c.index for c in plan.combinations] == list(range(6))
    last = plan.combinations[-1]
    assert last.spec == GameSpec.of(
        "bash", [SHORT, "board.lanes.outer=44", "decks.high_tide.undertow=3"], []
    )
    assert last.stem == "board.lanes.outer=44__decks.high_tide.undertow=3"
    assert last.label == "board.lanes.outer=44, decks.high_tide.undertow=3"


def test_file_names_are_safe_and_distinct() -> None:
    plain = file_stem([("board.lanes.outer", 36), ("options.obstacles", "permanent")])
    assert plain == "board.lanes.outer=36__options.obstacles=permanent"
    one = file_stem([("board.checkpoints.fractions", [0.0, 0.5])])
    other = file_stem([("board.checkpoints.fractions", [0.0, 0.25])])
    slashed = file_stem([("a.b", "../x y")])
    for stem in (one, other, slashed):
        assert all(c.isalnum() or c in "._=-" for c in stem), stem
        assert not stem.startswith(".")
    assert one != other
    assert one.startswith("board.checkpoints.fractions=_0.0_0.5-") or one.startswith(
        "board.checkpoints.fractions=0.0_0.5-"
    )
    long = file_stem([("k", "v" * 400)])
    assert len(long) < 200
    assert long != file_stem([("k", "v" * 401)])
    assert value_text(True) == "true"
    assert value_text(0.5) == "0.5"


def test_a_key_varied_twice_is_refused() -> None:
    with pytest.raises(OptionError, match=r"board\.lanes\.outer is varied twice"):
        plan_of("board.lanes.outer=36,40", "board.lanes.outer=44")


def test_a_key_both_set_and_varied_is_refused() -> None:
    with pytest.raises(OptionError, match=r"options\.turn_cap is both --set and --vary'd"):
        plan_of("options.turn_cap=10,20")


def test_no_vary_is_refused() -> None:
    with pytest.raises(OptionError, match="give at least one --vary"):
        plan_of()


@pytest.mark.parametrize(
    ("vary", "shown"),
    [
        ("board.lanes.outer=36,-3", "board.lanes.outer='-3'"),
        ("decks.high_tide.undertow=0,lots", "decks.high_tide.undertow='lots'"),
        ("options.teams=2,9", "options.teams='9'"),
        ("board.nowhere=1,2", "board.nowhere='1'"),
    ],
)
def test_a_value_the_game_refuses_is_named_with_its_key(vary: str, shown: str) -> None:
    with pytest.raises(OptionError, match="the game refuses this value") as caught:
        plan_of(vary)
    assert str(caught.value).startswith(shown)


def test_too_many_combinations_are_refused_unless_allowed() -> None:
    outer = "board.lanes.outer=" + ",".join(str(v) for v in range(30, 39))
    undertow = "decks.high_tide.undertow=" + ",".join(str(v) for v in range(8))
    with pytest.raises(OptionError, match="72 combinations, more than 64"):
        plan_of(outer, undertow)
    with pytest.raises(OptionError, match="4 combinations, more than 3"):
        SweepPlan.of(
            "bash", [], [], ["board.laps=1,2", "options.tail_wind=0,1"], max_combinations=3
        )
    plan = SweepPlan.of("bash", [], [], [outer, undertow], max_combinations=72)
    assert len(plan.combinations) == 72


def test_combinations_may_change_the_seats() -> None:
    plan = plan_of("options.teams=2,3", bots=("greedy", "random"))
    assert [c.spec.bots for c in plan.combinations] == [
        ("greedy", "random"),
        ("greedy", "random", "random"),
    ]
    assert [c.teams for c in plan.combinations] == [2, 3]


def test_every_combination_plays_the_same_seeds(tmp_path: Path) -> None:
    plan = SweepPlan.of("bash", [], [], ["options.turn_cap=8,1000"])
    sweep = Sweep(plan, tmp_path / "sweep", games=3, seed=11)
    assert sweep.play(Sequential()) == 6
    capped, free = sweep.results()
    assert list(capped.frame["seed"]) == list(free.frame["seed"]) == [11, 12, 13]
    assert capped.frame["turn_cap"].all()
    assert not free.frame["turn_cap"].any()
    # The default-valued combination is game for game what splash simulate plays.
    default = GameSpec.of("bash", [], [])
    for row in free.frame.itertuples():
        expected = run_one(default, int(row.seed))
        assert (row.winner_team, row.turns) == (expected["winner_team"], expected["turns"])


def test_each_combination_is_a_results_file_and_the_folder_has_a_manifest(tmp_path: Path) -> None:
    folder = tmp_path / "sweep"
    plan = plan_of("board.lanes.outer=36,40")
    Sweep(plan, folder, games=2, seed=0).play(Sequential())
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["board.lanes.outer=36.parquet", "board.lanes.outer=40.parquet", MANIFEST]
    frame = pd.read_parquet(folder / "board.lanes.outer=40.parquet")
    assert json.loads(frame["options"][0]) == {"board.lanes.outer": 40, "options.turn_cap": 12}
    doc = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    assert doc["format"] == "splash/sweep/1"
    assert doc["vary"] == [{"key": "board.lanes.outer", "values": ["36", "40"]}]


def test_an_interrupted_sweep_resumes_without_replaying(tmp_path: Path) -> None:
    folder = tmp_path / "sweep"
    plan = plan_of("board.lanes.outer=36,40", "options.tail_wind=0,1")
    stopped = CountingBackend(stop_after=5)
    with pytest.raises(KeyboardInterrupt):
        Sweep(plan, folder, games=3, seed=2).play(stopped)
    assert stopped.played == [2, 3, 4, 2, 3]
    resumed = Sweep(plan, folder, games=3, seed=2)
    assert (resumed.done, resumed.total) == (5, 12)
    again = CountingBackend()
    assert resumed.play(again) == 7
    assert again.played == [4, 2, 3, 4, 2, 3, 4]
    finished = Sweep(plan, folder, games=3, seed=2)
    assert finished.done == 12
    idle = CountingBackend()
    assert finished.play(idle) == 0
    assert idle.played == []
    assert [list(r.frame["seed"]) for r in finished.results()] == [[2, 3, 4]] * 4


def test_resumed_results_equal_those_of_one_run(tmp_path: Path) -> None:
    plan = plan_of("board.lanes.outer=36,40")
    once = Sweep(plan, tmp_path / "once", games=3, seed=0)
    once.play(Sequential())
    with pytest.raises(KeyboardInterrupt):
        Sweep(plan, tmp_path / "twice", games=3, seed=0).play(CountingBackend(stop_after=4))
    twice = Sweep(plan, tmp_path / "twice", games=3, seed=0)
    twice.play(CountingBackend())
    for a, b in zip(once.results(), twice.results(), strict=True):
        pd.testing.assert_frame_equal(a.frame, b.frame)


def test_more_games_and_more_values_reuse_what_is_stored(tmp_path: Path) -> None:
    folder = tmp_path / "sweep"
    Sweep(plan_of("board.lanes.outer=36,40"), folder, games=2, seed=0).play(Sequential())
    wider = Sweep(plan_of("board.lanes.outer=36,40,44"), folder, games=3, seed=0)
    assert wider.done == 4
    counting = CountingBackend()
    wider.play(counting)
    assert counting.played == [2, 2, 0, 1, 2]
    fewer = Sweep(plan_of("board.lanes.outer=40"), folder, games=2, seed=1)
    (only,) = fewer.results()
    assert list(only.frame["seed"]) == [1, 2]


def test_results_keep_only_the_columns_they_need(tmp_path: Path) -> None:
    sweep = Sweep(plan_of("board.lanes.outer=36"), tmp_path / "s", games=1, seed=0)
    sweep.play(Sequential())
    (result,) = sweep.results()
    assert list(result.frame.columns) == ["seed", "winner", "winner_team", "turns", "turn_cap"]


def test_a_folder_of_another_sweep_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "sweep"
    Sweep(plan_of("board.lanes.outer=36"), folder, games=1, seed=0).play(Sequential())
    with pytest.raises(OptionError, match="holds a sweep with bots"):
        Sweep(plan_of("board.lanes.outer=36", bots=("greedy",)), folder, games=1, seed=0)
    with pytest.raises(OptionError, match="holds a sweep with options"):
        Sweep(plan_of("board.lanes.outer=36", settings=()), folder, games=1, seed=0)
    tower = SweepPlan.of("tower", [], [], ["options.players=2"])
    with pytest.raises(OptionError, match="holds a sweep with game"):
        Sweep(tower, folder, games=1, seed=0)


def test_a_folder_that_is_no_sweep_is_refused(tmp_path: Path) -> None:
    plan = plan_of("board.lanes.outer=36")
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(DocumentError, match=r"holds no sweep\.json"):
        Sweep(plan, tmp_path / "busy", games=1, seed=0)
    (tmp_path / "file").write_text("x", encoding="utf-8")
    with pytest.raises(DocumentError, match="is a file, not a folder"):
        Sweep(plan, tmp_path / "file", games=1, seed=0)
    (tmp_path / "odd").mkdir()
    (tmp_path / "odd" / MANIFEST).write_text('{"format": "splash/bash/1"}', encoding="utf-8")
    with pytest.raises(DocumentError, match="unsupported document format"):
        Sweep(plan, tmp_path / "odd", games=1, seed=0)
    empty = tmp_path / "empty"
    empty.mkdir()
    assert Sweep(plan, empty, games=1, seed=0).done == 0


def test_games_and_seed_are_checked(tmp_path: Path) -> None:
    plan = plan_of("board.lanes.outer=36")
    with pytest.raises(OptionError, match="--games"):
        Sweep(plan, tmp_path / "s", games=0, seed=0)
    with pytest.raises(OptionError, match="--seed"):
        Sweep(plan, tmp_path / "s", games=1, seed=-1)
