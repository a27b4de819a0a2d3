"""The Splash & Bash encoding: hand-checked observations, hidden hands, masks and indices."""

from __future__ import annotations

import numpy as np
import pytest

from splash.core import RandomOutcomes
from splash.core.errors import IllegalActionError, MalformedActionError
from splash.core.protocol import CHANCE
from splash.envs.encoding import encoding_for, observation_space
from splash.games.bash import BashGame
from splash.games.bash.encoding import AWAITED, BashEncoding
from splash.games.bash.hidden import resample
from splash.games.bash.scenario import play_moves, position


@pytest.fixture(scope="module")
def game() -> BashGame:
    return BashGame()


@pytest.fixture(scope="module")
def encoding(game: BashGame) -> BashEncoding:
    found = encoding_for(game)
    assert isinstance(found, BashEncoding)
    return found


def piece(encoding: BashEncoding, obs: np.ndarray, team: int, index: int) -> np.ndarray:
    start = encoding.layout["pieces"].start + (team * 4 + index) * encoding.piece_size
    return obs[start : start + encoding.piece_size]


def block(encoding: BashEncoding, obs: np.ndarray, name: str) -> np.ndarray:
    return obs[encoding.layout[name].slice]


def test_sizes_follow_the_options(game: BashGame) -> None:
    three = BashEncoding(BashGame.from_settings([("options.teams", 3)]))
    two = BashEncoding(game)
    assert two.num_actions == game.action_space.size
    assert three.layout["seat"].size == 3
    # 4 pieces x (9 features + 4 checkpoint lines) per team
    assert three.layout["pieces"].size == 3 * 4 * 13
    assert two.layout["obstacles"].size == 40 + 34 + 28


def test_hand_checked_position(game: BashGame, encoding: BashEncoding) -> None:
    state = position(
        game,
        pieces="A1:c40 A2:h15 B1:c8 BH:o3 B3:done",
        hands="A:shove B:undertow",
        obstacles="c14 o2",
    )
    obs = encoding.observation(state, 0)
    assert obs.shape == encoding.observation_shape
    assert obs.dtype == np.float32
    assert block(encoding, obs, "seat").tolist() == [1, 0]
    assert block(encoding, obs, "to_act").tolist() == [0, 0]  # the draw: chance
    assert block(encoding, obs, "turn_team").tolist() == [1, 0]
    assert block(encoding, obs, "active").tolist() == [1, 0, 0, 0]
    # Scales: s by the longest race (2 laps of the outer 40), lap by 2, square by 40.
    # A1: centre (34 a lap), s = 40: lap 1, square 6, 40/68 of its race, behind line 0 (9).
    assert piece(encoding, obs, 0, 0).tolist() == pytest.approx(
        [1, 0, 0, 1, 0, 40 / 80, 1 / 2, 6 / 40, 40 / 68, 1, 0, 0, 0]
    )
    # A2: high tide (28 a lap), square 15: past the line at 14, before 21.
    assert piece(encoding, obs, 0, 1).tolist() == pytest.approx(
        [1, 0, 0, 0, 1, 15 / 80, 0, 15 / 40, 15 / 56, 0, 0, 1, 0]
    )
    # A's helmsman is not on the course yet: all zeros.
    assert not piece(encoding, obs, 0, 3).any()
    # B's helmsman: outer square 3 of its single lap (40 squares).
    assert piece(encoding, obs, 1, 3).tolist() == pytest.approx(
        [1, 0, 1, 0, 0, 3 / 80, 0, 3 / 40, 3 / 40, 1, 0, 0, 0]
    )
    # B3 finished: finished flag, progress 1.
    assert piece(encoding, obs, 1, 2).tolist() == [0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0]
    obstacles = block(encoding, obs, "obstacles")
    assert np.flatnonzero(obstacles).tolist() == [2, 40 + 14]
    assert block(encoding, obs, "awaiting")[AWAITED.index("draw")] == 1
    hand = block(encoding, obs, "hand")
    high_tide_cards = game.settings.decks["high_tide"].cards
    # one copy of the shove, over its copies in the deck
    assert hand[encoding.hand_cards.index("shove")] == pytest.approx(
        1 / high_tide_cards["shove"].count
    )
    assert np.count_nonzero(hand) == 1
    high_tide = sum(c.count for c in high_tide_cards.values())
    low_tide = sum(c.count for c in game.settings.decks["low_tide"].cards.values())
    assert block(encoding, obs, "hand_sizes").tolist() == pytest.approx(
        [1 / high_tide, 1 / high_tide]
    )
    assert block(encoding, obs, "deck_sizes").tolist() == pytest.approx(
        [low_tide / low_tide, (high_tide - 2) / high_tide]
    )
    assert not block(encoding, obs, "discards").any()
    assert block(encoding, obs, "terminal").tolist() == [0]
    assert block(encoding, obs, "turn").tolist() == [0]
    # B sees its undertow and not A's shove.
    other = block(encoding, encoding.observation(state, 1), "hand")
    assert other[encoding.hand_cards.index("undertow")] > 0
    assert np.count_nonzero(other) == 1


