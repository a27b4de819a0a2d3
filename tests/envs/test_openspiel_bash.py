"""Splash & Bash as an OpenSpiel game: registration, conformance, chance, tensors, hidden hands."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction

import numpy as np
import pyspiel
import pytest

from splash.envs.openspiel import BASH, register_games
from splash.envs.openspiel.bash import BashSpielGame, BashSpielState
from splash.envs.openspiel.bash_length import max_game_length, turn_bound
from splash.envs.openspiel.params import ParamValue
from splash.games.bash import BashGame
from splash.games.bash.scenario import position

SMALL: dict[str, ParamValue] = {
    "board.laps": 1,
    "board.lanes.outer": 12,
    "board.lanes.centre": 10,
    "board.lanes.high_tide": 8,
}
"""A short course: whole games of a hundred or so actions."""


@pytest.fixture(scope="module")
def game() -> BashSpielGame:
    register_games()
    loaded = pyspiel.load_game(BASH)
    assert isinstance(loaded, BashSpielGame)
    return loaded


def wrap(
    game: BashSpielGame,
    *,
    pieces: str,
    hands: str = "",
    decks: Mapping[str, Mapping[str, int]] | None = None,
) -> BashSpielState:
    """A :func:`position` of the wrapped game, as an OpenSpiel state."""
    return BashSpielState(game, position(game.bash, pieces=pieces, hands=hands, decks=decks))


def test_game_type_tells_the_truth(game: BashSpielGame) -> None:
    kind = game.get_type()
    assert kind.short_name == "python_splash_bash"
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (kind.min_num_players, kind.max_num_players) == (2, 4)
    assert game.num_players() == 2
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    assert game.num_distinct_actions() == game.bash.action_space.size
    assert game.max_chance_outcomes() == game.bash.action_space.size
    assert kind.provides_information_state_string and not kind.provides_information_state_tensor
    assert kind.provides_observation_string and kind.provides_observation_tensor


@pytest.mark.rule("BD14")
def test_BD14_max_game_length_by_hand(game: BashSpielGame) -> None:
    # A turn: a draw and a fish bone or a discard (2), 4 windows, 2 dice (a rogue wave), a
    # lane choice, 2 questions for the lane change and 2 for the walk, a shove (3) = 16;
    # 1000 + 2 - 1 turns; set-up 6 and 2 helmsman entries.
    assert turn_bound(game.bash.settings) == 16
    assert game.max_game_length() == 8 + 1001 * 16
    assert max_game_length(game.bash.settings) == game.max_game_length()
    for teams in (2, 3, 4):
        settings = BashGame.from_settings([("options.teams", teams)]).settings
        assert max_game_length(settings) <= 25 * (settings.options.turn_cap + teams)


def test_parameters_pass_through(game: BashSpielGame) -> None:
    three = pyspiel.load_game(BASH, {"options.teams": 3, "board.lanes.outer": 36})
    assert three.num_players() == 3
    assert three.min_utility() == pytest.approx(-0.5)
    assert three.bash.settings.board.lanes.outer == 36
    again = pyspiel.load_game(str(three))
    assert again.get_parameters() == three.get_parameters()
    assert "options.teams" in game.get_type().parameter_specification
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter"):
        pyspiel.load_game(BASH, {"options.nonsense": 1})


def test_random_simulations_with_serialisation() -> None:
    register_games()
    for teams in (2, 3):
        small = pyspiel.load_game(BASH, {**SMALL, "options.teams": teams})
        pyspiel.random_sim_test(small, num_sims=2, serialize=True, verbose=False)


def test_serialise_round_trip_mid_game() -> None:
    register_games()
    small = pyspiel.load_game(BASH, SMALL)
    state = small.new_initial_state()
    rng = np.random.default_rng(3)
    for _ in range(40):
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    text = pyspiel.serialize_game_and_state(small, state)
    _, restored = pyspiel.deserialize_game_and_state(text)
    assert restored.inner == state.inner
    assert restored.history() == state.history()
    for seat in (0, 1):
        assert restored.information_state_string(seat) == state.information_state_string(seat)


def test_chance_outcomes_are_the_games(game: BashSpielGame) -> None:
    state = wrap(game, pieces="A1:h5", decks={"high_tide": {"shove": 2, "slide": 1}})
    assert state.is_chance_node()
    space = game.bash.action_space
    expected = [
        (space.find("draw", deck="high_tide", card="shove").id, 2 / 3),
        (space.find("draw", deck="high_tide", card="slide").id, 1 / 3),
    ]
    outcomes = sorted(state.chance_outcomes())
    assert [a for a, _ in outcomes] == [a for a, _ in expected]
    assert [p for _, p in outcomes] == pytest.approx([p for _, p in expected])
    assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1.0)
    inner = [(a.id, p) for a, p in state.inner.chance_outcomes()]
    assert [(a, Fraction(p).limit_denominator()) for a, p in state.chance_outcomes()] == inner


def test_a_high_tide_draw_is_seen_by_the_drawing_team_only(game: BashSpielGame) -> None:
    state = wrap(game, pieces="A1:h5", decks={"high_tide": {"shove": 1}})
    state.apply_action(game.bash.action_space.find("draw", deck="high_tide", card="shove").id)
    mine, theirs = state.information_state_string(0), state.information_state_string(1)
    assert "chance: draw shove from high_tide" in mine
    assert "chance: draw from high_tide" in theirs
    assert "shove" not in theirs.split("\n")[-2]
    assert '"hand":["shove"]' in mine and '"hand":[]' in theirs
    assert '"hand_sizes":[1,0]' in theirs


def test_tensors_of_a_hand_checked_position(game: BashSpielGame) -> None:
    state = wrap(game, pieces="A1:c40 B1:c8", hands="A:shove B:undertow,slide")
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False))
    observer.set_from(state, 1)
    blocks = observer.dict
    assert blocks["seat"].tolist() == [0, 1]
    assert blocks["turn_team"].tolist() == [1, 0]
    deck = game.bash.settings.decks["high_tide"].cards
    cards = list(deck)
    total = sum(card.count for card in deck.values())
    # copies over the card's copies in the deck, hand sizes over the deck's cards
    hand = np.zeros(len(cards))
    for name in ("undertow", "slide"):
        hand[cards.index(name)] = 1 / deck[name].count
    assert blocks["hand"].tolist() == pytest.approx(hand.tolist())
    assert blocks["hand_sizes"].tolist() == pytest.approx([1 / total, 2 / total])
    assert state.observation_tensor(1) == pytest.approx(observer.tensor.tolist())
    observer.set_from(state, 0)
    assert blocks["hand"][cards.index("shove")] == pytest.approx(1 / deck["shove"].count)
    assert np.count_nonzero(blocks["hand"]) == 1
    assert state.observation_tensor(0) == pytest.approx(observer.tensor.tolist())
    assert len(state.observation_tensor(0)) == game.observation_tensor_size()


def test_no_information_state_tensor_but_a_perfect_recall_string(game: BashSpielGame) -> None:
    state = game.new_initial_state()
    for _ in range(12):
        state.apply_action(state.legal_actions()[0])
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    observer.set_from(state, 0)
    assert observer.tensor.size == 0 and observer.dict == {}
    lines = state.information_state_string(0).split("\n")
    assert len(lines) == 12 + 1
    assert lines[0] == "seat 0: start in lane outer"
    assert lines[-1] == state.observation_string(0)


def test_changing_hidden_cards_changes_nothing_another_team_sees(game: BashSpielGame) -> None:
    one = wrap(game, pieces="A1:c40 B1:c8", hands="A:shove B:undertow")
    two = wrap(game, pieces="A1:c40 B1:c8", hands="A:shove B:slide")
    seen_by_seat_a: tuple[Callable[[BashSpielState], object], ...] = (
        lambda s: s.observation_tensor(0),
        lambda s: s.observation_string(0),
        lambda s: s.information_state_string(0),
    )
    for seat_a_sees in seen_by_seat_a:
        assert seat_a_sees(one) == seat_a_sees(two)
    assert one.observation_tensor(1) != two.observation_tensor(1)


def test_resampling_keeps_the_information_state(game: BashSpielGame) -> None:
    state = wrap(game, pieces="A1:c40 B1:h5", hands="A:shove B:undertow")
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    seat = state.current_player()
    other = 1 - seat
    hands = set()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(12):
        sample = state.resample_from_infostate(seat, sampler)
        assert sample.information_state_string(seat) == state.information_state_string(seat)
        assert sample.observation_tensor(seat) == state.observation_tensor(seat)
        hands.add(tuple(sample.bash.board.hands[other]))
    assert len(hands) > 1


TINY: dict[str, ParamValue] = {
    "board.laps": 1,
    "board.lanes.outer": 6,
    "board.lanes.centre": 5,
    "board.lanes.high_tide": 4,
}
"""A very short course, for whole games with search bots."""


def test_mcts_plays_a_whole_game_as_a_perfect_information_baseline() -> None:
    from open_spiel.python.algorithms import mcts

    from splash.envs.openspiel.match import play_game

    register_games()
    tiny = pyspiel.load_game(BASH, TINY)
    rng = np.random.RandomState(1)
    bots = [
        mcts.MCTSBot(tiny, 2.0, 3, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
        for _ in range(2)
    ]
    state = tiny.new_initial_state()
    returns = play_game(state, bots, seed=1)
    assert state.is_terminal()
    assert sorted(returns) == [-1.0, 1.0]


def test_ismcts_plays_a_whole_game_with_the_games_resampler() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    from splash.envs.openspiel.bash import resampler
    from splash.envs.openspiel.match import play_game

    register_games()
    tiny = pyspiel.load_game(BASH, TINY)
    rng = np.random.RandomState(2)
    bots = []
    for seat in range(2):
        bot = ismcts.ISMCTSBot(tiny, mcts.RandomRolloutEvaluator(1, rng), 2.0, 4, random_state=rng)
        bot.set_resampler(resampler(seat))
        bots.append(bot)
    state = tiny.new_initial_state()
    returns = play_game(state, bots, seed=2)
    assert state.is_terminal()
    assert sorted(returns) == [-1.0, 1.0]


def test_a_project_bot_takes_a_seat() -> None:
    from splash.bots import make_bot
    from splash.envs.openspiel.match import AgentBot, play_game

    register_games()
    tiny = pyspiel.load_game(BASH, TINY)
    bots = [AgentBot(make_bot("greedy", 1)), AgentBot(make_bot("random", 2))]
    first = play_game(tiny.new_initial_state(), bots, seed=5)
    again = play_game(
        tiny.new_initial_state(),
        [AgentBot(make_bot("greedy", 1)), AgentBot(make_bot("random", 2))],
        seed=5,
    )
    assert first == again
    assert sorted(first) == [-1.0, 1.0]


def test_what_a_team_sees_survives_a_new_deal_of_what_it_cannot_see() -> None:
    register_games()
    tiny = pyspiel.load_game(BASH, {**TINY, "options.teams": 3})
    state = tiny.new_initial_state()
    rng = np.random.default_rng(8)
    checked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        if len(state.history()) % 7 == 0:
            for seat in range(3):
                dealt = state.resample(seat, rng)
                assert dealt.observation_string(seat) == state.observation_string(seat)
                assert dealt.observation_tensor(seat) == state.observation_tensor(seat)
                assert dealt.information_state_string(seat) == state.information_state_string(seat)
            checked += 1
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert checked > 5
