"""``/metrics``: the process's metrics for Prometheus (:mod:`splash.server.metrics`), in the
text format (or OpenMetrics, when the scraper's ``Accept`` asks for it)."""

from __future__ import annotations

import logging

from fastapi import APIRouter, Request, Response

from splash.server.metrics import Metrics

router = APIRouter(tags=["health"])
log = logging.getLogger("splash.server")


@router.get("/metrics", include_in_schema=False)
async def metrics(request: Request) -> Response:
    """Every series of this process, the rooms open in the database counted now."""
    counted: Metrics = request.app.state.metrics
    hub = getattr(request.app.state, "hub", None)
    if hub is not None:
        try:
            counted.rooms_open.set(await hub.count_open())
        except Exception as error:  # the other series still answer; this one keeps its value
            log.warning("the open rooms could not be counted (%s)", type(error).__name__)
    body, content_type = counted.render(request.headers.get("accept"))
    return Response(body, media_type=content_type)
