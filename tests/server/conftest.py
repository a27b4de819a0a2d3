"""Fixtures of the server tests: databases (SQLite, and PostgreSQL when one is given) and
clients of an application running in the test process.

``SPLASH_TEST_POSTGRES_URL`` names a PostgreSQL server whose role may create databases;
each test that uses it gets a database of its own, dropped afterwards.  Without the variable
the PostgreSQL tests are skipped, except under ``CI=true``, where they fail.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Unpack

import pytest

from splash.server.app import create_app
from splash.server.settings import ServerSettings
from tests.server.drill import scratch_database
from tests.server.harness import Serve, ServerClient, SettingsOverrides

POSTGRES_ENV = "SPLASH_TEST_POSTGRES_URL"


def postgres_admin_url() -> str:
    """The PostgreSQL URL of the environment (skip, or fail under CI, when absent)."""
    url = os.environ.get(POSTGRES_ENV)
    if not url:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{POSTGRES_ENV} is not set: the PostgreSQL tests cannot run under CI")
        pytest.skip(f"{POSTGRES_ENV} is not set")
    return url


@contextmanager
def fresh_postgres() -> Iterator[str]:
    """A new, empty PostgreSQL database for one test; dropped afterwards."""
    with scratch_database(postgres_admin_url()) as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database of each backend."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'splash.db'}"
        return
    with fresh_postgres() as url:
        yield url


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """A fresh SQLite database file."""
    return f"sqlite:///{tmp_path / 'splash.db'}"


@pytest.fixture
def serve(sqlite_url: str) -> Iterator[Serve]:
    """``with serve(**settings) as client`` runs the application (on ``sqlite_url`` unless
    ``database_url`` is given) for the ``with`` block; ``clock=`` replaces its clock."""

    @contextmanager
    def run(
        clock: Callable[[], float] = time.time, **overrides: Unpack[SettingsOverrides]
    ) -> Iterator[ServerClient]:
        values: SettingsOverrides = {"database_url": sqlite_url, "workers": 2}
        values.update(overrides)
        app = create_app(ServerSettings(**values), clock=clock)
        with ServerClient(app) as client:
            yield client

    yield run


@pytest.fixture
def client(serve: Serve) -> Iterator[ServerClient]:
    """A client of an application on a fresh SQLite database."""
    with serve() as running:
        yield running
