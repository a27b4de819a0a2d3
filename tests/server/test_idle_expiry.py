"""Rooms nobody plays any more are closed by the server (``idle_room_close_s``), as their
host would close them, while it runs and at its start; the clock is a fake one that the tests
move on, and the sweep is called directly."""

from __future__ import annotations

import asyncio

import pydantic
import pytest
from starlette.websockets import WebSocketDisconnect

from splash.server.app import sweep_idle_rooms, sweep_period
from splash.server.hub import RoomHub
from splash.server.protocol import CLOSE_ROOM_CLOSED
from splash.server.settings import ServerSettings
from tests.server.conversation import (
    SMALL_BASH,
    create_room,
    join,
    msg,
    receive,
    receive_until,
    take_seat,
)
from tests.server.harness import FakeClock, Serve, ServerClient

IDLE = 100.0
START = 1_700_000_000.0


def sweep(client: ServerClient) -> set[str]:
    """Run one sweep of idle rooms in the application's event loop."""
    return set(client.call(client.hub.expire_idle))


async def _leave_all(hub: RoomHub, room_id: str) -> None:
    room = hub.cached(room_id)
    assert room is not None
    for member in list(room.members):
        await hub.leave(room, member)


def forget_connections(client: ServerClient, room: str) -> None:
    """Make sure the room forgot the connections the test closed: the test client may stop
    a socket's handler before it does (a second leave changes nothing)."""
    client.call(_leave_all, client.hub, room)


def test_idle_rooms_are_closed_as_their_host_would_and_active_ones_are_kept(
    serve: Serve, database_url: str
) -> None:
    clock = FakeClock(START)
    with serve(database_url=database_url, clock=clock, idle_room_close_s=IDLE) as client:
        lonely = create_room(client, game="bash", settings=SMALL_BASH)
        refereed = create_room(client, game="tower", mode="referee")
        seated = create_room(client, game="bash", settings=SMALL_BASH)
        played = create_room(client, game="bash", settings=SMALL_BASH)
        ids = [r["room"]["id"] for r in (lonely, refereed, seated, played)]
        seat0 = take_seat(client, ids[3], 0)
        take_seat(client, ids[3], 1)
        assert sweep(client) == set()
        clock.advance(60)
        take_seat(client, ids[2], 0)  # a seat taken is activity
        with client.websocket_connect(f"/ws/rooms/{ids[3]}") as ws:
            welcome = join(ws, seat0)  # a join is activity, and so is the action
            ws.send_json(msg("act", action=welcome["view"]["legal_actions"][0], expect=0))
            receive_until(ws, "ack")
        forget_connections(client, ids[3])
        clock.advance(IDLE - 60)
        assert sweep(client) == set(), "exactly IDLE seconds is not yet too long"
        clock.advance(1)
        assert sweep(client) == {ids[0], ids[1]}
        assert sweep(client) == set(), "a closed room is not closed again"

        hub = client.hub
        for room, host in ((ids[0], lonely["host_token"]), (ids[1], refereed["host_token"])):
            assert hub.cached(room) is None
            row = client.stored(room)
            assert (row.status, row.closed_by) == ("closed", "idle")
            assert client.get(f"/api/rooms/{room}").json()["status"] == "closed"
            again = client.delete(f"/api/rooms/{room}", headers={"Authorization": f"Bearer {host}"})
            assert again.status_code == 409
            assert "without play" in again.json()["detail"]["message"]
        assert len(client.get(f"/api/rooms/{ids[1]}/replay").json()["actions"]) == 0
        assert {r["id"] for r in client.get("/api/rooms").json()} == {ids[2], ids[3]}
        refused = client.post(f"/api/rooms/{ids[0]}/seats/0", json={"name": "late"})
        assert refused.status_code == 409 and refused.json()["detail"]["code"] == "room_closed"
        assert "without play" in refused.json()["detail"]["message"]
        with client.websocket_connect(f"/ws/rooms/{ids[0]}") as ws:
            ws.send_json(msg("join"))
            error = receive(ws)
            assert error["type"] == "error"
            assert (error["code"], error["reason"]) == ("room_closed", "idle")
            assert "without play" in error["message"]
            with pytest.raises(WebSocketDisconnect) as gone:
                ws.receive_json()
            assert gone.value.code == CLOSE_ROOM_CLOSED
        assert hub.cached(ids[0]) is None

        assert client.stored(ids[2]).last_activity == START + 60
        assert client.room(ids[3]).last_activity == START + 60
        clock.advance(60)
        assert sweep(client) == {ids[2], ids[3]}
        assert client.stored(ids[3]).closed_by == "idle"


