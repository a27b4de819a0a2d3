"""Fuzzing the play socket (Hypothesis): messages of every client type, with fields right,
wrong or missing, and raw garbage, sent by a seat, a referee and joining connections.

Whatever is sent, the server answers with what the protocol says (a ``check`` with its
verdict and, when it refuses, why) or an ``error`` of a known code, never ``internal``; the log stays the stored one; the server stays up."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from splash.core.actions import Json
from splash.server import storage
from splash.server.client_messages import CLIENT_TYPES
from splash.server.line import line_of_play
from splash.server.protocol import ERROR_TEXTS
from tests.server.conversation import SMALL_BASH, create_room, join, msg, receive, take_seat
from tests.server.harness import Serve, ServerClient
from tests.server.messages import ServerMessage

JSON_VALUES: st.SearchStrategy[Json] = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
"""Any JSON value, small."""

FIELDS = ("ref", "token", "lang", "action", "report", "expect", "seat", "accept", "text")
"""Every field a client message may carry."""

GARBAGE = st.one_of(
    st.text(max_size=40),
    st.binary(max_size=40),
    st.integers(1, 200).map(lambda n: "[" * n + "]" * n),
    st.integers(1, 60).map(
        lambda n: '{"format": "splash/ws/1", "type": "act", "action": ' + "7" * n + "}"
    ),
    JSON_VALUES.map(json.dumps),
)
"""What is not a message at all, or barely."""


def field_values(name: str, legal: list[Json], tokens: list[str]) -> st.SearchStrategy[Json]:
    """Values of field ``name``: plausible ones and any JSON value."""
    plausible: dict[str, st.SearchStrategy[Json]] = {
        "ref": st.text(max_size=5) | st.integers(-3, 3),
        "token": st.sampled_from(tokens) | st.text(max_size=5),
        "lang": st.sampled_from(["en", "fr", "cs", "it", "xx"]),
        "action": st.sampled_from(legal) if legal else st.none(),
        "report": st.fixed_dictionaries({"result": st.sampled_from(["stood", "fell", "x"])}),
        "expect": st.integers(-1, 12),
        "seat": st.integers(-1, 3),
        "accept": st.booleans(),
        "text": st.text(max_size=210) | st.just("<b>hi</b>") | st.just("x" * 201),
    }
    return plausible[name] | JSON_VALUES


@st.composite
def messages(draw: st.DrawFn, legal: list[Json], tokens: list[str]) -> str | bytes:
    """One message for the socket: mostly of a client type, sometimes garbage."""
    if draw(st.integers(0, 9)) == 0:
        return draw(GARBAGE)
    doc: dict[str, Json] = {
        "format": draw(st.sampled_from(["splash/ws/1"] * 8 + ["splash/ws/2", ""])),
        "type": draw(st.sampled_from([*CLIENT_TYPES, "dance"])),
    }
    for name in FIELDS:
        if draw(st.booleans()):
            doc[name] = draw(field_values(name, legal, tokens))
    return json.dumps(doc)


def send(ws: WebSocketTestSession, raw: str | bytes) -> None:
    if isinstance(raw, bytes):
        ws.send_bytes(raw)
    else:
        ws.send_text(raw)


def answers_until_pong(ws: WebSocketTestSession, ref: str) -> list[ServerMessage]:
    """Every message up to the ``pong`` of ``ref`` (sent now): what the last one caused."""
    ws.send_json(msg("ping", ref=ref))
    seen: list[ServerMessage] = []
    while True:
        doc = receive(ws)
        if doc["type"] == "pong" and doc.get("ref") == ref:
            return seen
        seen.append(doc)


def check_answers(answers: list[ServerMessage]) -> None:
    for doc in answers:
        assert doc["format"] == "splash/ws/1"
        if doc["type"] == "error":
            assert doc["code"] in ERROR_TEXTS and doc["code"] != "internal", doc
            assert doc["message"]
        if doc["type"] == "check":
            assert isinstance(doc["ok"], bool) and (doc["why"] is None) == doc["ok"], doc


def legal_now(client: ServerClient, room: str) -> list[Json]:
    state = client.room(room).state
    return [action.to_json() for action in state.legal_actions()] if not state.is_terminal() else []


def check_log(client: ServerClient, room: str) -> None:
    held = client.room(room)
    stored = storage.load_actions(engine=client.engine, room_id=room)
    assert [entry.index for entry in stored] == list(range(len(stored)))
    line = line_of_play(stored)
    assert len(line.entries) == held.index
    assert line.actions == [action.to_json() for action in held.state.history]


def test_fuzzed_messages_of_every_type_from_a_seat_and_a_referee(serve: Serve) -> None:
    with serve() as client:
        play = create_room(client, game="bash", settings=SMALL_BASH)["room"]["id"]
        seat_token = str(take_seat(client, play, 0))
        take_seat(client, play, 1, bot="random")
        created = create_room(client, game="bash", mode="referee", settings=SMALL_BASH)
        refereed, referee_token = created["room"]["id"], str(created["referee_token"])
        tokens = [seat_token, referee_token]
        with (
            client.websocket_connect(f"/ws/rooms/{play}") as seat,
            client.websocket_connect(f"/ws/rooms/{refereed}") as referee,
        ):
            join(seat, seat_token)
            join(referee, referee_token)
            sockets = {play: seat, refereed: referee}

            @settings(
                max_examples=300,
                deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
            )
            @given(st.data())
            def exchange(data: st.DataObject) -> None:
                room = data.draw(st.sampled_from([play, refereed]))
                raw = data.draw(messages(legal_now(client, room), tokens))
                send(sockets[room], raw)
                check_answers(answers_until_pong(sockets[room], "barrier"))
                check_log(client, room)

            exchange()


def test_fuzzed_joins(serve: Serve) -> None:
    with serve() as client:
        room = create_room(client, game="bash", settings=SMALL_BASH)["room"]["id"]
        tokens = [str(take_seat(client, room, 0)), "wrong"]

        @settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
        @given(messages([], tokens))
        def first(raw: str | bytes) -> None:
            with client.websocket_connect(f"/ws/rooms/{room}") as ws:
                send(ws, raw)
                doc: Any = receive(ws)
                if doc["type"] == "welcome":
                    return
                check_answers([doc])
                assert doc["type"] == "error", doc
                try:
                    ws.receive_json()
                except WebSocketDisconnect as closed:
                    assert 4400 <= closed.code < 4500
                else:
                    raise AssertionError("the socket stays open after a refused join")

        first()
        with client.websocket_connect(f"/ws/rooms/{room}") as ws:
            assert join(ws, tokens[0])["role"] == "seat"
