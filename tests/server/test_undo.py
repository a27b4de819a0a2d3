"""Takebacks over the socket: a referee's last entries, a person's move against a bot (the
same roll comes again: no re-roll), requests among people; the stored log only grows."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import WebSocketTestSession

from splash.core.protocol import CHANCE
from splash.server import storage
from splash.server.line import UNDO_SOURCE, line_of_play
from splash.server.undo import UNDO_ANSWER_S
from tests.server.conversation import (
    SMALL_BASH,
    create_room,
    join,
    msg,
    pending_chance,
    receive,
    receive_until,
    take_seat,
)
from tests.server.harness import FakeClock, Serve, ServerClient


def until(ws: WebSocketTestSession, kind: str) -> Any:
    for _ in range(2000):
        doc: Any = receive(ws)
        if doc["type"] == kind:
            return doc
    raise AssertionError(f"no {kind}")


def test_a_referee_takes_back_two_rolls_down_to_the_start(client: ServerClient) -> None:
    created = create_room(client, game="bash", mode="referee", settings=SMALL_BASH)
    room, token = created["room"]["id"], str(created["referee_token"])
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        welcome = join(ws, token)
        ws.send_json(msg("undo"))
        assert until(ws, "error")["code"] == "nothing_to_undo"
        start = welcome["index"]
        doc: Any = welcome
        entered = 0
        while entered < 2:
            if doc["view"]["to_act"] == CHANCE and "outcomes" in pending_chance(doc):
                ws.send_json(msg("outcome", action=pending_chance(doc)["outcomes"][0]))
                entered += 1
            else:
                ws.send_json(msg("act", action=doc["view"]["legal_actions"][0]))
            doc, _ = receive_until(ws, "update")
        length = client.room(room).index
        ws.send_json(msg("undo", expect=length + 5))
        assert until(ws, "error")["code"] == "stale"
        seen = []
        while client.room(room).index > start:
            ws.send_json(msg("undo", expect=client.room(room).index))
            undone = until(ws, "undone")
            seen.append(undone["index"])
            assert undone["by"] == CHANCE and undone["taken"] >= 1
        assert seen == sorted(seen, reverse=True) and seen[-1] == start
        ws.send_json(msg("undo"))
        assert until(ws, "error")["code"] == "nothing_to_undo"
    rows = storage.load_actions(engine=client.engine, room_id=room)
    assert sum(r.source == UNDO_SOURCE for r in rows) == len(seen)
    assert len(line_of_play(rows).entries) == start == client.room(room).index


def play_until_own_move(ws: WebSocketTestSession, doc: Any, seat: int) -> Any:
    while not (doc["view"]["to_act"] == seat and doc["view"]["legal_actions"]):
        doc = until(ws, "update")
    return doc


def test_against_a_bot_a_move_taken_back_and_played_again_draws_the_same_roll(
    client: ServerClient,
) -> None:
    room = create_room(client, game="bash", settings=SMALL_BASH, bots=[None, "random"])["room"]
    token = str(take_seat(client, room["id"], 0))
    with client.websocket_connect(f"/ws/rooms/{room['id']}") as ws:
        doc = play_until_own_move(ws, join(ws, token), 0)
        ws.send_json(msg("undo"))
        assert until(ws, "error")["code"] == "nothing_to_undo"
        held = client.room(room["id"])
        while not any(a.kind == "roll" for a in held.state.history):  # past the set-up
            ws.send_json(msg("act", action=doc["view"]["legal_actions"][0], expect=held.index))
            doc = play_until_own_move(ws, until(ws, "update"), 0)
        index = held.index
        move = doc["view"]["legal_actions"][0]
        ws.send_json(msg("act", action=move, expect=index))
        play_until_own_move(ws, until(ws, "update"), 0)
        first = [a.to_json() for a in client.room(room["id"]).state.history[index:]]
        ws.send_json(msg("undo"))
        undone = until(ws, "undone")
        assert undone["index"] == index and undone["by"] == 0
        assert client.room(room["id"]).index == index
        ws.send_json(msg("act", action=move, expect=index))
        play_until_own_move(ws, until(ws, "update"), 0)
        again = [a.to_json() for a in client.room(room["id"]).state.history[index:]]
    assert len(first) >= 2 and first == again
    assert any(a.get("kind") == "roll" for a in first)


def two_people(client: ServerClient) -> tuple[str, list[str]]:
    room = create_room(client, game="bash", settings=SMALL_BASH)["room"]["id"]
    return room, [str(take_seat(client, room, 0)), str(take_seat(client, room, 1))]


@pytest.mark.parametrize("accept", [True, False])
def test_a_request_between_two_people_accepted_or_refused(
    client: ServerClient, accept: bool
) -> None:
    room, tokens = two_people(client)
    with (
        client.websocket_connect(f"/ws/rooms/{room}") as ws0,
        client.websocket_connect(f"/ws/rooms/{room}") as ws1,
    ):
        doc = play_until_own_move(ws0, join(ws0, tokens[0]), 0)
        join(ws1, tokens[1])
        index = client.room(room).index
        ws0.send_json(msg("act", action=doc["view"]["legal_actions"][0], expect=index))
        until(ws0, "ack")
        ws0.send_json(msg("undo"))
        assert until(ws0, "error")["code"] == "undo_needs_consent"
        ws0.send_json(msg("undo_request"))
        asked = until(ws1, "undo_asked")
        assert asked["by"] == 0 and asked["to"] == index and asked["waiting"] == [1]
        ws0.send_json(msg("undo_request"))
        assert until(ws0, "error")["code"] == "undo_pending"
        ws0.send_json(msg("undo_answer", accept=True))
        assert until(ws0, "error")["code"] == "not_asked"
        ws1.send_json(msg("undo_answer", accept=accept))
        result = until(ws1, "undo_result")
        assert result["accepted"] is accept
        if accept:
            assert until(ws1, "undone")["index"] == index
            assert client.room(room).index == index
        else:
            assert result["reason"] == "refused" and client.room(room).index > index
        ws1.send_json(msg("undo_answer", accept=True))
        assert until(ws1, "error")["code"] == "no_undo_request"


def test_a_person_who_reconnects_during_a_request_is_asked_again_with_the_time_left(
    serve: Serve,
) -> None:
    clock = FakeClock()
    with serve(clock=clock) as client:
        room, tokens = two_people(client)
        with (
            client.websocket_connect(f"/ws/rooms/{room}") as ws0,
            client.websocket_connect(f"/ws/rooms/{room}") as screen,
        ):
            doc = play_until_own_move(ws0, join(ws0, tokens[0]), 0)
            join(screen)
            with client.websocket_connect(f"/ws/rooms/{room}") as ws1:
                join(ws1, tokens[1])
                index = client.room(room).index
                ws0.send_json(msg("act", action=doc["view"]["legal_actions"][0], expect=index))
                until(ws0, "ack")
                ws0.send_json(msg("undo_request"))
                first = until(ws1, "undo_asked")
                assert first["timeout"] == UNDO_ANSWER_S
            clock.advance(12)
            with (
                client.websocket_connect(f"/ws/rooms/{room}") as ws1,
                client.websocket_connect(f"/ws/rooms/{room}") as late,
            ):
                welcome = join(ws1, tokens[1])
                assert welcome["index"] == index + 1
                asked = receive(ws1)
                assert asked["type"] == "undo_asked", asked
                assert (asked["by"], asked["to"], asked["index"]) == (0, index, index + 1)
                assert asked["waiting"] == [1] and asked["timeout"] == UNDO_ANSWER_S - 12
                join(late)
                assert receive(late) == asked, "a screen that joins sees the request too"
                ws1.send_json(msg("undo_answer", accept=True))
                for ws in (ws0, screen, ws1):
                    result = until(ws, "undo_result")
                    assert (result["accepted"], result["answered_by"]) == (True, 1)
                    assert until(ws, "undone")["index"] == index
            assert client.room(room).index == index
            with client.websocket_connect(f"/ws/rooms/{room}") as ws1:
                join(ws1, tokens[1])
                ws1.send_json(msg("ping", ref="after"))
                _, read = receive_until(ws1, "pong")
                assert all(m["type"] != "undo_asked" for m in read), "the request has ended"


def test_an_unanswered_request_times_out(
    client: ServerClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("splash.server.undo.UNDO_ANSWER_S", 0.2)
    room, tokens = two_people(client)
    with (
        client.websocket_connect(f"/ws/rooms/{room}") as ws0,
        client.websocket_connect(f"/ws/rooms/{room}") as ws1,
    ):
        doc = play_until_own_move(ws0, join(ws0, tokens[0]), 0)
        join(ws1, tokens[1])
        index = client.room(room).index
        ws0.send_json(msg("act", action=doc["view"]["legal_actions"][0], expect=index))
        until(ws0, "ack")
        ws0.send_json(msg("undo_request"))
        result = until(ws0, "undo_result")
        assert (result["accepted"], result["reason"]) == (False, "timeout")
        assert client.room(room).index > index


def test_a_restarted_server_resumes_the_line_after_a_takeback(serve: Any) -> None:
    with serve() as client:
        room = create_room(client, game="bash", settings=SMALL_BASH, bots=[None, "random"])
        room_id = room["room"]["id"]
        token = str(take_seat(client, room_id, 0))
        with client.websocket_connect(f"/ws/rooms/{room_id}") as ws:
            doc = play_until_own_move(ws, join(ws, token), 0)
            index = client.room(room_id).index
            ws.send_json(msg("act", action=doc["view"]["legal_actions"][0], expect=index))
            until(ws, "ack")
            ws.send_json(msg("undo"))
            undone = until(ws, "undone")
        line = [a.to_json() for a in client.room(room_id).state.history]
    with serve() as client, client.websocket_connect(f"/ws/rooms/{room_id}") as ws:
        welcome = join(ws, token)
        assert welcome["index"] == index == len(line)
        assert welcome["view"] == undone["view"]
        assert [a.to_json() for a in client.room(room_id).state.history] == line
