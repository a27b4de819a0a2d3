"""The server from the environment, for ``uvicorn --factory splash.server.main:app``.

``SPLASH_SERVER_DATABASE_URL`` and the other ``SPLASH_SERVER_*`` variables configure it
(see :class:`~splash.server.settings.ServerSettings`).
"""

from __future__ import annotations

from fastapi import FastAPI

from splash.server.app import create_app
from splash.server.settings import ServerSettings


def app() -> FastAPI:
    """A new application configured from the environment."""
    return create_app(ServerSettings.from_env())
