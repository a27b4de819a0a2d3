"""The play socket refuses bad input with an error message and changes nothing."""

from __future__ import annotations

import json

import pytest
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from splash.server import storage
from tests.server.conversation import (
    SMALL_BASH,
    create_room,
    join,
    msg,
    receive,
    receive_until,
    take_seat,
)
from tests.server.harness import ServerClient
from tests.server.messages import ErrorMessage


def two_humans(client: ServerClient) -> tuple[str, str, str]:
    room = create_room(client, game="bash", settings=SMALL_BASH)["room"]["id"]
    return room, str(take_seat(client, room, 0)), str(take_seat(client, room, 1))


def expect_error(ws: WebSocketTestSession, code: str) -> ErrorMessage:
    doc = receive(ws)
    assert doc["type"] == "error", doc
    assert doc["code"] == code, doc
    assert doc["format"] == "splash/ws/1"
    assert doc["message"]
    return doc


def index_now(ws: WebSocketTestSession) -> int:
    ws.send_json(msg("sync"))
    state, _ = receive_until(ws, "state")
    return int(state["index"])


def test_a_legal_action_is_acknowledged_then_sent_to_every_seat(client: ServerClient) -> None:
    room, tok0, tok1 = two_humans(client)
    with (
        client.websocket_connect(f"/ws/rooms/{room}") as ws0,
        client.websocket_connect(f"/ws/rooms/{room}") as ws1,
    ):
        welcome = join(ws0, tok0)
        assert welcome["role"] == "seat" and welcome["seat"] == 0
        assert welcome["status"] == "playing" and welcome["index"] == 0
        join(ws1, tok1)
        action = welcome["view"]["legal_actions"][0]
        ws0.send_json(msg("act", action=action, ref="a1", expect=0))
        ack, _ = receive_until(ws0, "ack")
        assert ack["ref"] == "a1" and ack["index"] == 0
        update0, _ = receive_until(ws0, "update")
        update1, _ = receive_until(ws1, "update")
        for update in (update0, update1):
            assert update["index"] == 0 and update["action"] == action
            assert update["actor"] == 0 and update["source"] == "human"
        assert update1["view"]["seat"] == 1 and update1["view"]["legal_actions"] == []


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("{not json", "bad_json"),
        ("[1, 2]", "bad_message"),
        (json.dumps({"format": "splash/ws/1"}), "bad_message"),
        (json.dumps({"format": "splash/ws/2", "type": "act"}), "bad_format"),
        (json.dumps({"type": "act"}), "bad_format"),
        (json.dumps(msg("dance")), "unknown_type"),
        (json.dumps(msg("act")), "bad_field"),
        (json.dumps(msg("act", action={"kind": "fly"})), "malformed_action"),
        (json.dumps(msg("act", action=10**6)), "malformed_action"),
        (json.dumps(msg("act", action={"kind": "stay"})), "illegal_action"),
        (json.dumps(msg("act", action={"kind": "start_lane", "lane": "outer"}, expect=5)), "stale"),
        (json.dumps(msg("outcome", action={"kind": "roll", "face": 6})), "not_allowed"),
        (json.dumps(msg("join", token="x")), "not_allowed"),
        (
            json.dumps(msg("act", action={"kind": "start_lane", "lane": "outer"})) + " " * 70_000,
            "too_large",
        ),
    ],
)
def test_bad_messages_get_an_error_and_change_nothing(
    client: ServerClient, raw: str, code: str
) -> None:
    room, tok0, _ = two_humans(client)
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        join(ws, tok0)
        ws.send_text(raw)
        expect_error(ws, code)
        assert index_now(ws) == 0
        ws.send_json(msg("ping", ref=7))
        assert ws.receive_json() == {"format": "splash/ws/1", "type": "pong", "ref": 7}


def test_acting_out_of_turn_is_refused(client: ServerClient) -> None:
    room, _, tok1 = two_humans(client)
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        join(ws, tok1)
        ws.send_json(msg("act", action={"kind": "start_lane", "lane": "outer"}, ref="x"))
        error = expect_error(ws, "not_your_turn")
        assert error["ref"] == "x"
        assert "seat 0" in error["message"]
        assert index_now(ws) == 0


