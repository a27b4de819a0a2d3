"""The PettingZoo AEC environments: PettingZoo's own API, seed and parallel tests, rewards at
the end, illegal actions (the game ends, or an error), the parallel form's actions, masks only
for the agent to act, settings passed through, rendering."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

from splash.core.errors import IllegalActionError, OptionError
from splash.envs import bash_env, bash_parallel_env, tower_env, tower_parallel_env
from splash.envs.aec import SplashAECEnv
from tests.envs.pettingzoo_warnings import expected_warnings

TWO_PLAYERS = ["options.players=2"]


def test_bash_passes_the_api_test() -> None:
    with expected_warnings():
        api_test(bash_env(), num_cycles=300)


def test_bash_passes_the_seed_test() -> None:
    with expected_warnings():
        seed_test(bash_env, num_cycles=200)


def test_bash_parallel_form_passes_the_parallel_api_test() -> None:
    with expected_warnings():
        parallel_api_test(bash_parallel_env(), num_cycles=300)


@pytest.mark.slow
def test_tower_passes_the_api_seed_and_parallel_tests() -> None:
    with expected_warnings():
        api_test(tower_env(TWO_PLAYERS), num_cycles=40)
        seed_test(lambda: tower_env(TWO_PLAYERS), num_cycles=25)
        parallel_api_test(tower_parallel_env(TWO_PLAYERS), num_cycles=30)


def play_out(env: SplashAECEnv, seed: int) -> dict[str, float]:
    """A whole game with random legal actions; the total reward of each agent."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return totals


def test_bash_rewards_are_the_returns_at_the_end() -> None:
    env = bash_env(["options.turn_cap=200"])
    totals = play_out(env, 4)
    state = env.table.state
    assert state.is_terminal()
    assert totals == {
        agent: state.returns()[seat] for seat, agent in enumerate(env.possible_agents)
    }
    assert env.agents == []
    assert sorted(totals.values())[-1] in (0.0, 1.0)


def test_settings_pass_through() -> None:
    env = bash_env({"options.teams": 3})
    assert env.possible_agents == ["team_A", "team_B", "team_C"]
    env.reset(seed=1)
    assert env.table.game.config()["options"]["teams"] == 3
    three = tower_env([("options.players", 3)])
    assert three.possible_agents == ["player_0", "player_1", "player_2"]
    with pytest.raises(OptionError):
        bash_env(["options.teams=9"])
    with pytest.raises(OptionError):
        tower_env(["options.nonsense=1"])


def test_illegal_action_raises_and_changes_nothing_when_asked_to() -> None:
    env = bash_env(illegal="raise")
    env.reset(seed=2)
    before = env.table.state.to_json()
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    with pytest.raises(IllegalActionError):
        env.step(int(np.flatnonzero(mask == 0)[0]))
    assert env.table.state.to_json() == before
    assert env.agent_selection == agent and not any(env.terminations.values())
    assert env.infos == {a: {} for a in env.possible_agents}
    env.step(int(np.flatnonzero(mask)[0]))
    assert env.table.state.to_json() != before


def test_an_illegal_action_ends_the_game_by_default() -> None:
    env = bash_env(["options.teams=3"])
    env.reset(seed=2)
    before = env.table.state.to_json()
    offender = env.agent_selection
    mask = env.observe(offender)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    env.step(np.int64(illegal))
    assert env.table.state.to_json() == before
    assert env.rewards == {a: (-1.0 if a == offender else 0.0) for a in env.possible_agents}
    assert env.terminations == dict.fromkeys(env.possible_agents, True)
    assert env.truncations == dict.fromkeys(env.possible_agents, False)
    record = env.infos[offender]["illegal_action"]
    assert record["action"] == illegal and type(record["action"]) is int
    assert "not one of the legal actions" in record["reason"]
    assert all("illegal_action" not in env.infos[a] for a in env.possible_agents if a != offender)
    assert all(not env.observe(a)["action_mask"].any() for a in env.possible_agents)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        _, reward, terminated, _, _ = env.last()
        assert terminated
        totals[agent] += reward
        env.step(None)
    assert totals == {a: (-1.0 if a == offender else 0.0) for a in env.possible_agents}
    assert env.agents == []


def test_an_action_index_out_of_range_ends_the_game_too() -> None:
    env = tower_env(TWO_PLAYERS)
    env.reset(seed=1)
    offender = env.agent_selection
    env.step(10_000)
    assert env.rewards[offender] == -1.0 and all(env.terminations.values())
    assert "no action index 10000" in env.infos[offender]["illegal_action"]["reason"]


