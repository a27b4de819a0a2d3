"""The statistics of a sweep on synthetic games with known answers, and its HTML page."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from splash.report.sweep import sweep_page, write_page
from splash.report.sweep_stats import Arm, Effect, balance_gap, effects, partial_wins
from splash.sim.stats import holm

PAIRS = 400


def arm(
    values: tuple[str, ...],
    winners: np.ndarray,
    turns: np.ndarray,
    *,
    keys: tuple[str, ...] = ("k",),
    teams: int = 2,
    seeds: np.ndarray | None = None,
) -> Arm:
    count = len(winners)
    return Arm(
        tuple(zip(keys, values, strict=True)),
        teams,
        np.arange(count, dtype=np.int64) if seeds is None else seeds,
        np.asarray(winners, dtype=np.int64),
        np.asarray(turns, dtype=np.float64),
        np.zeros(count, dtype=bool),
    )


def only(found: list[Effect], value: str) -> Effect:
    (effect,) = [e for e in found if e.value == value]
    return effect


def test_partial_wins_follow_ludii_ranks() -> None:
    two = partial_wins(np.array([0, 1, -1]), 2)
    assert two.tolist() == [[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]]
    # Three teams: the two losers share ranks 2 and 3, utility -1/2, partial win 1/4.
    three = partial_wins(np.array([2, -1]), 3)
    assert three.tolist() == [[0.25, 0.25, 1.0], [0.5, 0.5, 0.5]]
    assert np.allclose(partial_wins(np.array([0, 1, 2, 3, -1]), 4).sum(axis=1), 2.0)


def test_balance_gap_is_the_largest_gap_between_mean_partial_wins() -> None:
    assert balance_gap(np.array([0, 0, 0, 1]), 2) == pytest.approx(0.5)
    assert balance_gap(np.array([0, 1, 2, -1]), 3) == pytest.approx(0.0)
    # r = (0.6875, 0.5, 0.3125) by hand from the partial wins.
    assert balance_gap(np.array([0, 0, 1, -1]), 3) == pytest.approx(0.375)
    batch = np.array([[0, 0, 0, 1], [0, 1, 0, 1]])
    assert balance_gap(batch, 2, axis=-1).tolist() == [0.5, 0.0]
    assert balance_gap(batch.T, 2, axis=0).tolist() == [0.5, 0.0]


def test_holm_adjusts_step_down_and_skips_missing_p_values() -> None:
    adjusted = holm([0.01, 0.04, 0.03, math.nan])
    assert adjusted[:3] == pytest.approx([0.03, 0.06, 0.06])
    assert math.isnan(adjusted[3])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])
    assert holm([]) == []


def coupled(p: float, u: np.ndarray) -> np.ndarray:
    """Team A (0) wins the seeds whose uniform draw is below ``p``: the same draws for every
    combination, as the same seed gives the same dice."""
    return np.where(u < p, 0, 1)


def test_a_real_shift_of_the_first_team_is_significant_and_no_shift_is_not() -> None:
    rng = np.random.default_rng(20261130)
    u = rng.random(PAIRS)
    turns = rng.normal(200.0, 30.0, PAIRS)
    arms = [
        arm(("base",), coupled(0.5, u), turns),
        arm(("shift",), coupled(0.7, u), turns + rng.normal(0.0, 5.0, PAIRS)),
        arm(("same",), coupled(0.5, rng.random(PAIRS)), turns + rng.normal(0.0, 5.0, PAIRS)),
    ]
    found = effects(arms, seed=1)
    shift, same = only(found, "shift"), only(found, "same")
    assert shift.pairs == same.pairs == PAIRS
    assert shift.first_wins.baseline == pytest.approx(0.5, abs=0.05)
    assert shift.first_wins.variant == pytest.approx(0.7, abs=0.05)
    assert shift.discordant[1] == 0
    assert shift.first_wins.significant
    assert shift.first_wins.low > 0.1
    assert shift.gap.significant
    assert not same.first_wins.significant
    assert not same.gap.significant
    assert same.first_wins.adjusted >= same.first_wins.p_value
    # The turns were not changed by either.
    assert not shift.turns.significant
    assert not same.turns.significant


def test_a_real_change_of_the_game_length_is_significant() -> None:
    rng = np.random.default_rng(7)
    u = rng.random(PAIRS)
    turns = rng.normal(200.0, 30.0, PAIRS)
    arms = [
        arm(("base",), coupled(0.5, u), turns),
        arm(("longer",), coupled(0.5, u), turns + rng.normal(10.0, 5.0, PAIRS)),
    ]
    (longer,) = effects(arms)
    assert longer.turns.significant
    assert longer.turns.difference == pytest.approx(10.0, abs=1.0)
    assert longer.turns.low < 10.0 < longer.turns.high
    assert not longer.first_wins.significant
    assert longer.first_wins.p_value == 1.0


def test_pairing_by_seed_finds_what_unpaired_tests_miss() -> None:
    """A small, consistent shift under a large spread between seeds: only a paired test can
    see it (Mann-Whitney on the same turns and the two-proportion z test find nothing)."""
    from scipy import stats

    rng = np.random.default_rng(3)
    u = rng.random(PAIRS)
    turns = rng.normal(200.0, 30.0, PAIRS)
    longer = turns + rng.normal(2.0, 1.0, PAIRS)
    arms = [arm(("base",), coupled(0.5, u), turns), arm(("nudge",), coupled(0.56, u), longer)]
    (nudge,) = effects(arms)
    assert nudge.turns.significant
    assert nudge.first_wins.significant
    assert stats.mannwhitneyu(turns, longer).pvalue > 0.05
    wins = (np.count_nonzero(u < 0.5), np.count_nonzero(u < 0.56))
    table = [[wins[0], PAIRS - wins[0]], [wins[1], PAIRS - wins[1]]]
    assert stats.chi2_contingency(table).pvalue > 0.05


def test_games_are_paired_by_seed_not_by_row() -> None:
    rng = np.random.default_rng(5)
    seeds = np.arange(100, 160, dtype=np.int64)
    turns = rng.normal(200.0, 30.0, 60)
    winners = rng.integers(0, 2, 60)
    frame = pd.DataFrame(
        {
            "seed": seeds,
            "winner_team": pd.array(winners, dtype="Int64"),
            "turns": turns + 3.0,
            "turn_cap": False,
            "a_new_column": 1,
        }
    )
    base = arm(("base",), winners, turns, seeds=seeds)
    shuffled = frame.sample(frac=1.0, random_state=1)
    variant = Arm.of_frame((("k", "later"),), 2, shuffled)
    assert variant.seeds.tolist() == seeds.tolist()
    (effect,) = effects([base, variant])
    assert effect.turns.difference == pytest.approx(3.0)
    assert effect.turns.low == pytest.approx(3.0)
    assert effect.discordant == (0, 0)
    # A combination missing some seeds is compared on the seeds both played.
    partial = Arm.of_frame((("k", "part"),), 2, frame.iloc[10:40])
    (effect,) = effects([base, partial])
    assert effect.pairs == 30


def test_games_without_a_winner_count_as_a_tie() -> None:
    frame = pd.DataFrame(
        {
            "seed": [0, 1, 2, 3],
            "winner_team": pd.array([0, None, 1, None], dtype="Int64"),
            "turns": [10, 1000, 12, 1000],
            "turn_cap": pd.array([False, True, False, True], dtype="boolean"),
        }
    )
    capped = Arm.of_frame((("k", "v"),), 2, frame)
    assert capped.winners.tolist() == [0, -1, 1, -1]
    assert capped.capped == 2
    assert capped.advantage == pytest.approx(0.5)
    assert capped.balance == pytest.approx(1.0)
    assert capped.win_rate(0) == pytest.approx(0.25)


def test_changes_hold_every_other_key_at_each_of_its_values() -> None:
    keys = ("outer", "undertow")
    zeros = np.zeros(4, dtype=np.int64)
    arms = [
        arm((o, w), zeros, np.full(4, 10.0), keys=keys)
        for o in ("36", "40", "44")
        for w in ("0", "3")
    ]
    found = effects(arms)
    assert [(e.key, e.first, e.value, e.held) for e in found] == [
        ("outer", "36", "40", (("undertow", "0"),)),
        ("outer", "36", "40", (("undertow", "3"),)),
        ("outer", "36", "44", (("undertow", "0"),)),
        ("outer", "36", "44", (("undertow", "3"),)),
        ("undertow", "0", "3", (("outer", "36"),)),
        ("undertow", "0", "3", (("outer", "40"),)),
        ("undertow", "0", "3", (("outer", "44"),)),
    ]
    assert [(e.baseline, e.variant) for e in found] == [
        (0, 2),
        (1, 3),
        (0, 4),
        (1, 5),
        (0, 1),
        (2, 3),
        (4, 5),
    ]
    assert found[0].label == "outer 36 \u2192 40 (undertow=0)"


def test_holm_runs_over_the_changes() -> None:
    rng = np.random.default_rng(11)
    u = rng.random(PAIRS)
    turns = rng.normal(200.0, 30.0, PAIRS)
    arms = [arm((str(v),), coupled(0.5, u), turns + v) for v in range(4)]
    found = effects(arms)
    raw = [e.turns.p_value for e in found]
    assert [e.turns.adjusted for e in found] == pytest.approx(holm(raw))
    assert found[0].turns.adjusted >= found[0].turns.p_value


def test_the_balance_gap_is_not_tested_across_team_counts() -> None:
    rng = np.random.default_rng(2)
    u = rng.random(50)
    arms = [
        arm(("2",), coupled(0.5, u), np.full(50, 10.0), teams=2),
        arm(("3",), np.where(u < 0.3, 0, np.where(u < 0.6, 1, 2)), np.full(50, 10.0), teams=3),
    ]
    (effect,) = effects(arms)
    assert math.isnan(effect.gap.p_value)
    assert math.isnan(effect.gap.adjusted)
    assert not effect.gap.significant
    assert effect.turns.p_value == 1.0


def test_the_permutation_test_is_seeded() -> None:
    rng = np.random.default_rng(4)
    arms = [arm((str(v),), rng.integers(0, 2, 60), np.full(60, 5.0)) for v in range(2)]
    first = effects(arms, seed=9)[0].gap.p_value
    assert effects(arms, seed=9)[0].gap.p_value == first


def test_the_page_has_its_sections_tables_and_images(tmp_path: Path) -> None:
    rng = np.random.default_rng(8)
    u = rng.random(80)
    keys = ("outer", "undertow")
    arms = [
        arm((o, w), coupled(p, u), rng.normal(200, 20, 80), keys=keys)
        for o, p in (("36", 0.5), ("44", 0.8))
        for w in ("0", "<3>")
    ]
    found = effects(arms)
    page = sweep_page(arms, found, title="Sweep of Splash & Bash", facts=["80 games each"])
    path = tmp_path / "sweep.html"
    write_page(path, page)
    text = path.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>")
    for heading in ("Combinations", "Effects of the changes", "Definitions"):
        assert f"<h2>{heading}</h2>" in text
    assert len(re.findall(r'<img src="data:image/png;base64,[A-Za-z0-9+/=]{100,}"', text)) == 3
    assert "Sweep of Splash &amp; Bash" in text
    assert "undertow=&lt;3&gt;" in text
    assert "<3>" not in text
    assert 'class="significant"' in text
    assert "Holm" in text
    assert text.count("<tr") == 1 + len(arms) + 1 + len(found)


def test_combinations_without_a_common_seed_are_not_tested() -> None:
    winners = np.array([0, 1, 0], dtype=np.int64)
    arms = [
        arm(("a",), winners, np.full(3, 9.0), seeds=np.array([0, 1, 2], dtype=np.int64)),
        arm(("b",), winners, np.full(3, 9.0), seeds=np.array([3, 4, 5], dtype=np.int64)),
    ]
    (effect,) = effects(arms)
    assert effect.pairs == 0
    for test in (effect.first_wins, effect.gap, effect.turns):
        assert math.isnan(test.p_value)
        assert not test.significant


def test_the_balance_gap_test_is_the_exact_paired_permutation_test() -> None:
    """Ten pairs, three teams: every one of the 2^10 swaps enumerated by hand."""
    import itertools

    x = np.array([0, 0, 0, 1, 2, 0, -1, 0, 1, 0], dtype=np.int64)
    y = np.array([0, 1, 2, 1, 2, 0, 0, 0, 0, 0], dtype=np.int64)
    turns = np.full(10, 5.0)
    (effect,) = effects([arm(("a",), x, turns, teams=3), arm(("b",), y, turns, teams=3)])
    observed = float(balance_gap(y, 3) - balance_gap(x, 3))
    null = []
    for swaps in itertools.product([False, True], repeat=10):
        mask = np.array(swaps)
        u, v = np.where(mask, y, x), np.where(mask, x, y)
        null.append(float(balance_gap(v, 3) - balance_gap(u, 3)))
    values = np.array(null)
    greater = np.mean(values >= observed - 1e-12)
    less = np.mean(values <= observed + 1e-12)
    assert effect.gap.difference == pytest.approx(observed)
    assert effect.gap.p_value == pytest.approx(min(1.0, 2 * min(greater, less)))


def test_each_change_has_the_smallest_effect_its_test_could_find() -> None:
    from splash.report.power import WILCOXON_EFFICIENCY, mcnemar_detectable, paired_detectable

    rng = np.random.default_rng(11)
    u = rng.random(PAIRS)
    turns = rng.normal(200.0, 30.0, PAIRS)
    arms = [
        arm(("base",), coupled(0.5, u), turns),
        arm(("a",), coupled(0.6, u), turns + rng.normal(0.0, 8.0, PAIRS)),
        arm(("b",), coupled(0.5, rng.random(PAIRS)), turns + rng.normal(0.0, 20.0, PAIRS)),
    ]
    a, b = effects(arms)
    for effect in (a, b):
        # Two changes: the power is planned at 0.05/2, where Holm starts.
        share = sum(effect.discordant) / PAIRS
        assert effect.first_wins.spread == pytest.approx(share)
        assert effect.first_wins.detectable == pytest.approx(
            mcnemar_detectable(PAIRS, share, alpha=0.025)
        )
        differences = arms[effect.variant].turns - turns
        assert effect.turns.detectable == pytest.approx(
            paired_detectable(
                PAIRS, float(differences.std(ddof=1)), alpha=0.025, efficiency=WILCOXON_EFFICIENCY
            )
        )
        assert effect.gap.detectable > 0
    # Fewer discordant pairs (the same draws) make a smaller change detectable.
    assert a.first_wins.detectable < b.first_wins.detectable
    assert a.turns.detectable < b.turns.detectable


def test_an_imbalance_in_every_combination_is_flagged() -> None:
    from splash.report.sweep import persistence_text
    from splash.report.sweep_stats import fair_share_tests, persistent_imbalances

    rng = np.random.default_rng(12)
    turns = rng.normal(200.0, 30.0, PAIRS)
    biased = [arm((v,), coupled(p, rng.random(PAIRS)), turns) for v, p in (("x", 0.65), ("y", 0.7))]
    (found,) = persistent_imbalances(fair_share_tests(biased))
    assert found.team == 0 and found.above and found.largest_p < 0.05
    assert found.lowest == pytest.approx(min(a.win_rate(0) for a in biased))
    assert "team A wins more than its fair share in every combination" in persistence_text(biased)
    # Team B wins less in both: the same imbalance seen from the other side, not named twice.
    mixed = [*biased, arm(("z",), coupled(0.5, rng.random(PAIRS)), turns)]
    assert persistent_imbalances(fair_share_tests(mixed)) == []
    assert persistence_text(mixed).startswith("No team's win rate differs")
