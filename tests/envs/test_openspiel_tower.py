"""Splash! as an OpenSpiel game: game type, chance outcomes from tremor samples, tensors."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

from splash.envs.openspiel import TOWER, register_games
from splash.envs.openspiel.match import StepBot
from splash.envs.openspiel.params import ParamValue
from splash.envs.openspiel.tower import TowerSpielGame, TowerSpielState

STATICS: dict[str, ParamValue] = {"options.players": 2, "ruling": "statics", "samples": 2}
"""Two players, the cheap static ruling, two tremor samples a placement."""


def load(**params: ParamValue) -> TowerSpielGame:
    register_games()
    game = pyspiel.load_game(TOWER, {**STATICS, **params})
    assert isinstance(game, TowerSpielGame)
    return game


def to_placement(game: TowerSpielGame) -> TowerSpielState:
    """A game dealt at random (seeded) and played up to the first placement's outcome."""
    state = game.new_initial_state()
    rng = np.random.default_rng(4)
    while state.tower.phase != "result":
        if state.is_chance_node():
            outcomes = [a for a, _ in state.chance_outcomes()]
            state.apply_action(int(rng.choice(outcomes)))
        else:
            state.apply_action(state.legal_actions()[0])
    return state


def test_game_type_tells_the_truth() -> None:
    game = load()
    kind = game.get_type()
    assert kind.short_name == "python_splash_tower"
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    # TD03: open reserves; the deal and the tremor are public chance events.
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (kind.min_num_players, kind.max_num_players) == (2, 6)
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    assert game.num_distinct_actions() == game.encoding.num_actions
    assert game.max_chance_outcomes() == 30
    # 30 takes, then at most 1000 placements of give, pose, outcome, base and 3 taken back.
    assert game.max_game_length() == 30 + 1000 * 7


def test_parameters_pass_through() -> None:
    teams = load(**{"options.players": 4, "options.teams": 2, "samples": 40})
    assert teams.num_players() == 4
    assert teams.min_utility() == -1.0
    assert teams.max_chance_outcomes() == 40
    six = load(**{"options.players": 6, "options.teams": 3})
    assert six.min_utility() == pytest.approx(-0.5)
    again = pyspiel.load_game(str(six))
    assert again.get_parameters() == six.get_parameters()
    assert again.tower.options.teams == 3


def test_TD02_a_random_deal_is_uniform_over_the_pile() -> None:
    game = load(**{"options.deal": "random"})
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(30))
    assert [p for _, p in outcomes] == pytest.approx([1 / 30] * 30)
    state.apply_action(7)
    assert state.tower.reserves[0] == [game.tower.catalogue.piece_ids[7]]
    assert 7 not in [a for a, _ in state.chance_outcomes()]


def test_TD14_a_placement_has_samples_outcomes_fixed_by_seed_and_history() -> None:
    game = load()
    state = to_placement(game)
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    tremors = []
    for k in (0, 1):
        child = state.child(k)
        assert child.inner.history[-1].kind == "result"
        tremors.append(child.inner.history[-1].param("outcome")["details"]["tremor"])
    assert tremors[0] != tremors[1]
    # The same history in another game with the same parameters: the same outcome.
    other = to_placement(load())
    assert other.child(1).inner == state.child(1).inner
    # Another seed: another tremor.
    reseeded = to_placement(load(seed=9)).child(1)
    assert reseeded.inner.history[-1].param("outcome")["details"]["tremor"] != tremors[1]


def test_random_simulation_with_serialisation() -> None:
    pyspiel.random_sim_test(
        load(**{"options.deal": "random"}), num_sims=1, serialize=True, verbose=False
    )


def test_serialise_round_trip_at_a_placement() -> None:
    game = load()
    state = to_placement(game).child(0)
    text = pyspiel.serialize_game_and_state(game, state)
    _, restored = pyspiel.deserialize_game_and_state(text)
    assert restored.inner == state.inner
    assert restored.information_state_string(1) == state.information_state_string(1)