def test_roll_and_window_after_moves(game: BashGame, encoding: BashEncoding) -> None:
    state = position(game, pieces="A1:c5", hands="A:shove")
    play_moves(state, "draw breeze")
    obs = encoding.observation(state, 0)
    assert block(encoding, obs, "awaiting")[AWAITED.index("window:before_roll")] == 1
    assert block(encoding, obs, "to_act").tolist() == [1, 0]
    while state.to_act() != CHANCE:
        play_moves(state, "pass")
    play_moves(state, "roll 4")
    obs = encoding.observation(state, 0)
    # one die showing 4, over the most dice a turn may have: 1 + (2 teams + 1) x 1
    assert encoding.max_dice == 4
    assert block(encoding, obs, "dice").tolist() == pytest.approx([0, 0, 0, 1 / 4, 0, 0])
    # the breeze may add to the roll; its scale: 4 dice x 6 faces + (2 teams + 1) x 1
    assert encoding.max_roll == 27
    assert block(encoding, obs, "roll")[0] >= np.float32(4 / 27)


def test_other_hands_and_deck_order_never_change_an_observation(
    game: BashGame, encoding: BashEncoding
) -> None:
    rng = np.random.default_rng(5)
    outcomes = RandomOutcomes(11)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal() and checked < 60:
        if state.is_chance():
            state.apply(outcomes.outcome(state))
            continue
        if any(len(h) for h in state.board.hands):
            for seat in range(game.num_seats):
                twin = resample(state, seat, rng)
                if twin.board.hands != state.board.hands:
                    checked += 1
                assert np.array_equal(
                    encoding.observation(twin, seat), encoding.observation(state, seat)
                )
        legal = state.legal_actions()
        state.apply(legal[int(rng.integers(len(legal)))])
    assert checked > 5


def test_masks_equal_legality_and_indices_round_trip(
    game: BashGame, encoding: BashEncoding
) -> None:
    space = observation_space(encoding)
    for seed in range(3):
        rng = np.random.default_rng(seed)
        outcomes = RandomOutcomes(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            mask = encoding.legal_mask(state)
            for seat in range(game.num_seats):
                assert space.contains(encoding.observation(state, seat))
            if state.is_chance():
                assert not mask.any()
                state.apply(outcomes.outcome(state))
                continue
            assert encoding.legal_indices(state) == state.legal_action_ids()
            for index in encoding.legal_indices(state):
                action = encoding.action_of(state, index)
                assert encoding.index_of(state, action) == index
            choice = int(rng.choice(np.flatnonzero(mask)))
            state.apply(encoding.action_of(state, choice))
        assert not encoding.legal_mask(state).any()


def test_illegal_and_malformed_indices_are_refused(game: BashGame, encoding: BashEncoding) -> None:
    state = game.new_initial_state()
    stay = game.action_space.find("stay").id
    with pytest.raises(IllegalActionError, match="not one of the legal actions"):
        encoding.action_of(state, stay)
    with pytest.raises(MalformedActionError, match="no action index"):
        encoding.action_of(state, encoding.num_actions)
    with pytest.raises(MalformedActionError):
        encoding.action_of(state, True)
    chance = position(game, pieces="A1:c5")
    with pytest.raises(IllegalActionError, match="no team is to decide"):
        encoding.action_of(chance, game.action_space.find("roll", face=1).id)
