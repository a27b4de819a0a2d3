"""Normalised observations: every entry of both games' encodings lies within the bounds of the
observation space ([0, 1] or [-1, 1]): raw values divided by scales from the configuration."""

from __future__ import annotations

import numpy as np
import pytest

from splash.core import RandomOutcomes
from splash.core.encoding import Encoding, Layout, Vector
from splash.core.outcomes import OutcomeProvider
from splash.core.protocol import State
from splash.envs.encoding import observation_space
from splash.games.bash import BashGame
from splash.games.bash.encoding import BashEncoding
from splash.games.bash.scenario import position
from splash.games.tower import TowerGame
from splash.games.tower.encoding import TowerEncoding
from tests.games.tower.playouts import reported_outcomes


def outside(layout: Layout, observation: Vector) -> list[str]:
    """The blocks with an entry outside their bounds."""
    return [
        block.name
        for block in layout.blocks
        if not np.all(
            (observation[block.slice] >= block.low) & (observation[block.slice] <= block.high)
        )
    ]


def play_random(
    encoding: Encoding, state: State, seats: int, outcomes: OutcomeProvider, seed: int
) -> Vector:
    """A random game to its end, every seat's observation checked against the space at every
    step; the largest magnitude each entry reached."""
    space = observation_space(encoding)
    rng = np.random.default_rng(seed)
    largest = encoding.layout.zeros()
    while True:
        for seat in range(seats):
            observation = encoding.observation(state, seat)
            assert space.contains(observation), outside(encoding.layout, observation)
            largest = np.maximum(largest, np.abs(observation))
        if state.is_terminal():
            return largest
        if state.is_chance():
            state.apply(outcomes.outcome(state))
            continue
        legal = np.flatnonzero(encoding.legal_mask(state))
        state.apply(encoding.action_of(state, int(rng.choice(legal))))


@pytest.mark.parametrize(
    "settings",
    [
        [],
        [("options.teams", 3), ("options.die_faces", 4), ("options.helmsman_laps", 2)],
        [("options.teams", 4), ("options.turn_cap", 29), ("board.lanes.outer", 12)],
    ],
)
def test_bash_observations_lie_in_the_space(settings: list[tuple[str, object]]) -> None:
    game = BashGame.from_settings(settings)
    encoding = BashEncoding(game)
    low, high = encoding.layout.bounds()
    assert set(np.unique(low)) <= {-1.0, 0.0} and set(np.unique(high)) == {1.0}
    for seed in range(2):
        largest = play_random(
            encoding, game.new_initial_state(), game.num_seats, RandomOutcomes(seed), seed
        )
        assert largest.max() == 1.0


def test_a_game_at_the_turn_cap_reaches_the_turn_scale() -> None:
    # 4 teams, cap 29: the round ends at 32 team turns = cap + teams - 1, the scale.
    game = BashGame.from_settings([("options.teams", 4), ("options.turn_cap", 29)])
    encoding = BashEncoding(game)
    largest = play_random(encoding, game.new_initial_state(), 4, RandomOutcomes(7), 7)
    assert encoding.layout["turn"].scales == (32.0,)
    assert largest[encoding.layout["turn"].start] == 1.0


def test_bash_entries_equal_their_scaled_values() -> None:
    game = BashGame.from_settings([("options.teams", 3)])
    encoding = BashEncoding(game)
    shoves = game.settings.decks["high_tide"].cards["shove"].count
    state = position(game, pieces="A1:o50", discards={"high_tide": {"shove": 1}}, turns=10)
    obs = encoding.observation(state, 0)
    # 10 turns over turn cap 1000 + 3 teams - 1
    assert obs[encoding.layout["turn"].start] == pytest.approx(10 / 1002)
    # outer (40 a lap) s = 50 over the longest race (2 laps of 40): lap 1 of 2, square 10/40
    start = encoding.layout["pieces"].start
    assert obs[start + 5 : start + 8].tolist() == pytest.approx([50 / 80, 1 / 2, 10 / 40])
    discards = encoding.layout["discards"]
    offset = len(encoding.decks["low_tide"]) + encoding.hand_cards.index("shove")
    assert obs[discards.start + offset] == pytest.approx(1 / shoves)


def test_the_roll_without_a_proven_bound_is_clipped() -> None:
    game = BashGame()
    encoding = BashEncoding(game)
    view = game.new_initial_state().view(0)
    view["roll"] = 10_000
    obs = encoding.encode_view(view)
    assert obs[encoding.layout["roll"].start] == 1.0
    view["roll"] = 9
    obs = encoding.encode_view(view)
    assert obs[encoding.layout["roll"].start] == pytest.approx(9 / encoding.max_roll)


@pytest.mark.parametrize("players", [2, 4])
def test_tower_observations_lie_in_the_space(players: int) -> None:
    game = TowerGame.from_settings([("options.players", players)])
    encoding = TowerEncoding(game)
    for seed in range(3):
        largest = play_random(
            encoding, game.new_initial_state(), players, reported_outcomes(seed), seed
        )
        assert largest.max() == 1.0
        # the heights of the tops, over 1000 mm: scaled, not clipped
        slots = largest[encoding.layout["slots"].slice].reshape(len(encoding.pieces), -1)
        assert 0 < slots[:, 9].max() < 1


def test_tower_entries_equal_their_scaled_values() -> None:
    game = TowerGame.from_settings([("options.players", 2), ("options.turn_cap", 40)])
    encoding = TowerEncoding(game)
    state = game.new_initial_state()
    view = state.view(0)
    view["drops"] = [3, 0]
    view["placements"] = 10
    obs = encoding.encode_view(view)
    assert obs[encoding.layout["drops"].slice].tolist() == pytest.approx(
        [3 / game.options.drop_supply, 0]
    )
    assert obs[encoding.layout["placements"].start] == pytest.approx(10 / 40)