def test_tensors_of_a_hand_checked_draft() -> None:
    game = load()
    ids = game.tower.catalogue.piece_ids
    state = game.new_initial_state()
    state.apply_action(game.tower.action_space.find("take", piece=ids[3]).id)
    state.apply_action(game.tower.action_space.find("take", piece=ids[10]).id)
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False))
    observer.set_from(state, 1)
    blocks = observer.dict
    assert blocks["seat"].tolist() == [0, 1]
    assert blocks["to_act"].tolist() == [1, 0]
    assert blocks["phase"].tolist() == [1, 0, 0, 0, 0, 0, 0, 0]
    location = blocks["location"].reshape(30, 2 + 5)
    assert location[3].tolist() == [1, 0, 0, 0, 0, 0, 0]  # seat 0's reserve
    assert location[10].tolist() == [0, 1, 0, 0, 0, 0, 0]  # seat 1's reserve
    assert location[0].tolist() == [0, 0, 1, 0, 0, 0, 0]  # still in the pile
    assert state.observation_tensor(1) == pytest.approx(observer.tensor.tolist())
    lines = state.information_state_string(0).split("\n")
    assert lines[:2] == [f"seat 0: take {ids[3]}", f"seat 1: take {ids[10]}"]


def test_every_seat_sees_the_same_position() -> None:
    game = load()
    state = to_placement(game).child(0)
    seat = game.encoding.layout["seat"].slice
    zero = np.array(state.observation_tensor(0))
    one = np.array(state.observation_tensor(1))
    zero[seat] = one[seat] = 0
    assert zero.tolist() == one.tolist()


def mcts_bots(game: TowerSpielGame, simulations: int) -> list[StepBot]:
    from open_spiel.python.algorithms import mcts

    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    return [mcts.MCTSBot(game, 2.0, simulations, evaluator, random_state=rng) for _ in range(2)]


def test_mcts_chooses_a_legal_placement() -> None:
    game = load(**{"options.drops_to_win": 1})
    state = to_placement(game).child(0)
    while state.inner.phase != "place" and not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    bot = mcts_bots(game, 2)[0]
    assert bot.step(state) in state.legal_actions()


@pytest.mark.slow
def test_mcts_plays_a_whole_game_as_a_perfect_information_baseline() -> None:
    from splash.envs.openspiel.match import play_game

    params: dict[str, ParamValue] = {"options.deal": "random", "options.drops_to_win": 1}
    game = load(**params)
    state = game.new_initial_state()
    returns = play_game(state, mcts_bots(game, 2), seed=1)
    assert state.is_terminal()
    assert sorted(returns) == [-1.0, 1.0]


@pytest.mark.slow
def test_random_simulation_with_the_simulation_ruling() -> None:
    game = load(ruling="simulation", **{"options.deal": "random"})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_wrong_parameters_are_refused_with_their_key() -> None:
    from splash.core.errors import OptionError

    with pytest.raises(OptionError, match="ruling='guess'"):
        load(ruling="guess")
    with pytest.raises(OptionError, match="samples=0"):
        load(samples=0)
    with pytest.raises(OptionError, match=r"options\.players"):
        load(**{"options.players": 9})


@pytest.mark.parametrize("ruling", ["statics", "simulation"])
def test_TD14_the_samples_of_a_placement_ruled_in_one_batch_are_the_ones_ruled_one_by_one(
    ruling: str,
) -> None:
    game = load(ruling=ruling, samples=3)
    state = to_placement(game)
    batch = game.placement_outcomes(state.tower)
    again = load(ruling=ruling, samples=3)
    one_by_one = [again.placement_outcome(to_placement(again).tower, k) for k in range(3)]
    assert batch == one_by_one
    assert [state.child(k).inner.history[-1] for k in range(3)] == batch
