"""Fixtures for the Splash! rules tests."""

from __future__ import annotations

import pytest

from splash.games.tower import TowerGame


@pytest.fixture(scope="session")
def game() -> TowerGame:
    """Four players, highest-matching placement, the shipped catalogue."""
    return TowerGame()


@pytest.fixture(scope="session")
def top_game() -> TowerGame:
    """The Czech placement rule: on the top piece."""
    return TowerGame.from_settings([("options.placement", "top")])
