"""Every acknowledged action is stored; a restarted server resumes every game exactly, and
its chance draws and bots choose what the first process would have chosen."""

from __future__ import annotations

import numpy as np
from starlette.testclient import WebSocketTestSession

from splash.core.protocol import CHANCE
from splash.core.record import GameRecord
from splash.server import storage
from splash.server.rules import bot_action, build_game, chance_action
from tests.server.conversation import (
    SMALL_BASH,
    create_room,
    join,
    msg,
    receive,
    receive_until,
    take_seat,
)
from tests.server.harness import Serve
from tests.server.messages import ServerMessage, WelcomeMessage


def play_some(
    ws: WebSocketTestSession, welcome: WelcomeMessage, count: int, rng: np.random.Generator
) -> list[int]:
    """Take ``count`` random legal actions for the joined seat; the acknowledged indices."""
    acked: list[int] = []
    doc: ServerMessage = welcome
    while len(acked) < count:
        if doc["type"] in ("welcome", "update", "state"):
            view = doc["view"]
            legal = view["legal_actions"]
            if (
                view["to_act"] == doc.get("seat", view["seat"])
                and legal
                and doc["status"] == "playing"
            ):
                index = doc["index"] + (1 if doc["type"] == "update" else 0)
                ws.send_json(msg("act", action=legal[int(rng.integers(len(legal)))], expect=index))
        doc = receive(ws)
        if doc["type"] == "ack":
            acked.append(doc["index"])
    return acked


def check_log_is_deterministic(
    settings: list[str], log: list[storage.ActionRow], seed: int, bots: dict[int, str]
) -> int:
    """Every stored chance outcome and bot choice is what (seed, index) gives; how many."""
    game = build_game("bash", settings, "play")
    state = game.new_initial_state()
    checked = 0
    for row in log:
        if state.to_act() == CHANCE:
            assert chance_action(state, seed=seed, index=row.index).to_json() == row.action
            checked += 1
        elif state.to_act() in bots:
            assert (
                bot_action(bots[state.to_act()], state, seed=seed, index=row.index).to_json()
                == row.action
            )
            checked += 1
        state.apply(game.parse_action(row.action))
    return checked


def test_a_restarted_server_resumes_the_game_where_it_was(serve: Serve, database_url: str) -> None:
    rng = np.random.default_rng(3)
    with serve(database_url=database_url) as client:
        room = create_room(client, game="bash", settings=SMALL_BASH, bots=[None, "random"])["room"][
            "id"
        ]
        token = take_seat(client, room, 0)
        with client.websocket_connect(f"/ws/rooms/{room}") as ws:
            acked = play_some(ws, join(ws, token), 6, rng)
            _, _ = receive_until(ws, "update")
        seed = client.chance_key(room)
        before = client.room(room).state.to_json()
    with serve(database_url=database_url) as client:
        resumed = client.hub.cached(room)
        assert resumed is not None, "a game under way is loaded at start"
        assert resumed.state.to_json() == before
        log = storage.load_actions(engine=client.engine, room_id=room)
        assert {row.index for row in log} >= set(acked)
        assert [row.index for row in log] == list(range(len(log)))
        with client.websocket_connect(f"/ws/rooms/{room}") as ws:
            welcome = join(ws, token)
            # The resumed game goes on by itself where a bot or chance is to act, so the seat
            # may join a few actions later than the log read above: never earlier, and its
            # view is the state after exactly the actions stored up to its index.
            stored = storage.load_actions(engine=client.engine, room_id=room)
            assert len(log) <= welcome["index"] <= len(stored)
            assert [row.action for row in stored[: len(log)]] == [row.action for row in log]
            upto = GameRecord("bash", {}, [row.action for row in stored[: welcome["index"]]])
            assert welcome["view"] == upto.replay(build_game("bash", SMALL_BASH, "play")).view(0)
            play_some(ws, welcome, 6, rng)
        log = storage.load_actions(engine=client.engine, room_id=room)
    assert check_log_is_deterministic(SMALL_BASH, log, seed, {1: "random"}) > 6
    record = GameRecord("bash", {}, [row.action for row in log])
    assert len(record.replay(build_game("bash", SMALL_BASH, "play")).history) == len(log)


def test_a_bot_game_goes_on_by_itself_after_a_restart(serve: Serve) -> None:
    with serve() as client:
        room = create_room(client, game="bash", settings=SMALL_BASH, bots=["random"])["room"]["id"]
        hub = client.hub
        with client.websocket_connect(f"/ws/rooms/{room}") as ws:
            join(ws)
            take_seat(client, room, 1, bot="greedy")
            receive_until(ws, "update")
        stopped = hub.cached(room)
        assert stopped is not None
        stopped_at = stopped.index
    with serve() as client:
        with client.websocket_connect(f"/ws/rooms/{room}") as ws:
            welcome = join(ws)
            assert welcome["index"] >= stopped_at
            if welcome["status"] != "over":
                while ws.receive_json().get("status") != "over":
                    pass
        log = storage.load_actions(engine=client.engine, room_id=room)
        seed = client.chance_key(room)
        assert client.stored(room).status == "over"
    assert check_log_is_deterministic(SMALL_BASH, log, seed, {0: "random", 1: "greedy"}) == len(log)
