"""Bots named by specs: ``random``, ``greedy:depth=2,rival=1.5``."""

from __future__ import annotations

import pytest

from splash.bots import GreedyBashBot, RandomBot, known_bots, make_bot, split_specs
from splash.core import OptionError


def test_known_bots_and_their_parameters() -> None:
    assert {"random", "greedy"} <= set(known_bots())
    assert isinstance(make_bot("random", 1), RandomBot)
    bot = make_bot("greedy:depth=2,samples=3,rival=1.5", 1)
    assert isinstance(bot, GreedyBashBot)
    assert (bot.depth, bot.samples, bot.weights["rival"]) == (2, 3, 1.5)


@pytest.mark.parametrize(
    ("spec", "needle"),
    [
        ("clever", "unknown bot 'clever'"),
        ("random:depth=2", "takes no parameters"),
        ("greedy:depth=0", "whole number"),
        ("greedy:speed=2", "unknown key 'speed'"),
        ("greedy:depth", "key=value"),
    ],
)
def test_wrong_specs_say_what_is_wrong(spec: str, needle: str) -> None:
    with pytest.raises(OptionError) as error:
        make_bot(spec, 1)
    assert needle in str(error.value)


def test_specs_split_on_commas_but_keep_parameters() -> None:
    assert split_specs(["random,greedy:depth=2,rival=1", "random"]) == [
        "random",
        "greedy:depth=2,rival=1",
        "random",
    ]


def test_ismcts_parameters() -> None:
    from splash.bots.ismcts import IsmctsBot

    bot = make_bot(
        "ismcts:iterations=30,exploration=0.5,rollout=none,max_depth=6,evaluation=greedy", 2
    )
    assert isinstance(bot, IsmctsBot)
    for spec, needle in [
        ("ismcts:iterations=0", "whole number"),
        ("ismcts:exploration=high", "must be a number"),
        ("ismcts:width=3", "unknown key 'width'"),
        ("ismcts:rollout=smart", "rollout"),
        ("ismcts:evaluation=magic", "evaluation"),
    ]:
        with pytest.raises(OptionError) as error:
            make_bot(spec, 1)
        assert needle in str(error.value)


def test_planner_parameters() -> None:
    from splash.bots.tower_planner import TowerPlannerBot

    bot = make_bot("planner:samples=4,candidates=6,steadiness=0.5", 3)
    assert isinstance(bot, TowerPlannerBot)
    assert (bot.samples, bot.candidates) == (4, 6)
    assert bot.steadiness is not None and bot.steadiness.angle_deg == 1.0
    for spec, needle in [
        ("planner:steadiness=1/2", "three numbers"),
        ("planner:steadiness=shaky", "must be a number"),
        ("planner:width=2", "unknown key 'width'"),
    ]:
        with pytest.raises(OptionError) as error:
            make_bot(spec, 1)
        assert needle in str(error.value)


def test_a_bot_named_for_a_game_it_does_not_play_is_refused() -> None:
    from splash.bots import PLAYS

    assert dict(PLAYS) == {
        "bash": {"random", "greedy", "ismcts", "expectimax", "ppo", "td"},
        "tower": {"random", "planner"},
    }
    assert isinstance(make_bot("random", 1, game="tower"), RandomBot)
    for spec, game, known in (
        ("greedy", "tower", "planner, random"),
        ("ismcts:iterations=5", "tower", "planner, random"),
        ("planner:samples=2", "bash", "expectimax, greedy, ismcts, ppo, random, td"),
    ):
        with pytest.raises(OptionError) as error:
            make_bot(spec, 1, game=game)
        assert f"this bot does not play {game} (known: {known})" in str(error.value)
    with pytest.raises(OptionError, match="unknown bot 'clever'"):
        make_bot("clever", 1, game="bash")
