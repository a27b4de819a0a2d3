"""Closing a room with its host token: the refusals, what every connection receives, what the
lobby, the seats, the joins and the replays say afterwards, and a restart that does not resume
it (on SQLite and on PostgreSQL)."""

from __future__ import annotations

import pytest
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from splash.core.protocol import TERMINAL
from splash.server import storage
from splash.server.protocol import CLOSE_ROOM_CLOSED
from tests.server.conversation import (
    SMALL_BASH,
    create_room,
    join,
    msg,
    receive,
    receive_until,
    take_seat,
)
from tests.server.harness import Serve, ServerClient
from tests.server.messages import ClosedMessage


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def two_humans(client: ServerClient) -> tuple[str, str, str, str]:
    """A bash room of two people (nothing moves until one acts): id, host, seat tokens."""
    created = create_room(client, game="bash", settings=SMALL_BASH)
    room = created["room"]["id"]
    return (
        room,
        created["host_token"],
        str(take_seat(client, room, 0)),
        str(take_seat(client, room, 1)),
    )


def expect_closed_socket(ws: WebSocketTestSession) -> None:
    with pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_json()
    assert closed.value.code == CLOSE_ROOM_CLOSED


def test_creating_a_room_returns_a_host_token_shown_once(client: ServerClient) -> None:
    created = create_room(client, game="bash", settings=SMALL_BASH)
    token = created["host_token"]
    assert isinstance(token, str) and len(token) >= 24
    assert created["referee_token"] is None
    room = created["room"]["id"]
    stored = storage.get_room(engine=client.engine, room_id=room)
    assert stored is not None and stored.host_token is not None
    assert token not in stored.host_token and len(stored.host_token) == 64
    shown = client.get(f"/api/rooms/{room}").text + client.get("/api/rooms").text
    assert token not in shown and "host_token" not in shown


def test_closing_is_refused_without_the_host_token(client: ServerClient) -> None:
    room, host, seat0, _ = two_humans(client)
    cases = [
        ({}, 401, "no_token"),
        ({"Authorization": "Basic abc"}, 401, "no_token"),
        (bearer(seat0), 403, "bad_host_token"),
        (bearer(host + "x"), 403, "bad_host_token"),
    ]
    for headers, status, code in cases:
        response = client.delete(f"/api/rooms/{room}", headers=headers)
        assert response.status_code == status, (headers, response.text)
        assert response.json()["detail"]["code"] == code and response.json()["detail"]["message"]
    assert client.delete(f"/api/rooms/{room}").headers["WWW-Authenticate"] == "Bearer"
    missing = client.delete("/api/rooms/nope", headers=bearer(host))
    assert missing.status_code == 404 and missing.json()["detail"]["code"] == "room_not_found"
    assert client.get(f"/api/rooms/{room}").json()["status"] == "playing"
    french = client.delete(f"/api/rooms/{room}?lang=fr").json()["detail"]["message"]
    english = client.delete(f"/api/rooms/{room}").json()["detail"]["message"]
    assert french and english and "Authorization" in english


def test_the_referee_token_referees_and_the_host_token_closes(client: ServerClient) -> None:
    created = create_room(client, game="bash", mode="referee", settings=SMALL_BASH)
    room, host, referee = created["room"]["id"], created["host_token"], created["referee_token"]
    assert referee is not None and host != referee
    refused = client.delete(f"/api/rooms/{room}", headers=bearer(referee))
    assert refused.status_code == 403
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        assert join(ws, referee)["role"] == "referee"
        with client.websocket_connect(f"/ws/rooms/{room}") as other:
            other.send_json(msg("join", token=host))  # the host token opens no seat
            refused = receive(other)
            assert refused["type"] == "error" and refused["code"] == "bad_token"
        closed = client.delete(f"/api/rooms/{room}", headers=bearer(host))
        assert closed.status_code == 200 and closed.json()["status"] == "closed"
        doc, _ = receive_until(ws, "closed")
        expect_closed_socket(ws)
    assert doc == {
        "format": "splash/ws/1",
        "type": "closed",
        "room": room,
        "status": "closed",
        "index": 0,
        "by": "host",
        "reason": "host",
    }


