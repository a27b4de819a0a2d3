"""``/api/health``: the server answers, and so does its database."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter
from sqlalchemy import text

from splash.server.api.deps import EngineDep
from splash.server.protocol import WS_FORMAT
from splash.server.schemas import Health

router = APIRouter(prefix="/api/health", tags=["health"])


def _ping(engine: object) -> None:
    with engine.connect() as conn:  # type: ignore[attr-defined]
        conn.execute(text("SELECT 1"))


@router.get("")
async def health(engine: EngineDep) -> Health:
    """``ok`` when a query goes through."""
    await asyncio.to_thread(_ping, engine)
    return Health(status="ok", database="ok", protocol=WS_FORMAT)
