"""``--engine auto`` plays the greedy bot on the compiled core: which greedy settings it
takes, the plan carrying each team's policy, greedy games replayed by the reference engine,
and rows that mean what the reference engine's rows mean."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from scipy.stats import ttest_ind

from splash.core.errors import OptionError
from splash.fast import kernel as k
from splash.fast.greedy import GreedySettings, weight_array
from splash.sim.engines import EngineChoice, choose_engine
from splash.sim.fast_engine import (
    FAST_GREEDY_DEPTH,
    FastBots,
    fast_bots,
    fast_refusal,
    fast_table,
    fast_tables,
    record_plan,
    verify_records,
)
from splash.sim.runner import FAST, REFERENCE, GameSpec, Record, run_one
from splash.sim.stats import holm, two_proportion_test


@pytest.mark.parametrize(
    "bots",
    [
        ["greedy"],
        ["random", "greedy"],
        ["greedy:depth=1,samples=2"],
        ["greedy:rival=1.5,hold_card=0.2", "greedy:hold_card=0.2,rival=1.5"],
        ["greedy:rival=1.0", "greedy"],
    ],
)
def test_auto_takes_the_core_for_greedy_settings_it_supports(bots: list[str]) -> None:
    spec, note = choose_engine(GameSpec.of("bash", [], bots), EngineChoice.AUTO)
    assert (spec.engine, note) == (FAST, None)


@pytest.mark.parametrize(
    ("bots", "named"),
    [
        (["greedy:depth=4"], "greedy:depth=4"),
        (["greedy", "greedy:rival=2"], "greedy:rival=2"),
        (["random", "expectimax"], "expectimax"),
        (["ismcts:iterations=5"], "ismcts:iterations=5"),
    ],
)
def test_auto_falls_back_to_the_reference_saying_which_bot(bots: list[str], named: str) -> None:
    spec, note = choose_engine(GameSpec.of("bash", [], bots), EngineChoice.AUTO)
    assert spec.engine == REFERENCE
    assert note is not None and named in str(note)


def test_fast_with_a_bot_the_core_cannot_play_is_an_error_naming_it() -> None:
    with pytest.raises(OptionError) as error:
        choose_engine(GameSpec.of("bash", [], ["greedy:depth=5"]), EngineChoice.FAST)
    assert (error.value.key, error.value.value) == ("--engine", "fast")
    text = str(error.value)
    assert "greedy:depth=5" in text and f"at most {FAST_GREEDY_DEPTH}" in text


def test_the_bots_become_a_policy_per_team_and_one_setting() -> None:
    bots = fast_bots(["greedy:depth=2,rival=2", "random", "greedy:rival=2,depth=2"])
    assert bots == FastBots(
        (k.POLICY_GREEDY, k.POLICY_RANDOM, k.POLICY_GREEDY),
        GreedySettings(depth=2, samples=1, weights={"rival": 2.0}),
    )
    assert fast_bots(["random", "random"]) == FastBots((k.POLICY_RANDOM,) * 2, None)


def test_the_plan_carries_the_policies_and_the_weights() -> None:
    spec = GameSpec.of("bash", ["options.teams=3"], ["random", "greedy:depth=2,slip=0.5"])
    plan = record_plan(spec)
    assert plan.policies is not None and plan.weights is not None
    assert plan.policies.tolist() == [k.POLICY_RANDOM, k.POLICY_GREEDY, k.POLICY_GREEDY]
    expected = weight_array(fast_tables(spec), GreedySettings(depth=2, weights={"slip": 0.5}))
    assert np.array_equal(plan.weights, expected)
    assert plan.weights[k.GW_SLIP] == 0.5 and plan.weights[k.GW_DEPTH] == 2
    random_plan = record_plan(GameSpec.of("bash"))
    assert random_plan.weights is None
    assert random_plan.policies is not None and random_plan.policies.tolist() == [0, 0]


@pytest.mark.parametrize("greedy_seat", [0, 1])
def test_the_greedy_team_beats_the_random_one_from_either_seat(greedy_seat: int) -> None:
    bots = ["random", "random"]
    bots[greedy_seat] = "greedy"
    spec = replace(GameSpec.of("bash", [], bots), engine=FAST)
    rows = fast_table(spec, range(40)).to_pylist()
    winners = [row["winner"] for row in rows]
    # Random against random, each seat wins about half the games; greedy wins nearly all.
    assert sum(w == greedy_seat for w in winners) >= 36
    assert {row["bots"] for row in rows} == {spec.bots_json}
    assert {row["engine"] for row in rows} == {FAST}


@pytest.mark.slow
@pytest.mark.rule("B15", "BD12")
@pytest.mark.parametrize(
    ("settings", "bots", "games"),
    [
        ([], ["greedy"], 12),
        (["options.teams=3", "options.turn_cap=120"], ["greedy", "random", "greedy"], 10),
        (["options.teams=4", "options.obstacles=permanent"], ["greedy:depth=1,samples=2"], 6),
    ],
    ids=["two greedy", "three teams mixed", "four teams depth 1 two samples"],
)
def test_greedy_games_replay_identically_in_the_reference(
    settings: list[str], bots: list[str], games: int
) -> None:
    spec = GameSpec.of("bash", settings, bots)
    assert fast_refusal(spec) is None
    checked, differences = verify_records(spec, range(500, 500 + games))
    assert checked == games
    assert differences == []


REFERENCE_GAMES = 40
FAST_GAMES = 1000
COMPARED = ("turns", "actions", "decisions", "moves", "pool_falls", "bumps_made", "played")
"""Record columns compared (per game; ``pool_falls``, ``bumps_made``: both teams summed;
``played``: every card played by both teams)."""


def _number(value: object) -> float:
    assert value is None or isinstance(value, int | float)
    return float(value or 0)


def _measure(row: Record, name: str) -> float:
    if name in ("pool_falls", "bumps_made"):
        return sum(_number(row[f"{name}_t{t}"]) for t in range(2))
    if name == "played":
        return sum(_number(v) for c, v in row.items() if c.startswith("played_"))
    return _number(row[name])


def _p_values(reference: list[Record], fast: list[Record]) -> dict[str, float]:
    """Welch's t-test per compared column, and the two-proportion test of the first team's
    wins, Holm-corrected."""
    raw = [
        float(
            ttest_ind(
                [_measure(r, n) for r in reference], [_measure(r, n) for r in fast], equal_var=False
            ).pvalue
        )
        for n in COMPARED
    ]
    first = [sum(r["winner"] == 0 for r in rows) for rows in (reference, fast)]
    raw.append(two_proportion_test(first[0], len(reference), first[1], len(fast)))
    return dict(zip([*COMPARED, "first_team_wins"], holm(raw), strict=True))


@pytest.mark.slow
def test_compiled_greedy_rows_match_the_reference_rows_statistically() -> None:
    spec = GameSpec.of("bash", [], ["greedy"])
    reference = [run_one(spec, seed) for seed in range(REFERENCE_GAMES)]
    fast = fast_table(replace(spec, engine=FAST), range(FAST_GAMES)).to_pylist()
    assert set(fast[0]) == set(reference[0])
    assert {type(v) for v in fast[0].values()} <= {type(v) for v in reference[0].values()}
    assert min(_p_values(reference, fast).values()) > 0.01
    # The test can fail: random-against-random rows (games about 40 % longer) are told apart.
    random_rows = fast_table(replace(GameSpec.of("bash"), engine=FAST), range(FAST_GAMES))
    assert min(_p_values(reference, random_rows.to_pylist()).values()) < 1e-6
