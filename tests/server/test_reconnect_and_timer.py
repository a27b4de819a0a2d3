"""Seats over time: reconnecting with the token, and the turn timer's bot for an absent seat."""

from __future__ import annotations

import threading

import pytest

from splash.core.actions import Action
from splash.core.protocol import State
from tests.server.conversation import (
    SMALL_BASH,
    create_room,
    join,
    msg,
    receive_until,
    take_seat,
)
from tests.server.harness import ServerClient
from tests.server.messages import RoomOptionsBody, UpdateMessage


def test_reconnecting_with_the_token_resumes_where_the_seat_left_off(client: ServerClient) -> None:
    room = create_room(client, game="bash", settings=SMALL_BASH)["room"]["id"]
    tokens = [take_seat(client, room, 0), take_seat(client, room, 1)]
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        welcome = join(ws, tokens[0])
        ws.send_json(msg("act", action=welcome["view"]["legal_actions"][1]))
        update, _ = receive_until(ws, "update")
    with client.websocket_connect(f"/ws/rooms/{room}") as watcher:
        join(watcher, tokens[1])
        with client.websocket_connect(f"/ws/rooms/{room}") as ws:
            again = join(ws, tokens[0])
            seats, _ = receive_until(watcher, "seats")
            assert seats["seats"][0]["connected"] is True
        seats, _ = receive_until(watcher, "seats")
        assert seats["seats"][0]["connected"] is False
    assert again["index"] == 1 and again["seat"] == 0
    assert again["view"] == update["view"]
    assert again["view"] == client.room(room).state.view(0)


def test_the_timer_bot_plays_the_turn_of_a_seat_that_does_not_act(client: ServerClient) -> None:
    options: RoomOptionsBody = {"turn_timer_s": 0.05, "timer_bot": "random"}
    room = create_room(
        client, game="bash", settings=SMALL_BASH, bots=[None, "random"], options=options
    )["room"]["id"]
    take_seat(client, room, 0)
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        welcome = join(ws)
        assert welcome["timer"] == 0.05
        timed: list[UpdateMessage] = []
        while len(timed) < 3:
            update, _ = receive_until(ws, "update")
            if update["source"] == "timer":
                timed.append(update)
    assert all(u["actor"] == 0 for u in timed)
    assert [u["index"] for u in timed][:2] == [0, 1]


def test_the_timer_waits_for_a_seat_that_acts_in_time(client: ServerClient) -> None:
    options: RoomOptionsBody = {"turn_timer_s": 30}
    room = create_room(
        client, game="bash", settings=SMALL_BASH, bots=[None, "random"], options=options
    )["room"]["id"]
    token = take_seat(client, room, 0)
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        welcome = join(ws, token)
        ws.send_json(msg("act", action=welcome["view"]["legal_actions"][0]))
        update, _ = receive_until(ws, "update")
    assert update["source"] == "human" and update["index"] == 0
    room_state = client.room(room)
    assert room_state._timer is not None and not room_state._timer.done()


def test_a_thinking_bot_does_not_block_the_server(
    client: ServerClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from splash.server import room as room_module
    from splash.server import rules

    release = threading.Event()
    outcome: list[bool] = []
    original = rules.bot_action

    def slow_bot(spec: str, state: State, *, seed: int, index: int) -> Action:
        outcome.append(release.wait(timeout=20))
        return original(spec, state, seed=seed, index=index)

    monkeypatch.setattr(room_module, "bot_action", slow_bot)
    # greedy thinks in a worker thread (random, a light bot, plays on the event loop)
    room = create_room(client, game="bash", settings=SMALL_BASH, bots=[None, "greedy"])["room"][
        "id"
    ]
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        join(ws)
        take_seat(client, room, 0, bot="greedy")
        state, _ = receive_until(ws, "state")
        assert state["status"] == "playing"
        ws.send_json(msg("ping", ref="p"))
        pong, seen = receive_until(ws, "pong")
        assert pong["ref"] == "p"
        assert not [d for d in seen if d["type"] == "update"]
        assert client.get(f"/api/rooms/{room}").json()["actions"] == 0
        release.set()
        update, _ = receive_until(ws, "update")
    assert update["source"] == "bot" and outcome[0] is True