def test_a_wrong_token_is_refused_and_the_socket_closed(client: ServerClient) -> None:
    room, _, _ = two_humans(client)
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        ws.send_json(msg("join", token="not-a-token"))
        expect_error(ws, "bad_token")
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4401


def test_the_first_message_must_join(client: ServerClient) -> None:
    room, _, _ = two_humans(client)
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        ws.send_json(msg("ping"))
        expect_error(ws, "join_first")
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()


def test_an_unknown_room_is_refused(client: ServerClient) -> None:
    with client.websocket_connect("/ws/rooms/nope") as ws:
        expect_error(ws, "room_not_found")
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404


def test_a_spectator_sees_the_public_view_and_cannot_act(client: ServerClient) -> None:
    room, _, _ = two_humans(client)
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        welcome = join(ws)
        assert welcome["role"] == "spectator" and welcome["seat"] is None
        assert welcome["view"]["hand"] is None
        ws.send_json(msg("act", action={"kind": "start_lane", "lane": "outer"}))
        expect_error(ws, "not_allowed")
        ws.send_json(msg("reveal"))
        expect_error(ws, "not_allowed")


def test_nobody_acts_before_every_seat_is_filled(client: ServerClient) -> None:
    room = create_room(client, game="bash", settings=SMALL_BASH)["room"]["id"]
    token = take_seat(client, room, 0)
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        welcome = join(ws, token)
        assert welcome["status"] == "open"
        ws.send_json(msg("act", action={"kind": "start_lane", "lane": "outer"}))
        expect_error(ws, "not_started")
        assert take_seat(client, room, 1, bot="random") is None
        state, _ = receive_until(ws, "state")
        assert state["status"] == "playing"
        assert state["seats"][1] == {
            "seat": 1,
            "kind": "bot",
            "name": None,
            "bot": "random",
            "connected": False,
            "client_seed": None,
        }


def test_errors_are_written_in_the_language_asked_for(client: ServerClient) -> None:
    room, tok0, _ = two_humans(client)
    texts = {}
    for lang in ("en", "fr"):
        with client.websocket_connect(f"/ws/rooms/{room}?lang={lang}") as ws:
            join(ws, tok0)
            ws.send_json(msg("act", action={"kind": "stay"}))
            texts[lang] = expect_error(ws, "illegal_action")["message"]
    assert "not one of the legal actions" in texts["en"]
    assert "pas une des actions permises" in texts["fr"]
    with client.websocket_connect(
        f"/ws/rooms/{room}", headers={"Accept-Language": "fr-FR,fr;q=0.9"}
    ) as ws:
        join(ws, tok0)
        ws.send_json(msg("act", action={"kind": "stay"}))
        assert "pas une des actions permises" in expect_error(ws, "illegal_action")["message"]


def test_an_action_that_cannot_be_stored_is_refused_and_undone(
    client: ServerClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    room, tok0, _ = two_humans(client)

    def broken(**_: object) -> None:
        raise OSError("disk full")

    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        welcome = join(ws, tok0)
        monkeypatch.setattr(storage, "write_actions", broken)
        ws.send_json(msg("act", action=welcome["view"]["legal_actions"][0]))
        expect_error(ws, "storage")
        assert index_now(ws) == 0
        monkeypatch.undo()
        assert client.room(room).state.view(0) == welcome["view"]
        ws.send_json(msg("act", action=welcome["view"]["legal_actions"][0]))
        ack, _ = receive_until(ws, "ack")
        assert ack["index"] == 0


def test_a_team_may_show_its_hand_on_the_public_screens(client: ServerClient) -> None:
    room, tok0, _ = two_humans(client)
    with (
        client.websocket_connect(f"/ws/rooms/{room}") as ws,
        client.websocket_connect(f"/ws/rooms/{room}") as screen,
    ):
        join(ws, tok0)
        assert join(screen)["view"]["revealed_hands"] == {}
        ws.send_json(msg("reveal"))
        shown, _ = receive_until(screen, "state")
        assert shown["view"]["revealed_hands"] == {"0": []}
        ws.send_json(msg("hide"))
        hidden, _ = receive_until(screen, "state")
        assert hidden["view"]["revealed_hands"] == {}
