"""Every layer's table of games covers every game of the registry, and no other: adding a
game means one package plus one entry in each table listed here."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from splash.bots import PLAYS
from splash.cli.games import GAME_COMMANDS
from splash.envs.games import ENVIRONMENTS
from splash.games import GAMES
from splash.physics.games import PHYSICAL_GAMES
from splash.report.games import REPORTED_GAMES
from splash.sim.runner import SIMULATED

TABLES: dict[str, Mapping[str, object]] = {
    "splash.physics.games.PHYSICAL_GAMES": PHYSICAL_GAMES,
    "splash.bots.PLAYS": PLAYS,
    "splash.sim.runner.SIMULATED": SIMULATED,
    "splash.report.games.REPORTED_GAMES": REPORTED_GAMES,
    "splash.envs.games.ENVIRONMENTS": ENVIRONMENTS,
    "splash.cli.games.GAME_COMMANDS": GAME_COMMANDS,
}
"""The one table of games of each layer above the rules engines, by its name."""


def uncovered(table: Mapping[str, object]) -> list[str]:
    """The games of the registry that ``table`` lacks, then the ids it has that are no game."""
    return [g for g in GAMES if g not in table] + [g for g in table if g not in GAMES]


@pytest.mark.parametrize("name", sorted(TABLES))
def test_each_table_has_an_entry_for_every_game_and_no_other(name: str) -> None:
    missing = uncovered(TABLES[name])
    assert not missing, f"{name} does not match splash.games.GAMES for: {', '.join(missing)}"


def test_a_table_without_a_game_is_caught() -> None:
    partial = {game: None for game in list(GAMES)[1:]}
    assert uncovered(partial) == [next(iter(GAMES))]
    assert uncovered({**dict.fromkeys(GAMES), "chess": None}) == ["chess"]