def test_an_open_connection_keeps_a_room_and_its_end_counts_as_activity(
    serve: Serve,
) -> None:
    clock = FakeClock(START)
    with serve(clock=clock, idle_room_close_s=IDLE) as client:
        room = create_room(client, game="bash", settings=SMALL_BASH)["room"]["id"]
        with client.websocket_connect(f"/ws/rooms/{room}") as ws:
            join(ws)
            clock.advance(3 * IDLE)
            assert sweep(client) == set(), "a room someone watches is not idle"
        forget_connections(client, room)
        clock.advance(IDLE)
        assert sweep(client) == set(), "the connection ended IDLE seconds ago"
        clock.advance(1)
        assert sweep(client) == {room}


def test_a_server_closes_at_its_start_the_rooms_that_went_idle_while_it_was_down(
    serve: Serve, database_url: str
) -> None:
    clock = FakeClock(START)
    with serve(database_url=database_url, clock=clock, idle_room_close_s=IDLE) as client:
        old = create_room(client, game="bash", settings=SMALL_BASH)["room"]["id"]
        clock.advance(80)
        recent = create_room(client, game="bash", settings=SMALL_BASH, bots=[None, "random"])
        recent_id = recent["room"]["id"]
        clock.advance(10)
        take_seat(client, recent_id, 0)  # playing: the bot waits for seat 0
    clock.advance(20)
    with serve(database_url=database_url, clock=clock, idle_room_close_s=IDLE) as client:
        hub = client.hub
        assert (client.stored(old).status, client.stored(old).closed_by) == ("closed", "idle")
        assert hub.cached(old) is None
        resumed = hub.cached(recent_id)
        assert resumed is not None and resumed.status == "playing"
        assert resumed.last_activity == START + 90, "the seat taken was stored as activity"
        assert [r["id"] for r in client.get("/api/rooms").json()] == [recent_id]
    with serve(database_url=database_url, clock=clock, idle_room_close_s=0) as client:
        clock.advance(10 * IDLE)
        assert sweep(client) == set(), "0 closes nothing"
        assert client.hub.cached(recent_id) is not None


def test_the_idle_time_has_a_default_an_environment_variable_and_a_floor() -> None:
    assert ServerSettings().idle_room_close_s == 86400
    configured = ServerSettings.from_env({"SPLASH_SERVER_IDLE_ROOM_CLOSE_S": "0"})
    assert configured.idle_room_close_s == 0
    assert (
        ServerSettings.from_env({"SPLASH_SERVER_IDLE_ROOM_CLOSE_S": "90"}).idle_room_close_s == 90
    )
    for bad in ("-1", "soon"):
        with pytest.raises(pydantic.ValidationError):
            ServerSettings.from_env({"SPLASH_SERVER_IDLE_ROOM_CLOSE_S": bad})
    assert sweep_period(86400) == 60
    assert sweep_period(100) == 10
    assert sweep_period(2) == 1


class FlakyHub(RoomHub):
    """A hub whose first sweep fails; the third stops the sweeping task (it holds no rooms:
    the sweep calls nothing else)."""

    def __init__(self) -> None:
        self.calls = 0

    async def expire_idle(self) -> list[str]:
        self.calls += 1
        if self.calls == 1:
            raise RuntimeError("the database is away")
        if self.calls == 3:
            task = asyncio.current_task()
            assert task is not None
            task.cancel()
        return []


def test_the_periodic_sweep_goes_on_after_a_failure() -> None:
    hub = FlakyHub()

    async def main() -> None:
        with pytest.raises(asyncio.CancelledError):
            await asyncio.create_task(sweep_idle_rooms(hub, 0))

    asyncio.run(main())
    assert hub.calls == 3
