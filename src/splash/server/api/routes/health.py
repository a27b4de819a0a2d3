"""``/api/health``: the server answers, and so does its database; ``/api/health/ready``:
it takes new games (a load balancer sends players only to a ready server);
``/api/health/load``: where the process's time went (event-loop lag, GC, commits)."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request, Response
from sqlalchemy import text

from splash.server.api.deps import EngineDep
from splash.server.load_stats import LoadStats
from splash.server.protocol import WS_FORMAT
from splash.server.schemas import Health, Load, Readiness
from splash.server.writer import Writer

router = APIRouter(prefix="/api/health", tags=["health"])


def _ping(engine: object) -> None:
    with engine.connect() as conn:  # type: ignore[attr-defined]
        conn.execute(text("SELECT 1"))


@router.get("")
async def health(engine: EngineDep) -> Health:
    """``ok`` when a query goes through."""
    await asyncio.to_thread(_ping, engine)
    return Health(status="ok", database="ok", protocol=WS_FORMAT)


@router.get("/ready", responses={503: {"model": Readiness}})
async def ready(request: Request, response: Response) -> Readiness:
    """``ready`` (200) once the server has started and until it begins to stop; else 503."""
    state = request.app.state
    writer = getattr(state, "writer", None)
    writing = writer is not None and writer.running
    stopping = bool(getattr(state, "stopping", False))
    is_ready = bool(getattr(state, "ready", False)) and writing and not stopping
    if not is_ready:
        response.status_code = 503
    return Readiness(status="ready" if is_ready else "not_ready", writer=writing, stopping=stopping)


def _load(request: Request) -> tuple[LoadStats, Writer]:
    state = request.app.state
    return state.load_stats, state.writer


@router.get("/load")
async def load(request: Request) -> Load:
    """Event-loop lag, GC pauses and the writer's transactions since the last reset."""
    stats, writer = _load(request)
    w = writer.stats
    return Load(
        loop_lag_p50_ms=stats.lag_ms(50),
        loop_lag_p99_ms=stats.lag_ms(99),
        loop_lag_max_ms=stats.lag_ms(100),
        gc_collections=[stats.gc_count(g) for g in range(3)],
        gc_longest_ms=[stats.gc_max_ms(g) for g in range(3)],
        gc_total_ms=stats.gc_total_ms(),
        transactions=w.transactions,
        jobs=w.jobs,
        largest_batch=w.largest_batch,
        commit_ms_mean=w.commit_s / w.transactions * 1000 if w.transactions else 0.0,
        commit_ms_max=w.longest_commit_s * 1000,
    )


@router.post("/load/reset", status_code=204)
async def reset_load(request: Request) -> None:
    """Start the figures of ``/api/health/load`` from zero."""
    stats, writer = _load(request)
    stats.reset()
    writer.stats.reset()
