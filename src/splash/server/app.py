"""The application factory: :func:`create_app` (nothing is connected before it runs).

The lifespan opens the database (creating the tables), starts the worker threads, closes
the rooms that went idle while the server was down, resumes every game under way and starts
the periodic sweep of idle rooms; it stops them again at shutdown.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from splash.core.i18n import message
from splash.server import storage
from splash.server.api.deps import locale_of, room_moved_response
from splash.server.api.routes import (
    games,
    health,
    i18n,
    metrics,
    play,
    replays,
    requests,
    rooms,
    seats,
)
from splash.server.backup import hold_store
from splash.server.hub import RoomHub, RoomMovedError
from splash.server.leases import (
    IDLE_IN_TRANSACTION_S,
    LOCK_TIMEOUT_S,
    RENEW_S,
    LeaseLostError,
    Leases,
)
from splash.server.load_stats import LoadStats, freeze_heap
from splash.server.metrics import Metrics
from splash.server.room import Runtime
from splash.server.settings import ServerSettings
from splash.server.throttle import CreationThrottle
from splash.server.writer import STALL_ENV, Writer, stall_from_env

log = logging.getLogger("splash.server")


def _problem(found: Mapping[str, Any]) -> str:
    """One refusal of a request's checks: where (the body's field, the query's parameter)
    and what, as pydantic says it (never the value refused, which may be long)."""
    where = [str(part) for part in found.get("loc", ()) if part not in ("body", "query", "path")]
    what = str(found.get("msg", "invalid")).removeprefix("Value error, ")
    return f"{'.'.join(where) or 'body'}: {what}"


def static_dir() -> Path:
    """The folder of the web pages shipped in the package (``splash/web/static``)."""
    return Path(str(resources.files("splash.web") / "static"))


def sweep_period(idle_room_close_s: float) -> float:
    """How often the server looks for idle rooms: a tenth of the idle time, within 1-60 s."""
    return max(1.0, min(60.0, idle_room_close_s / 10))


FENCE_CHECK_S = 0.1
"""How often a process in cluster mode checks whether its leases lapsed."""


async def keep_leases(hub: RoomHub, period: float = RENEW_S) -> None:
    """Renew this process's leases every ``period`` s (at once after a renewal that took
    longer), on the leases' own thread: a take-over never delays it."""
    loop = asyncio.get_running_loop()
    while True:
        started = loop.time()
        try:
            await hub.renew()
        except Exception as error:
            log.error("the leases could not be renewed (%s)", type(error).__name__)
        await asyncio.sleep(max(0.0, period - (loop.time() - started)))


async def take_over_rooms(hub: RoomHub, period: float = RENEW_S) -> None:
    """Take over the rooms in play whose owner died or stalled, every ``period`` s."""
    while True:
        await asyncio.sleep(period)
        try:
            await hub.take_over()
        except Exception as error:
            log.error("the orphaned rooms could not be taken over (%s)", type(error).__name__)


async def watch_fence(hub: RoomHub, app: FastAPI, period: float = FENCE_CHECK_S) -> None:
    """Fence the process off while its leases lapsed (:meth:`RoomHub.check_fence`), not
    ready meanwhile, so that a load balancer that checks sends nobody to it."""
    while True:
        try:
            await hub.check_fence()
        except Exception:
            log.exception("the check of the leases failed")
        app.state.ready = not hub.fenced
        await asyncio.sleep(period)


async def sweep_idle_rooms(hub: RoomHub, period: float) -> None:
    """Close the idle rooms every ``period`` seconds, until cancelled."""
    while True:
        await asyncio.sleep(period)
        try:
            await hub.expire_idle()
        except Exception:
            log.exception("the sweep of idle rooms failed")


