"""Every layer's table of games names games of the registry only: a table holds the powers
that are a layer's own (Splash!'s physics, the compiled Splash & Bash core, report
sections, pictures), and a game absent from it gets the layer's common behaviour."""

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
    "splash.sim.runner.SIMULATED": SIMULATED,
    "splash.report.games.REPORTED_GAMES": REPORTED_GAMES,
    "splash.envs.games.ENVIRONMENTS": ENVIRONMENTS,
    "splash.cli.games.GAME_COMMANDS": GAME_COMMANDS,
}
"""The optional table of games of each layer above the rules engines, by its name."""


def strangers(table: Mapping[str, object]) -> list[str]:
    """The ids of ``table`` that are no game of the registry."""
    return [g for g in table if g not in GAMES]


@pytest.mark.parametrize("name", sorted(TABLES))
def test_each_table_names_games_of_the_registry_only(name: str) -> None:
    extra = strangers(TABLES[name])
    assert not extra, f"{name} names no game of splash.games.GAMES: {', '.join(extra)}"


def test_the_bots_name_every_game() -> None:
    assert set(GAMES) <= set(PLAYS)


def test_a_table_with_another_id_is_caught() -> None:
    partial = {game: None for game in list(GAMES)[1:]}
    assert strangers(partial) == []
    assert strangers({**dict.fromkeys(GAMES), "chess": None}) == ["chess"]
