"""The TD(λ) learner: its gradients, its determinism, and that a few seconds of self-play
teach its network something about who wins."""

from __future__ import annotations

import numpy as np
import pytest

from splash.core.errors import OptionError
from splash.fast.tables import Tables, build_tables
from splash.games.bash import BashGame
from splash.learn.td import TDSettings, ValueNet, log_loss, random_positions, train

RANDOM_PLAY = TDSettings(hidden=16, alpha=0.01, lam=0.7, epsilon=1.0, games_at_once=8)
"""Self-play with random choices: the network learns the values of random play, which the
held-out random games measure."""


@pytest.fixture(scope="module")
def tables() -> Tables:
    return build_tables(BashGame())


def test_the_gradients_are_the_values_slopes() -> None:
    rng = np.random.default_rng(0)
    net = ValueNet(7, 5, rng)
    net.b1[:] = rng.normal(size=5)
    net.b2[:] = 0.3
    rows = rng.normal(size=(3, 7))
    found = net.gradients(rows)
    for i in range(net.params.size):
        kept = net.params[i]
        net.params[i] = kept + 1e-6
        up = net.values(rows)
        net.params[i] = kept - 1e-6
        down = net.values(rows)
        net.params[i] = kept
        assert np.allclose(found[:, i], (up - down) / 2e-6, atol=1e-8)


def test_the_same_seed_learns_the_same_network(tables: Tables) -> None:
    settings = TDSettings(hidden=8, games_at_once=3)
    first = train(tables, 4, 7, settings)
    again = train(tables, 4, 7, settings)
    other = train(tables, 4, 8, settings)
    assert first.games == again.games == 4 and first.decisions == again.decisions > 100
    assert np.array_equal(first.net.params, again.net.params)
    assert not np.array_equal(first.net.params, other.net.params)


def test_self_play_teaches_who_wins(tables: Tables) -> None:
    held_out = random_positions(tables, 6, 99)
    result = train(tables, 60, 1, RANDOM_PLAY)
    # ln 2: the log loss of a value of one half everywhere, knowing nothing
    assert log_loss(result.net, held_out) < np.log(2.0) - 0.02
    values = result.net.values(held_out.features)
    assert np.corrcoef(values, held_out.outcomes)[0, 1] > 0.25


def test_no_games_is_refused(tables: Tables) -> None:
    with pytest.raises(OptionError, match="positive whole number"):
        train(tables, 0, 1)