def test_a_wrong_illegal_option_is_refused() -> None:
    for bad in ("ignore", None, 1):
        with pytest.raises(OptionError) as refused:
            bash_env(illegal=bad)
        assert refused.value.key == "illegal" and refused.value.value == bad
    with pytest.raises(OptionError, match="illegal"):
        tower_parallel_env(TWO_PLAYERS, illegal="Raise")


def test_both_parallel_forms_pass_the_parallel_seed_test() -> None:
    with expected_warnings():
        parallel_seed_test(bash_parallel_env, num_cycles=50)
        parallel_seed_test(lambda: tower_parallel_env(TWO_PLAYERS), num_cycles=50)


def test_the_parallel_form_ends_the_game_on_an_illegal_action() -> None:
    env = bash_parallel_env()
    observations, _ = env.reset(seed=3)
    offender = env.aec_env.agent_selection
    illegal = int(np.flatnonzero(observations[offender]["action_mask"] == 0)[0])
    _, rewards, terminations, truncations, infos = env.step(dict.fromkeys(env.agents, illegal))
    assert rewards == {a: (-1.0 if a == offender else 0.0) for a in env.possible_agents}
    assert terminations == dict.fromkeys(env.possible_agents, True)
    assert not any(truncations.values())
    assert infos[offender]["illegal_action"]["action"] == illegal
    assert env.agents == []


def test_the_parallel_form_ignores_the_actions_of_agents_not_to_act() -> None:
    plain = bash_parallel_env()
    noisy = bash_parallel_env()
    observations, _ = plain.reset(seed=5)
    noisy.reset(seed=5)
    for _ in range(30):
        agent = plain.aec_env.agent_selection
        action = int(np.flatnonzero(observations[agent]["action_mask"])[0])
        # the others' actions are illegal or not actions at all: each would end the game
        junk: dict[str, object] = {a: 10_000 for a in noisy.agents}
        junk[noisy.agents[-1]] = "nonsense"
        observations, rewards, terminations, truncations, infos = plain.step({agent: action})
        seen, rewards2, terminations2, truncations2, infos2 = noisy.step({**junk, agent: action})
        assert plain.aec_env.table.state.to_json() == noisy.aec_env.table.state.to_json()
        assert (rewards, terminations, truncations, infos) == (
            rewards2,
            terminations2,
            truncations2,
            infos2,
        )
        assert all(
            np.array_equal(observations[a]["observation"], seen[a]["observation"])
            and np.array_equal(observations[a]["action_mask"], seen[a]["action_mask"])
            for a in plain.agents
        )
        assert not any(terminations.values())


def test_the_parallel_form_needs_the_action_of_the_agent_to_act() -> None:
    env = bash_parallel_env()
    env.reset(seed=1)
    agent = env.aec_env.agent_selection
    others = {a: 0 for a in env.agents if a != agent}
    with pytest.raises(OptionError, match=f"no action for {agent}"):
        env.step(others)
    with pytest.raises(OptionError, match="mapping"):
        env.step([0, 0])


def test_same_seed_same_chance_other_seed_other_chance() -> None:
    def rolls(seed: int) -> list[object]:
        env = bash_env()
        env.reset(seed=seed)
        for _ in range(40):
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(int(np.flatnonzero(mask)[0]))
        return [a.to_json() for a in env.table.state.history if a.kind in ("roll", "draw")]

    assert rolls(7) == rolls(7)
    assert rolls(7) != rolls(8)


def test_render_modes() -> None:
    env = bash_env(render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and "Outer" in text
    image = bash_env(render_mode="rgb_array")
    image.reset(seed=0)
    pixels = image.render()
    assert isinstance(pixels, np.ndarray) and pixels.dtype == np.uint8 and pixels.shape[2] == 3
    with pytest.raises(OptionError):
        bash_env(render_mode="video")


def test_tower_render_modes_after_a_placement() -> None:
    env = tower_env(TWO_PLAYERS, render_mode="ansi")
    env.reset(seed=5)
    while env.table.state.tower.pieces == ():
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(np.flatnonzero(mask)[0]))
    text = env.render()
    assert isinstance(text, str) and "on the table" in text
    env.render_mode = "rgb_array"
    pixels = env.render()
    assert isinstance(pixels, np.ndarray) and pixels.ndim == 3 and pixels.dtype == np.uint8


def test_tower_ruling_by_statics() -> None:
    env = tower_env(TWO_PLAYERS, ruling="statics")
    env.reset(seed=1)
    while env.table.state.placements < 2:
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(np.flatnonzero(mask)[0]))
    assert env.table.state.placements == 2