def create_app(
    settings: ServerSettings | None = None, *, clock: Callable[[], float] = time.time
) -> FastAPI:
    """The play server's application for ``settings`` (the defaults when ``None``);
    ``clock`` (seconds since the epoch) dates rooms, actions and activity."""
    settings = settings or ServerSettings()
    counted = Metrics.create(settings.instance_name())

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        held = contextlib.ExitStack()  # a restore refuses the store while the server runs
        held.enter_context(hold_store(settings.database_url))
        engine = storage.make_engine(
            settings.database_url,
            idle_in_transaction_s=IDLE_IN_TRANSACTION_S,
            lock_timeout_s=LOCK_TIMEOUT_S,
        )
        upgraded = await asyncio.to_thread(storage.create_schema, engine=engine)
        if upgraded.applied or upgraded.legacy:
            log.info("the store: %s", upgraded.describe())
        executor = ThreadPoolExecutor(settings.workers, thread_name_prefix="splash-work")
        physics = ThreadPoolExecutor(1, thread_name_prefix="splash-physics")
        leases = Leases(engine, settings.instance_name()) if settings.cluster else None
        stall = stall_from_env()
        if stall is not None:
            log.warning(
                "fault hook %s=%d is on: the writer stalls for good after its fence",
                STALL_ENV,
                stall,
            )
        writer = Writer(
            engine,
            fence=leases.fence if leases is not None else None,
            serving=leases.serving if leases is not None else None,
            metrics=counted,
            stall_after=stall,
        )
        writer.start()
        load_stats = LoadStats()
        load_stats.start()
        app.state.load_stats = load_stats
        hub = RoomHub(
            Runtime(engine, executor, physics, writer, counted, clock),
            max_open_rooms=settings.max_open_rooms,
            idle_room_close_s=settings.idle_room_close_s,
            leases=leases,
        )
        counted.watch_rooms(lambda: hub.in_memory)
        app.state.settings = settings
        app.state.throttle = CreationThrottle(settings.room_creations_per_minute)
        app.state.engine = engine
        app.state.hub = hub
        app.state.writer = writer
        app.state.ready = False
        freeze_heap()
        keepers: list[asyncio.Task[None]] = []
        if leases is not None:
            await leases.start(hub.on_notice)
            keepers.append(asyncio.create_task(keep_leases(hub), name="leases"))
        expired = await hub.expire_idle()
        resumed = await hub.resume_all()
        log.info(
            "splash server ready (%d games resumed, %d idle rooms closed)", resumed, len(expired)
        )
        sweeper = None
        if settings.idle_room_close_s:
            sweeper = asyncio.create_task(
                sweep_idle_rooms(hub, sweep_period(settings.idle_room_close_s)),
                name="idle-rooms",
            )
        app.state.ready = True
        if leases is not None:
            keepers.append(asyncio.create_task(take_over_rooms(hub), name="take-over"))
            keepers.append(asyncio.create_task(watch_fence(hub, app), name="fence"))
        try:
            yield
        finally:
            app.state.ready = False
            for task in (sweeper, *keepers):
                if task is not None:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
            app.state.ready = False
            await hub.close()
            await writer.close()
            if leases is not None:
                # Everything acknowledged is committed: the others may take the rooms at once.
                with contextlib.suppress(Exception):
                    await leases.release_all()
                await leases.stop()
            await load_stats.stop()
            log.info(
                "splash server stopped: %d actions and rooms stored in %d transactions",
                writer.stats.jobs,
                writer.stats.transactions,
            )
            executor.shutdown(wait=True, cancel_futures=True)
            physics.shutdown(wait=True, cancel_futures=True)
            engine.dispose()
            held.close()

    app = FastAPI(title="splash", version="1", lifespan=lifespan)
    app.state.metrics = counted

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        detail = error.detail
        code = detail.get("code") if isinstance(detail, dict) else None
        counted.error_sent(str(code or f"http_{error.status_code}"), "http")
        return await http_exception_handler(request, error)

    @app.exception_handler(RoomMovedError)
    @app.exception_handler(LeaseLostError)
    async def room_moved(request: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, RoomMovedError | LeaseLostError)
        locale = locale_of(request.query_params.get("lang"), request.headers.get("accept-language"))
        counted.error_sent("room_moved", "http")
        return room_moved_response(error.room_id, locale)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, RequestValidationError)
        locale = locale_of(request.query_params.get("lang"), request.headers.get("accept-language"))
        problems = [_problem(found) for found in error.errors()]
        counted.error_sent("bad_request", "http")
        text = message("the request is not valid: {problems}", problems="; ".join(problems))
        return JSONResponse(
            {"detail": {"code": "bad_request", "message": text.render(locale)}}, status_code=422
        )

    for module in (health, metrics, rooms, seats, replays, play, games, requests):
        app.include_router(module.router)
    app.include_router(i18n.router)
    from splash.server.api.routes import rules

    app.include_router(rules.router)
    folder = static_dir()
    app.mount("/static", StaticFiles(directory=folder), name="static")

    @app.get("/", include_in_schema=False)
    async def home() -> FileResponse:
        return FileResponse(folder / "index.html")

    return app
