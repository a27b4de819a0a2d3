"""Win rates, the first seat's advantage and the card effects on synthetic result tables."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from splash.report.bash_sections import card_effects
from splash.report.html import Page
from splash.report.outcomes import advantage, outcome_section, win_rates
from splash.report.results import Results, Run
from splash.sim.stats import difference_interval


def coin_games(seed: int, games: int, first_wins: float, seats: int = 2) -> list[int | None]:
    """Winners of ``games``: seat 0 with probability ``first_wins``, the others alike."""
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    others = (1.0 - first_wins) / (seats - 1)
    drawn = rng.choice(seats, size=games, p=[first_wins] + [others] * (seats - 1))
    return [int(w) for w in drawn]


def synthetic(winners: list[int | None], seats: int) -> Results:
    frame = pd.DataFrame(
        {
            "seed": range(len(winners)),
            "options": ["{}"] * len(winners),
            "winner": pd.array(winners, dtype="Int64"),
            "winner_team": pd.array(winners, dtype="Int64"),
            "turns": [100] * len(winners),
            "turn_cap": [w is None for w in winners],
        }
    )
    run = Run(Path("synthetic.parquet"), "bash", "{}", ("random",) * seats, len(winners))
    return Results("bash", seats, (run,), frame)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_biased_coin_shows_a_significant_first_seat_advantage(seed: int) -> None:
    winners = coin_games(seed, 2000, 0.56)
    rates = win_rates(winners, 2)
    result = advantage(rates[0].count, rates[0].total, 0.5)
    assert result.significant
    assert result.rate.interval[0] > 0.5


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_fair_coin_shows_none(seed: int) -> None:
    winners = coin_games(seed, 2000, 0.5)
    rates = win_rates(winners, 2)
    result = advantage(rates[0].count, rates[0].total, 0.5)
    assert not result.significant
    low, high = result.rate.interval
    assert low < 0.5 < high


def test_a_first_of_four_seats_winning_a_third_of_the_games_is_flagged() -> None:
    winners = coin_games(7, 1500, 1 / 3, seats=4)
    assert advantage(sum(w == 0 for w in winners), 1500, 0.25).significant
    fair = coin_games(7, 1500, 0.25, seats=4)
    assert not advantage(sum(w == 0 for w in fair), 1500, 0.25).significant


def test_win_rates_count_games_without_a_winner_as_losses_for_everyone() -> None:
    rates = win_rates([0, 1, None, 0], 2)
    assert [(r.count, r.total) for r in rates] == [(2, 4), (1, 4)]


def test_the_page_flags_a_biased_first_seat() -> None:
    page = Page("test")
    outcome_section(page, synthetic(coin_games(3, 2000, 0.58), 2))
    html = page.render()
    assert 'class="significant"' in html
    fair = Page("test")
    outcome_section(fair, synthetic(coin_games(3, 2000, 0.5), 2))
    assert 'class="significant"' not in fair.render()


def test_the_difference_interval_of_two_proportions() -> None:
    d, low, high = difference_interval(60, 100, 40, 100)
    assert d == pytest.approx(0.2)
    assert 0.05 < low < 0.2 < high < 0.35
    d, low, high = difference_interval(50, 100, 50, 100)
    assert low < 0 < high
    assert np.isnan(difference_interval(1, 2, 0, 0)[0])


def _card_frame(seed: int, games: int) -> pd.DataFrame:
    """Two teams; ``lucky`` is drawn by some teams and wins them games, ``plain`` does not."""
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    lucky = rng.random((games, 2)) < 0.3
    plain = rng.random((games, 2)) < 0.5
    strength = 1.0 + 1.5 * lucky
    p_first = strength[:, 0] / strength.sum(axis=1)
    winner = np.where(rng.random(games) < p_first, 0, 1)
    columns: dict[str, object] = {"winner_team": pd.array(winner, dtype="Int64")}
    for team in (0, 1):
        columns[f"drawn_deck_lucky_t{team}"] = lucky[:, team].astype(int)
        columns[f"drawn_deck_plain_t{team}"] = plain[:, team].astype(int)
    return pd.DataFrame(columns)


def test_a_card_that_wins_games_is_flagged_and_a_neutral_one_is_not() -> None:
    effects = {
        e.card: e for e in card_effects(_card_frame(5, 1500), {"deck": ["lucky", "plain"]}, 2)
    }
    assert effects["lucky"].split == "drew"
    assert effects["lucky"].significant and effects["lucky"].difference > 0.1
    assert not effects["plain"].significant
    assert effects["plain"].drew + effects["plain"].not_drew == 3000


def test_a_card_every_team_draws_is_compared_by_its_share_of_the_deck() -> None:
    frame = pd.DataFrame(
        {
            "winner_team": pd.array([0, 0, 1, 1], dtype="Int64"),
            "drawn_deck_a_t0": [3, 3, 1, 1],
            "drawn_deck_a_t1": [1, 1, 3, 3],
            "drawn_deck_b_t0": [1, 1, 3, 3],
            "drawn_deck_b_t1": [3, 3, 1, 1],
        }
    )
    effects = {e.card: e for e in card_effects(frame, {"deck": ["a", "b"]}, 2)}
    assert effects["a"].split == "more"
    # The team with the larger share of card a won every game.
    assert (effects["a"].wins_drew, effects["a"].drew) == (4, 4)
    assert (effects["a"].wins_not, effects["a"].not_drew) == (0, 4)
    assert effects["a"].difference == 1.0
    assert effects["b"].difference == -1.0
