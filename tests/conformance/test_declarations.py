"""Every game's declaration is consistent with its rules engine and with the layers that
read it: the bot levels name bots that play the game, the lobby's options are settings the
game takes, the seats are named up to the most seats, and a referee room may have drawn only
chance events the game has, and the pages it names are there."""

from __future__ import annotations

from pathlib import Path

import pytest

import splash.web
from splash.bots import make_bot
from splash.core.settings import parse_assignment
from splash.games import GAMES, GameDeclaration


@pytest.fixture(params=list(GAMES))
def declaration(request: pytest.FixtureRequest) -> GameDeclaration:
    found: GameDeclaration = GAMES[request.param]
    return found


def test_every_level_is_a_bot_that_plays_the_game(declaration: GameDeclaration) -> None:
    levels = declaration.lobby.ordered()
    assert levels, f"{declaration.id} offers no bot level"
    assert [level.order for level in levels] == sorted({level.order for level in levels})
    for level in levels:
        make_bot(level.spec, 0, game=declaration.id)


def test_every_option_value_is_a_setting_the_game_takes(declaration: GameDeclaration) -> None:
    for choice in declaration.lobby.choices:
        for value in choice.values:
            declaration.from_settings([parse_assignment(f"{choice.key}={value}")])
    lobby = declaration.lobby
    assert declaration.min_seats <= lobby.default_seats <= declaration.max_seats


def test_every_seat_has_a_name(declaration: GameDeclaration) -> None:
    naming = declaration.seat_naming
    names = [naming.name(seat).render("en") for seat in range(declaration.max_seats)]
    assert len(set(names)) == declaration.max_seats


def test_a_referee_room_may_have_drawn_only_the_games_chance(
    declaration: GameDeclaration,
) -> None:
    assert declaration.referee.digital <= declaration.chance_kinds


def test_the_assets_of_the_shipped_game_are_named(declaration: GameDeclaration) -> None:
    assets = declaration.assets(declaration.from_settings([]), "fr")
    assert assets and all(isinstance(name, str) for name in assets)


def test_the_pages_a_game_declares_are_in_the_static_folder(
    declaration: GameDeclaration,
) -> None:
    """The lobby, invite and replay pages open the page and the replay module that the
    declaration names (``GET /api/games``); they must be there."""
    static = Path(splash.web.__file__).parent / "static"
    lobby = declaration.lobby
    assert lobby.page is not None and (static / lobby.page).is_file()
    assert lobby.replay is not None and (static / "js" / lobby.replay).is_file()
