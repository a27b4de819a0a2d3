"""A Splash! game over the socket: the physics rules placements off the event loop, and a
restarted server would draw the same outcomes (each from the room's seed and the index)."""

from __future__ import annotations

import json
from typing import cast

import pytest

from splash.core.actions import Json
from splash.core.protocol import CHANCE
from splash.core.record import GameRecord
from splash.games.tower import TowerState
from splash.games.tower.summary import TowerSummary
from splash.server.rules import build_game, chance_action, game_summary, public_view
from tests.server.conversation import (
    action_docs,
    create_room,
    join,
    msg,
    receive,
    receive_until,
    take_seat,
)
from tests.server.harness import ServerClient
from tests.server.messages import ServerMessage, UpdateMessage, View

SETTINGS = ["options.players=2", "options.drops_to_win=1"]


@pytest.mark.slow
def test_a_bot_game_of_splash_is_watched_to_its_end(client: ServerClient) -> None:
    room = create_room(client, game="tower", settings=SETTINGS, bots=["random"])["room"]["id"]
    updates: list[UpdateMessage] = []
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        assert join(ws)["status"] == "open"
        take_seat(client, room, 1, bot="random")
        while True:
            doc = receive(ws)
            if doc["type"] == "update":
                updates.append(doc)
                if doc["status"] == "over":
                    break
    record = GameRecord.from_json(client.get(f"/api/rooms/{room}/replay").json())
    game = build_game("tower", SETTINGS, "play")
    state = game.new_initial_state()
    seed = client.chance_key(room)
    results = 0
    views: dict[int, View] = {}
    for index, action in enumerate(action_docs(record.actions)):
        event = state.chance_event() if state.to_act() == CHANCE and results < 2 else None
        if event is not None and event.kind == "placement":
            assert chance_action(state, seed=seed, index=index).to_json() == action
            results += 1
        state.apply(action)
        view = public_view(state)
        if state.is_terminal():
            view["summary"] = game_summary(state)
        views[index] = json.loads(json.dumps(view))
    assert state.is_terminal() and results == 2
    assert [u["index"] for u in updates] == list(range(len(record.actions)))
    for update in updates:
        assert update["view"] == views[update["index"]]
    assert isinstance(state, TowerState)
    final = updates[-1]["view"]
    assert "summary" in final
    summary = cast(TowerSummary, final["summary"])
    assert [p["drops"] for p in summary["players"]] == state.drops
    assert [p["place"] for p in summary["players"]] == [2 - d for d in state.drops]
    assert summary["placements"] == state.placements


@pytest.mark.slow
def test_a_person_places_with_a_pose_that_the_rules_check(client: ServerClient) -> None:
    # Seat 1 gives first, so seat 0 makes the first placement (T04).
    settings = [*SETTINGS, "options.first_player=1"]
    room = create_room(client, game="tower", settings=settings, bots=[None, "random"])["room"]["id"]
    token = take_seat(client, room, 0)
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        doc: ServerMessage = join(ws, token)
        while True:
            if doc["type"] in ("welcome", "update") and doc["view"]["to_act"] == 0:
                view = doc["view"]
                index = doc["index"] + (1 if doc["type"] == "update" else 0)
                if view["phase"] == "place":
                    break
                ws.send_json(msg("act", action=view["legal_actions"][0], expect=index))
            doc = receive(ws)
        # The first placement goes on the empty table: a centred pose touches nothing (T06).
        assert view["tower"] == []
        bad: Json = {"kind": "place", "face": "nope", "rotation_deg": 0, "x_mm": 0, "y_mm": 0}
        ws.send_json(msg("act", action=bad, expect=index))
        error, _ = receive_until(ws, "error")
        ws.send_json(msg("act", action={"kind": "place"}, expect=index, ref="p"))
        ack, _ = receive_until(ws, "ack")
        update, _ = receive_until(ws, "update")
    assert error["code"] == "illegal_action" and "nope" in error["message"]
    assert ack["ref"] == "p" and ack["index"] == index
    assert update["action"] == {"kind": "place"} and update["source"] == "human"


@pytest.mark.rule("T06")
def test_a_room_created_with_the_static_ruling_is_ruled_by_statics(client: ServerClient) -> None:
    settings = [*SETTINGS, "physics.ruling=statics"]
    room = create_room(client, game="tower", settings=settings, bots=["random"])["room"]["id"]
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        join(ws)
        take_seat(client, room, 1, bot="random")
        while True:
            doc = receive(ws)
            if doc["type"] == "update" and doc["action"].get("kind") == "result":
                outcome = doc["action"]["outcome"]
                break
    assert isinstance(outcome, dict)
    details = outcome.get("details")
    assert isinstance(details, dict)
    assert str(details["method"]).startswith("statics/")
