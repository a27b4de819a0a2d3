"""``/api/health``: the server answers, and so does its database; ``/api/health/ready``:
it takes new games (a load balancer sends players only to a ready server)."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request, Response
from sqlalchemy import text

from splash.server.api.deps import EngineDep
from splash.server.protocol import WS_FORMAT
from splash.server.schemas import Health, Readiness

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
