"""``/api/health/load``: how late the event loop wakes, the garbage collections and the
writer's transactions since the last reset; the heap of start-up is frozen."""

from __future__ import annotations

import asyncio
import gc
import time

from splash.server.load_stats import LAG_PERIOD_S, GcPauses, LoopLag
from tests.server.conversation import SMALL_BASH, create_room, join, msg, receive_until, take_seat
from tests.server.harness import ServerClient


def test_a_full_collection_is_timed_as_generation_2() -> None:
    pauses = GcPauses()
    pauses.install()
    try:
        gc.collect()
    finally:
        pauses.uninstall()
    assert len(pauses.pauses[2]) == 1
    assert pauses.pauses[2][0] > 0
    gc.collect()
    assert len(pauses.pauses[2]) == 1, "uninstalled: no longer timed"


def test_a_loop_blocked_for_100_ms_is_seen_late_by_about_that_much() -> None:
    async def blocked() -> LoopLag:
        lag = LoopLag()
        lag.start()
        await asyncio.sleep(3 * LAG_PERIOD_S)
        time.sleep(0.1)  # the loop can run nothing meanwhile
        await asyncio.sleep(3 * LAG_PERIOD_S)
        await lag.stop()
        return lag

    lag = asyncio.run(blocked())
    assert max(lag.lateness) >= 0.1 - LAG_PERIOD_S


def test_the_load_route_counts_the_writer_s_commits_from_its_reset(client: ServerClient) -> None:
    assert gc.get_freeze_count() > 0, "the start-up heap is frozen"
    room = create_room(client, game="bash", settings=SMALL_BASH, bots=[None, "random"])["room"][
        "id"
    ]
    token = take_seat(client, room, 0)
    assert client.post("/api/health/load/reset").status_code == 204
    assert client.get("/api/health/load").json()["transactions"] == 0
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        view = join(ws, token)["view"]
        ws.send_json(msg("act", action=view["legal_actions"][0], ref=1))
        receive_until(ws, "ack")
    load = client.get("/api/health/load").json()
    assert load["transactions"] >= 1 and load["jobs"] >= 1
    assert load["commit_ms_max"] > 0
    assert len(load["gc_collections"]) == 3
    assert load["loop_lag_max_ms"] >= load["loop_lag_p50_ms"] >= 0
