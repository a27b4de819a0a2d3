"""Fixtures of the server tests: databases (SQLite, and PostgreSQL when one is given) and
clients of an application running in the test process.

``SPLASH_TEST_POSTGRES_URL`` names a PostgreSQL server whose role may create databases;
each test that uses it gets a database of its own, dropped afterwards.  Without the variable
the PostgreSQL tests are skipped, except under ``CI=true``, where they fail.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Unpack

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from splash.server.app import create_app
from splash.server.settings import ServerSettings
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
    admin = make_url(postgres_admin_url())
    name = f"splash_test_{uuid.uuid4().hex[:12]}"
    engine = create_engine(admin, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield admin.set(database=name).render_as_string(hide_password=False)
    finally:
        with engine.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        engine.dispose()


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
