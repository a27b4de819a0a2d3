"""The ``td`` bot: registered, it loads the shipped agent without a path, refuses what it
cannot play with a clear error, and plays Splash & Bash at ply 1 and ply 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from splash.bots import bot_named, is_light, make_bot
from splash.core import RandomOutcomes
from splash.core.errors import OptionError
from splash.core.play import play
from splash.games.bash import BashGame
from splash.learn.agent import shipped_agent


def test_the_shipped_agent_is_small_and_plays_two_teams() -> None:
    agent = shipped_agent()
    assert agent.teams == 2 and agent.training.played > 0
    assert agent.net.params.nbytes < 1_000_000


def test_the_td_bot_is_registered_and_refuses_what_it_cannot_play(tmp_path: Path) -> None:
    spec = bot_named("td")
    assert spec is not None and spec.plays("bash") and not spec.plays("tower")
    assert not is_light("td")
    with pytest.raises(OptionError, match="must be one of 1, 2"):
        make_bot("td:ply=3", 0, game="bash")
    broken = tmp_path / "broken.npz"
    broken.write_text("hello")
    with pytest.raises(OptionError, match="is not a splash TD agent"):
        make_bot(f"td:path={broken}", 0, game="bash")
    three = BashGame.from_settings([("options.teams", 3)])
    with pytest.raises(OptionError, match="the agent learned 2 teams"):
        make_bot("td", 0, game="bash").act(three.new_initial_state())


@pytest.mark.parametrize("ply", [1, 2])
def test_the_td_bot_plays_a_game_against_greedy(ply: int) -> None:
    game = BashGame.from_settings([("options.turn_cap", 16)])
    agents = [make_bot(f"td:ply={ply}", 1, game="bash"), make_bot("greedy", 2, game="bash")]
    state = play(game.new_initial_state(), agents, RandomOutcomes(3))
    assert state.is_terminal()