def test_closing_a_running_game_tells_everyone_and_ends_it_without_a_winner(
    serve: Serve, database_url: str
) -> None:
    with serve(database_url=database_url) as client:
        room, host, seat0, seat1 = two_humans(client)
        with (
            client.websocket_connect(f"/ws/rooms/{room}") as ws0,
            client.websocket_connect(f"/ws/rooms/{room}") as ws1,
            client.websocket_connect(f"/ws/rooms/{room}") as watcher,
        ):
            welcome = join(ws0, seat0)
            join(ws1, seat1)
            join(watcher)
            ws0.send_json(msg("act", action=welcome["view"]["legal_actions"][0], expect=0))
            receive_until(ws0, "ack")
            receive_until(ws0, "update")
            response = client.delete(f"/api/rooms/{room}", headers=bearer(host))
            assert response.status_code == 200, response.text
            assert response.json()["status"] == "closed"
            announced: list[ClosedMessage] = []
            for ws in (ws0, ws1, watcher):
                doc, _ = receive_until(ws, "closed")
                announced.append(doc)
                expect_closed_socket(ws)
        length = announced[0]["index"]
        assert length >= 1
        assert all(doc["index"] == length and doc["by"] == "host" for doc in announced)
        assert client.hub.cached(room) is None, "a closed room leaves the memory of the server"
        stored = storage.get_room(engine=client.engine, room_id=room)
        assert stored is not None and stored.status == "closed"
        assert storage.count_actions(engine=client.engine, room_id=room) == length

        again = client.delete(f"/api/rooms/{room}", headers=bearer(host))
        assert again.status_code == 409 and again.json()["detail"]["code"] == "room_closed"
        assert client.get(f"/api/rooms/{room}").json()["status"] == "closed"
        assert room not in [r["id"] for r in client.get("/api/rooms").json()]
        record = client.get(f"/api/rooms/{room}/replay")
        assert record.status_code == 200 and len(record.json()["actions"]) == length
        last = client.get(f"/api/rooms/{room}/replay/{length}").json()
        assert last["length"] == length and last["to_act"] != TERMINAL
        assert len(last["views"]) == 2


def test_a_closed_room_refuses_seats_and_joins(client: ServerClient) -> None:
    created = create_room(client, game="bash", settings=SMALL_BASH)
    room, host = created["room"]["id"], created["host_token"]
    seat0 = take_seat(client, room, 0)
    assert client.delete(f"/api/rooms/{room}", headers=bearer(host)).status_code == 200
    for body in ({"name": "bob"}, {"bot": "random"}):
        refused = client.post(f"/api/rooms/{room}/seats/1", json=body)
        assert refused.status_code == 409
        assert refused.json()["detail"]["code"] == "room_closed"
        assert room in refused.json()["detail"]["message"]
    for token in (seat0, None):
        with client.websocket_connect(f"/ws/rooms/{room}") as ws:
            ws.send_json(msg("join", token=token))
            error = receive(ws)
            assert error["type"] == "error" and error["code"] == "room_closed"
            expect_closed_socket(ws)


def test_a_restarted_server_does_not_resume_a_closed_room(serve: Serve, database_url: str) -> None:
    with serve(database_url=database_url) as client:
        closed = create_room(client, game="bash", settings=SMALL_BASH, bots=[None, "random"])
        running = create_room(client, game="bash", settings=SMALL_BASH, bots=[None, "random"])
        for created in (closed, running):
            take_seat(client, created["room"]["id"], 0)
        room = closed["room"]["id"]
        response = client.delete(f"/api/rooms/{room}", headers=bearer(closed["host_token"]))
        assert response.status_code == 200
        length = response.json()["actions"]
    with serve(database_url=database_url) as client:
        hub = client.hub
        assert hub.cached(running["room"]["id"]) is not None, "a running game is resumed"
        assert hub.cached(room) is None, "a closed one is not"
        assert [r["id"] for r in client.get("/api/rooms").json()] == [running["room"]["id"]]
        assert client.get(f"/api/rooms/{room}").json()["status"] == "closed"
        assert len(client.get(f"/api/rooms/{room}/replay").json()["actions"]) == length
        assert hub.cached(room) is None, "read from storage, and not kept"


def test_reading_a_closed_room_does_not_bring_it_back_into_memory(client: ServerClient) -> None:
    created = create_room(client, game="bash", settings=SMALL_BASH, bots=[None, "random"])
    room, host = created["room"]["id"], created["host_token"]
    seat0 = take_seat(client, room, 0)
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        welcome = join(ws, seat0)
        ws.send_json(msg("act", action=welcome["view"]["legal_actions"][0], expect=0))
        receive_until(ws, "ack")
        closed = client.delete(f"/api/rooms/{room}", headers=bearer(host))
        assert closed.status_code == 200
        doc, _ = receive_until(ws, "closed")
        expect_closed_socket(ws)
    length = doc["index"]
    hub = client.hub
    assert hub.cached(room) is None
    read = client.get(f"/api/rooms/{room}").json()
    assert (read["status"], read["actions"]) == ("closed", length)
    assert len(client.get(f"/api/rooms/{room}/replay").json()["actions"]) == length
    assert client.get(f"/api/rooms/{room}/replay/{length}").json()["length"] == length
    assert client.post(f"/api/rooms/{room}/seats/1", json={"name": "x"}).status_code == 409
    assert client.delete(f"/api/rooms/{room}", headers=bearer(host)).status_code == 409
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        ws.send_json(msg("join", token=seat0))
        error = receive(ws)
        assert error["type"] == "error"
        assert (error["code"], error["reason"]) == ("room_closed", "host")
        expect_closed_socket(ws)
    assert hub.cached(room) is None, "every read of a closed room left it out of memory"
