"""Bot specs on the command line, and the random bot."""

from __future__ import annotations

import pytest

from splash.bots import RandomBot, make_bot, parse_spec, split_specs
from splash.core.errors import OptionError
from splash.games.bash import BashGame


def test_random_bot_is_seeded_and_legal() -> None:
    game = BashGame.from_settings()
    state = game.new_initial_state()
    first = [make_bot("random", 3).act(state) for _ in range(2)]
    assert first[0] == first[1]
    assert first[0] in state.legal_actions()
    assert isinstance(make_bot(" Random ", 3), RandomBot)


def test_unknown_bot_lists_the_known_ones() -> None:
    with pytest.raises(
        OptionError,
        match=r"unknown bot .clever. \(known: expectimax, greedy, ismcts, planner, ppo, random, td\)",
    ):
        make_bot("clever", 1)


def test_random_takes_no_parameters() -> None:
    with pytest.raises(OptionError, match="takes no parameters"):
        make_bot("random:depth=2", 1)


def test_spec_format() -> None:
    assert parse_spec("greedy:depth=2, width=3") == ("greedy", {"depth": "2", "width": "3"})
    with pytest.raises(OptionError, match="key=value"):
        parse_spec("greedy:depth")


def test_split_specs_keeps_parameters_with_their_bot() -> None:
    assert split_specs(["random,greedy:depth=2,width=3", "random"]) == [
        "random",
        "greedy:depth=2,width=3",
        "random",
    ]
