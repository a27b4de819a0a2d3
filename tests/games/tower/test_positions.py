"""``scenario.position`` refuses a position that cannot be (T01)."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from splash.core import ConfigError
from splash.games.tower import TowerGame
from splash.games.tower.scenario import position


@pytest.mark.rule("T01")
@pytest.mark.parametrize(
    ("reserves", "tower", "words"),
    [
        ({0: "red-cube", 1: "red-cube"}, "", "red-cube is in two places: the reserve of seat 0"),
        ({0: "red-cube red-cube"}, "", "red-cube is twice in the reserve of seat 0"),
        ({0: "red-cube"}, "green-beam red-cube", "red-cube is in two places"),
        ({}, "green-beam green-beam", "green-beam is twice in the tower"),
        ({0: "unicorn"}, "", "unicorn is not a piece of this game"),
        ({}, "red-cube blue-cube/green-beam", "blue-cube rests on green-beam, which is not"),
    ],
)
def test_T01_a_position_with_a_piece_twice_or_unknown_is_refused(
    game: TowerGame, reserves: Mapping[int, str], tower: str, words: str
) -> None:
    with pytest.raises(ConfigError) as error:
        position(game, reserves=reserves, tower=tower)
    assert words in str(error.value)


def test_covered_pieces_and_heights_name_pieces_of_the_tower(game: TowerGame) -> None:
    with pytest.raises(ConfigError) as error:
        position(game, reserves={}, tower="red-cube", covered="blue-cube")
    assert "blue-cube is not in the tower" in str(error.value)
    with pytest.raises(ConfigError):
        position(game, reserves={}, tower="red-cube", heights={"blue-cube": 3.0})
