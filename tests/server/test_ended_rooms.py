"""What a server keeps of the games that ended: a few rooms nobody is connected to, and no
connection's state once its socket closed; the rooms dropped from memory still replay, and
their joins still work, from storage."""

from __future__ import annotations

import asyncio

from splash.server import storage
from tests.server.conversation import SMALL_BASH, create_room, join, receive_until
from tests.server.harness import ServerClient


def wait_over(client: ServerClient, rooms: list[str]) -> None:
    """Wait until the game of every room in ``rooms`` is over (as stored)."""
    for _ in range(600):
        statuses = [client.stored(room).status for room in rooms]
        if all(status == "over" for status in statuses):
            return
        client.call(asyncio.sleep, 0.05)
    raise AssertionError(f"the games did not end: {statuses}")


def bot_rooms(client: ServerClient, n: int) -> list[str]:
    """``n`` rooms of two ``random`` bots, playing by themselves."""
    return [
        create_room(client, game="bash", settings=SMALL_BASH, bots=["random", "random"])["room"][
            "id"
        ]
        for _ in range(n)
    ]


async def _tasks() -> list[str]:
    return sorted(task.get_name() for task in asyncio.all_tasks())


def test_only_the_last_ended_rooms_stay_in_memory_and_the_others_replay_from_storage(
    client: ServerClient,
) -> None:
    client.hub.ended_rooms_kept = 2
    before = client.hub.in_memory
    rooms = bot_rooms(client, 5)
    wait_over(client, rooms)
    assert client.hub.in_memory == before + 2
    dropped = [room for room in rooms if client.hub.cached(room) is None]
    assert len(dropped) == 3
    for room in dropped:
        stored = storage.load_actions(engine=client.engine, room_id=room)
        replay = client.get(f"/api/rooms/{room}/replay")
        assert replay.status_code == 200
        assert len(replay.json()["actions"]) == len(stored)
        assert client.get(f"/api/rooms/{room}").json()["status"] == "over"
    assert client.hub.in_memory == before + 2


def test_a_room_whose_game_ended_leaves_memory_when_its_last_socket_closes(
    client: ServerClient,
) -> None:
    client.hub.ended_rooms_kept = 0
    tasks = client.call(_tasks)
    before = client.hub.in_memory
    (room,) = bot_rooms(client, 1)
    with (
        client.websocket_connect(f"/ws/rooms/{room}") as first,
        client.websocket_connect(f"/ws/rooms/{room}") as second,
    ):
        for ws in (first, second):
            if join(ws)["status"] != "over":
                while ws.receive_json().get("status") != "over":
                    pass
        wait_over(client, [room])
        assert len(client.room(room).members) == 2
    for _ in range(100):
        if client.hub.cached(room) is None:
            break
        client.call(asyncio.sleep, 0.02)
    assert client.hub.cached(room) is None
    assert client.hub.in_memory == before
    assert client.call(_tasks) == tasks


def test_joins_of_a_room_dropped_from_memory_share_one_room_again(client: ServerClient) -> None:
    client.hub.ended_rooms_kept = 0
    (room,) = bot_rooms(client, 1)
    wait_over(client, [room])
    assert client.hub.cached(room) is None
    length = len(storage.load_actions(engine=client.engine, room_id=room))
    with (
        client.websocket_connect(f"/ws/rooms/{room}") as first,
        client.websocket_connect(f"/ws/rooms/{room}") as second,
    ):
        for ws in (first, second):
            welcome = join(ws)
            assert welcome["status"] == "over" and welcome["index"] == length
        kept = client.room(room)
        assert len(kept.members) == 2
        first.send_json({"format": "splash/ws/1", "type": "sync"})
        state, _ = receive_until(first, "state")
        assert state["index"] == length
    for _ in range(100):
        if client.hub.cached(room) is None:
            break
        client.call(asyncio.sleep, 0.02)
    assert client.hub.cached(room) is None
