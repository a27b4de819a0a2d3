"""The server asks the games' declarations and never names a game: no module of
``splash.server`` imports a game package, and no string literal in its source equals a game
id, an action kind or a chance kind of a registered game."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import splash.server
from splash.games import GAMES
from splash.games.registry import GameDeclaration
from tests.conformance.test_layers import imports_in

SERVER = Path(splash.server.__file__).parent
ROOT = SERVER.parent
GAME_PACKAGES = tuple(f"splash.games.{game}" for game in GAMES)
"""The game packages, which the server may not import (``splash.games`` and its registry
are the declarations' way in)."""
SERVER_WORDS = {"play": "options.py"}
"""Words of the server's own that a game uses too, each allowed in the one module that
defines it: ``play``, a room's mode (``splash.server.options.PLAY``), is a Splash & Bash
action kind (playing a card) as well."""


def names_of(declaration: GameDeclaration) -> set[str]:
    """The game's id, and the kinds of its actions and chance events."""
    game = declaration.from_settings([])
    kinds = {action.kind for action in game.action_space}
    return {declaration.id, *kinds, *declaration.chance_kinds}


def game_names() -> dict[str, str]:
    """Every name of every registered game, with the game that has it."""
    return {name: game.id for game in GAMES.values() for name in names_of(game)}


def literals(path: Path) -> Iterator[tuple[int, str]]:
    """Every string constant of ``path`` (docstrings too), with its line."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, node.value


def server_files() -> list[Path]:
    return sorted(SERVER.rglob("*.py"))


def test_no_server_module_imports_a_game_package() -> None:
    found = [
        f"{i.file} imports {i.module}"
        for path in server_files()
        for i in imports_in(path, ROOT)
        if any(i.module == p or i.module.startswith(p + ".") for p in GAME_PACKAGES)
    ]
    assert not found, "the server imports a game:\n" + "\n".join(found)


def test_no_string_literal_of_the_server_names_a_game_or_its_kinds() -> None:
    names = game_names()
    found = [
        f"{path.relative_to(ROOT)}:{line}: {text!r} (a name of {names[text]})"
        for path in server_files()
        for line, text in literals(path)
        if text in names and SERVER_WORDS.get(text) != path.name
    ]
    assert not found, "the server names a game:\n" + "\n".join(found)


def test_the_names_collected_are_the_games_own() -> None:
    names = game_names()
    for game in GAMES.values():
        assert game.id in names
        assert game.chance_kinds <= names.keys()
    assert {"draw", "roll", "steal", "deal", "placement", "place", "result"} <= names.keys()


def test_a_literal_naming_a_game_is_caught(tmp_path: Path) -> None:
    module = tmp_path / "sneaky.py"
    module.write_text('ROOM = {"game": "tower", "kind": "steal"}\n', encoding="utf-8")
    assert {text for _, text in literals(module)} & game_names().keys() == {"tower", "steal"}
