"""The application factory: :func:`create_app` (nothing is connected before it runs).

The lifespan opens the database (creating the tables), starts the worker threads and
resumes every game under way; it closes them again at shutdown.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from splash.server import storage
from splash.server.api.routes import health, i18n, play, replays, rooms, seats
from splash.server.hub import RoomHub
from splash.server.room import Runtime
from splash.server.settings import ServerSettings
from splash.server.throttle import CreationThrottle

log = logging.getLogger("splash.server")


def static_dir() -> Path:
    """The folder of the web pages shipped in the package (``splash/web/static``)."""
    return Path(str(resources.files("splash.web") / "static"))


def create_app(settings: ServerSettings | None = None) -> FastAPI:
    """The play server's application for ``settings`` (the defaults when ``None``)."""
    settings = settings or ServerSettings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = storage.make_engine(settings.database_url)
        await asyncio.to_thread(storage.create_schema, engine=engine)
        executor = ThreadPoolExecutor(settings.workers, thread_name_prefix="splash-work")
        physics = ThreadPoolExecutor(1, thread_name_prefix="splash-physics")
        hub = RoomHub(Runtime(engine, executor, physics), max_open_rooms=settings.max_open_rooms)
        app.state.settings = settings
        app.state.throttle = CreationThrottle(settings.room_creations_per_minute)
        app.state.engine = engine
        app.state.hub = hub
        resumed = await hub.resume_all()
        log.info("splash server ready (%d games resumed)", resumed)
        try:
            yield
        finally:
            await hub.close()
            executor.shutdown(wait=True, cancel_futures=True)
            physics.shutdown(wait=True, cancel_futures=True)
            engine.dispose()

    app = FastAPI(title="splash", version="1", lifespan=lifespan)
    for module in (health, rooms, seats, replays, play):
        app.include_router(module.router)
    from splash.server.api.routes import catalogue

    app.include_router(catalogue.router)
    app.include_router(i18n.router)
    from splash.server.api.routes import rules

    app.include_router(rules.router)
    folder = static_dir()
    app.mount("/static", StaticFiles(directory=folder), name="static")

    @app.get("/", include_in_schema=False)
    async def home() -> FileResponse:
        return FileResponse(folder / "index.html")

    return app
