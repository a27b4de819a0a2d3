"""Fixtures of the fast core's tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fast.decks import every_primitive_data, write_data_dir


@pytest.fixture
def primitives_dir(tmp_path: Path) -> Path:
    """A ``--data`` folder whose decks use every primitive."""
    return write_data_dir(tmp_path, every_primitive_data())
