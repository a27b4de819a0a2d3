"""Fixtures of Third's tests: the game registered in this process, as ``SPLASH_GAMES``
registers it in a new one, and the server fixtures."""

from __future__ import annotations

from collections.abc import Iterator
from typing import cast

import pytest

from splash.games import GAMES
from splash.games.plugins import VARIABLE, declared_elsewhere
from splash.games.registry import GameDeclaration
from tests.server.conftest import client, serve, sqlite_url

REFERENCE = "tests.third.game:DECLARATION"
"""The value of ``SPLASH_GAMES`` that registers Third."""

__all__ = ["REFERENCE", "client", "registered", "serve", "sqlite_url"]


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[GameDeclaration]:
    """Third in :data:`splash.games.GAMES` for one test: this process read its environment
    before the test could set ``SPLASH_GAMES``, so the test adds what the variable names."""
    (declaration,) = declared_elsewhere({VARIABLE: REFERENCE})
    monkeypatch.setitem(cast(dict[str, GameDeclaration], GAMES), declaration.id, declaration)
    yield declaration
