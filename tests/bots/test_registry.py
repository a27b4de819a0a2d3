"""The one registry of bots, :data:`splash.bots.BOTS`: one record per name, each name made
by :func:`~splash.bots.make_bot`, its parameter keys checked, its games and ``*``."""

from __future__ import annotations

from collections import Counter

import pytest

from splash.bots import (
    ANY_GAME,
    BOTS,
    PLAYS,
    BotSpec,
    RandomBot,
    bot_named,
    bots_for,
    is_light,
    known_bots,
    make_bot,
)
from splash.core import OptionError
from splash.games import GAMES

NEEDS_A_FILE = {"ppo": "path"}
"""Bots that cannot be made from their bare name: the parameter each requires."""


def test_the_registry_has_one_record_per_name() -> None:
    twice = [name for name, count in Counter(bot.name for bot in BOTS).items() if count > 1]
    assert not twice
    assert known_bots() == sorted(bot.name for bot in BOTS)


@pytest.mark.parametrize("bot", BOTS, ids=lambda bot: bot.name)
def test_every_name_resolves_to_its_record_and_to_a_bot(bot: BotSpec) -> None:
    assert bot_named(bot.name) is bot
    if bot.name in NEEDS_A_FILE:
        with pytest.raises(OptionError, match=NEEDS_A_FILE[bot.name]):
            make_bot(bot.name, 1)
        return
    for game in GAMES:
        if bot.plays(game):
            assert callable(make_bot(bot.name, 1, game=game).act)


@pytest.mark.parametrize("bot", [bot for bot in BOTS if bot.parameters], ids=lambda b: b.name)
def test_a_key_the_record_does_not_list_is_refused_with_the_known_ones(bot: BotSpec) -> None:
    with pytest.raises(OptionError) as error:
        make_bot(f"{bot.name}:no_such_key=1", 1)
    text = str(error.value)
    assert "unknown key 'no_such_key'" in text
    assert f"(known here: {', '.join(sorted(bot.parameters))})" in text


def test_plays_is_read_from_the_registry() -> None:
    for game in GAMES:
        assert PLAYS[game] == {bot.name for bot in BOTS if bot.plays(game)}
        assert bots_for(game) == sorted(PLAYS[game])
    named = {game for bot in BOTS for game in bot.games} - {ANY_GAME}
    assert named <= set(GAMES), "a bot names a game that is not in splash.games.GAMES"


def test_a_bot_declared_for_any_game_plays_every_registered_game() -> None:
    anywhere = [bot for bot in BOTS if ANY_GAME in bot.games]
    assert [bot.name for bot in anywhere] == ["random"]
    for game in GAMES:
        assert all(bot.name in PLAYS[game] for bot in anywhere)
        assert isinstance(make_bot("random", 1, game=game), RandomBot)
    made_up = BotSpec("anything", BOTS[0].factory, frozenset(), frozenset({ANY_GAME}))
    assert all(made_up.plays(game) for game in GAMES)
    narrow = BotSpec("narrow", BOTS[0].factory, frozenset(), frozenset({"bash"}))
    assert [game for game in GAMES if narrow.plays(game)] == ["bash"]


def test_lightness_is_declared_by_the_record() -> None:
    assert {bot.name for bot in BOTS if bot.light} == {"random"}
    assert is_light("random") and not is_light("greedy:depth=2")
    assert not is_light("clever") and not is_light("greedy:depth")
