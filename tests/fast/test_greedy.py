"""The compiled greedy bot: the reference greedy's heuristic, from what its team may see."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from splash.bots.bash_greedy import GreedyBashBot
from splash.core.actions import Action
from splash.core.protocol import State
from splash.fast.batch import Games, play_games
from splash.fast.convert import to_arrays
from splash.fast.greedy import greedy_scores, policies, weight_array
from splash.fast.tables import Tables, build_tables
from splash.fast.verify import replay
from splash.games.bash import BashGame, BashState
from splash.games.bash.hidden import ResampleError, resample

GAMES = 12
EVERY = 9
"""One decision in ``EVERY`` of the greedy games is a test position."""


@dataclass(frozen=True)
class Position:
    """A decision of a greedy game: the reference state, its array and its seat."""

    state: BashState
    G: np.ndarray
    seat: int
    legal: list[Action]


@pytest.fixture(scope="module")
def tables() -> Tables:
    return build_tables(BashGame.from_settings([("options.teams", 3)]))


@pytest.fixture(scope="module")
def games(tables: Tables) -> Games:
    W = weight_array(tables)
    return play_games(tables, range(GAMES), verify=True, policies=policies(3, [0, 1, 2]), weights=W)


@pytest.fixture(scope="module")
def positions(tables: Tables, games: Games) -> list[Position]:
    found: list[Position] = []
    counter = [0]

    def keep(state: State, _: Action) -> None:
        assert isinstance(state, BashState)
        seat = state.to_act()
        if seat < 0 or state.over:
            return
        legal = state.legal_actions()
        if len(legal) < 2:
            return
        counter[0] += 1
        if counter[0] % EVERY == 0:
            found.append(Position(_clone(state), to_arrays(tables, state), seat, legal))

    for g in range(GAMES):
        _, differences = replay(tables, games, g, keep)
        assert differences == []
    return found


def _clone(state: BashState) -> BashState:
    from splash.bots.bash_clone import quick_clone

    clone = quick_clone(state)
    assert isinstance(clone, BashState)
    return clone


def test_greedy_games_replay_on_the_reference_with_no_difference(games: Games) -> None:
    """The fixture replays every greedy game; here: they were played, and end."""
    assert games.counts.shape[0] == GAMES
    winners = games.counts[:, -2]
    assert ((winners >= 0) & (winners < 3)).all()


def test_greedy_beats_random(tables: Tables) -> None:
    W = weight_array(tables)
    result = play_games(tables, range(60), policies=policies(3, [1]), weights=W)
    assert (result.counts[:, -2] == 1).mean() > 0.8


def test_scores_equal_the_reference_greedys(positions: list[Position], tables: Tables) -> None:
    assert len(positions) > 100
    bot = GreedyBashBot(0)
    for pos in positions:
        choice, scores = greedy_scores(tables, pos.G, 3, redeal=False)
        reference = np.asarray(bot.scores(pos.state, pos.legal, pos.seat))
        np.testing.assert_allclose(scores[: len(pos.legal)], reference, rtol=0, atol=1e-7)
        best = reference.max()
        assert choice in [
            a.id for a, v in zip(pos.legal, reference, strict=True) if v >= best - 1e-9
        ]


@pytest.mark.rule("BD12")
def test_choice_ignores_where_the_unseen_cards_are(
    positions: list[Position], tables: Tables
) -> None:
    """Redealing the other hands and the deck consistently with the seat's view changes
    neither the choice nor the scores; scoring the true hands would (the test can fail)."""
    tried = 0
    revealing = 0
    for i, pos in enumerate(positions):
        choice, scores = greedy_scores(tables, pos.G, 11 + i)
        _, open_scores = greedy_scores(tables, pos.G, 11 + i, redeal=False)
        for r in range(3):
            try:
                world = resample(pos.state, pos.seat, np.random.default_rng(100 * i + r))
            except ResampleError:
                continue
            G = to_arrays(tables, world)
            tried += 1
            other, other_scores = greedy_scores(tables, G, 11 + i)
            assert other == choice
            np.testing.assert_array_equal(other_scores, scores)
            _, seen = greedy_scores(tables, G, 11 + i, redeal=False)
            revealing += int(not np.array_equal(seen, open_scores))
    assert tried > 200
    assert revealing > 0
