"""Fixtures for the Splash & Bash rules tests."""

from __future__ import annotations

import pytest

from splash.games.bash import BashGame


@pytest.fixture(scope="session")
def game() -> BashGame:
    """The default game: two teams, the shipped board and decks."""
    return BashGame()


@pytest.fixture(scope="session")
def permanent() -> BashGame:
    """The default game with permanent obstacles."""
    return BashGame.from_settings([("options.obstacles", "permanent")])
