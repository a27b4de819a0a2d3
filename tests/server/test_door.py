"""The door of the play socket: whatever arrives, the client gets an ``error`` message with a
code (the first message too, then the socket closes), the game does not change, and the
server neither fails nor logs a traceback."""

from __future__ import annotations

import asyncio
import json
import logging
from functools import partial
from pathlib import Path

import pytest
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from splash.core.actions import Json
from splash.server.client_messages import CLIENT_TYPES, client_message_schema
from splash.server.outbox import CLOSE_TOO_SLOW, ConnectionGoneError, Outbox
from splash.server.wire_json import WireJsonError, load_limited, too_deep
from tests.server.conversation import SMALL_BASH, create_room, join, msg, receive, take_seat
from tests.server.harness import ServerClient
from tests.server.messages import ErrorMessage

NESTED_30000 = "[" * 30_000 + "]" * 30_000
"""30,000 nested lists: 60,000 bytes, within the size limit, far past the depth limit."""


def refused(ws: WebSocketTestSession) -> ErrorMessage:
    """The next message, which must be an ``error``."""
    doc = receive(ws)
    assert doc["type"] == "error", doc
    return doc


def two_humans(client: ServerClient) -> tuple[str, str]:
    room = create_room(client, game="bash", settings=SMALL_BASH)["room"]["id"]
    token = str(take_seat(client, room, 0))
    take_seat(client, room, 1)
    return room, token


def test_30000_nested_lists_as_the_first_message_get_an_error_before_the_close(
    client: ServerClient, caplog: pytest.LogCaptureFixture
) -> None:
    room, _ = two_humans(client)
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        ws.send_text(NESTED_30000)
        error = refused(ws)
        assert error["code"] == "too_deep", error
        assert "32" in error["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4400
    assert not [r for r in caplog.records if r.exc_info], "no traceback in the log"


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        (NESTED_30000, "too_deep"),
        (json.dumps(msg("act", action=[1] * 2)).replace("[1, 1]", "[" * 33 + "]" * 33), "too_deep"),
        ('{"format": "splash/ws/1", "type": "act", "action": ' + "9" * 5000 + "}", "bad_number"),
        ('{"format": "splash/ws/1", "type": "act", "action": ' + "1" * 19 + "}", "bad_number"),
        ('{"format": "splash/ws/1", "type": "act", "action": 1e999}', "bad_number"),
        ('{"format": "splash/ws/1", "type": "act", "action": NaN}', "bad_number"),
        ('{"format": "splash/ws/1", "type": "act", "ref": "r", "expect": "3", "action": 1}', ""),
        (b"\xff\xfe", "bad_json"),
    ],
)
def test_deep_huge_or_odd_json_mid_game_is_refused_with_its_code(
    client: ServerClient, caplog: pytest.LogCaptureFixture, raw: str | bytes, code: str
) -> None:
    room, token = two_humans(client)
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        join(ws, token)
        if isinstance(raw, bytes):
            ws.send_bytes(raw)
        else:
            ws.send_text(raw)
        error = refused(ws)
        if code:
            assert error["code"] == code, error
        else:  # within the limits: refused by the fields or the rules, not by the door
            assert error["code"] in ("bad_field", "malformed_action"), error
        ws.send_json(msg("ping", ref=1))
        assert receive(ws)["type"] == "pong"
    assert client.room(room).index == 0
    assert not [r for r in caplog.records if r.exc_info], "no traceback in the log"


def test_a_wrong_field_is_named_and_the_ref_is_echoed(client: ServerClient) -> None:
    room, token = two_humans(client)
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        join(ws, token)
        ws.send_json(msg("act", action={"kind": "stay"}, expect=True, ref="q"))
        error = refused(ws)
        assert (error["code"], error["ref"]) == ("bad_field", "q")
        assert "'expect'" in error["message"]
        ws.send_json(msg("reveal", seat="zero", ref=5))
        error = refused(ws)
        assert (error["code"], error["ref"]) == ("bad_field", 5)


def test_a_join_with_a_token_of_the_wrong_type_is_refused_and_closed(client: ServerClient) -> None:
    room, _ = two_humans(client)
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        ws.send_json(msg("join", token=12))
        error = refused(ws)
        assert error["code"] == "bad_field"
        assert "'token'" in error["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4400


def test_a_client_that_leaves_while_refused_costs_no_traceback(
    client: ServerClient, caplog: pytest.LogCaptureFixture
) -> None:
    room, token = two_humans(client)
    for _ in range(5):
        with client.websocket_connect(f"/ws/rooms/{room}") as ws:
            ws.send_text("{not json")
        with client.websocket_connect(f"/ws/rooms/{room}") as ws:
            join(ws, token)
            for _ in range(20):
                ws.send_text(NESTED_30000)
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        assert join(ws, token)["index"] == 0
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


class FakeSocket:
    """A WebSocket whose client reads nothing (``stuck``) or has left (``gone``)."""

    def __init__(self, *, stuck: bool = False, gone: bool = False) -> None:
        self.stuck, self.gone = stuck, gone
        self.sent: list[str] = []
        self.closed: list[int] = []

    async def send_text(self, text: str) -> None:
        if self.gone:
            raise WebSocketDisconnect(1006)
        if self.stuck:
            await asyncio.Event().wait()
        self.sent.append(text)

    async def close(self, code: int) -> None:
        self.closed.append(code)


def test_a_client_that_does_not_read_is_dropped_not_buffered() -> None:
    async def scenario() -> FakeSocket:
        socket = FakeSocket(stuck=True)
        outbox = Outbox(socket, limit=8)  # type: ignore[arg-type]
        await outbox.send(msg("pong", ref=0))
        await asyncio.sleep(0.01)  # the writer holds the first one, stuck
        for n in range(1, 9):  # 8 wait: the queue is full
            await outbox.send(msg("pong", ref=n))
        with pytest.raises(ConnectionGoneError):
            await outbox.send(msg("pong", ref=99))
        with pytest.raises(ConnectionGoneError):
            await outbox.send(msg("pong", ref=100))
        await outbox.finish(timeout=1)
        return socket

    socket = asyncio.run(scenario())
    assert socket.closed == [CLOSE_TOO_SLOW] and socket.sent == []


def test_messages_to_a_client_that_left_are_dropped_quietly() -> None:
    async def scenario() -> None:
        outbox = Outbox(FakeSocket(gone=True), limit=8)  # type: ignore[arg-type]
        await outbox.send(msg("pong"))
        await asyncio.sleep(0.01)
        with pytest.raises(ConnectionGoneError):
            await outbox.send(msg("pong"))
        await outbox.finish(timeout=1)

    asyncio.run(scenario())


def test_queued_messages_are_sent_in_order_before_the_close() -> None:
    async def scenario() -> FakeSocket:
        socket = FakeSocket()
        outbox = Outbox(socket, limit=8)  # type: ignore[arg-type]
        for n in range(3):
            await outbox.send(msg("pong", ref=n))
        await outbox.close(4400)
        await outbox.finish(timeout=1)
        return socket

    socket = asyncio.run(scenario())
    assert [json.loads(text)["ref"] for text in socket.sent] == [0, 1, 2]
    assert socket.closed == [4400]


@pytest.mark.parametrize(
    ("text", "deep"),
    [
        ("[" * 32 + "]" * 32, False),
        ("[" * 33 + "]" * 33, True),
        ('["' + "[" * 100 + '"]', False),
        ('["\\"' + "[" * 100 + '"]', False),
        ('{"a": ' * 33 + "1" + "}" * 33, True),
    ],
)
def test_depth_counts_brackets_outside_strings_only(text: str, deep: bool) -> None:
    assert too_deep(text, 32) is deep


def test_the_json_limits_name_what_they_refuse() -> None:
    assert load_limited("[" + "9" * 18 + "]", max_bytes=100) == [10**18 - 1]
    assert load_limited("[-" + "9" * 18 + ", 1.5]", max_bytes=100) == [-(10**18 - 1), 1.5]
    for raw, code in [
        ("[" + "9" * 19 + "]", "bad_number"),
        ("[" * 40 + "]" * 40, "too_deep"),
        ("[1, 2" + " " * 100 + "]", "too_large"),
        ("[1,", "bad_json"),
        ("[Infinity]", "bad_number"),
    ]:
        with pytest.raises(WireJsonError) as refused:
            load_limited(raw, max_bytes=100)
        assert refused.value.code == code


def test_the_union_holds_every_client_type_and_its_schema_is_in_the_docs() -> None:
    assert set(CLIENT_TYPES) == {
        "join",
        "act",
        "outcome",
        "check",
        "reveal",
        "hide",
        "sync",
        "ping",
        "undo",
        "undo_request",
        "undo_answer",
        "chat",
        "rematch",
        "ask",
        "prefer",
    }
    schema = client_message_schema()
    assert schema["discriminator"]["propertyName"] == "type"
    assert set(schema["discriminator"]["mapping"]) == set(CLIENT_TYPES)


def test_the_schema_in_the_protocol_docs_is_the_unions() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()
    block = text.split("<!-- client-message-schema -->")[1].split(
        "<!-- /client-message-schema -->"
    )[0]
    shown = json.loads(block.strip().removeprefix("```json").removesuffix("```"))
    assert shown == client_message_schema()


def test_a_pong_to_a_client_that_left_raises_connection_gone_not_a_traceback(
    client: ServerClient, caplog: pytest.LogCaptureFixture
) -> None:
    from splash.server.client_messages import PingMessage
    from splash.server.handlers import handle
    from splash.server.options import Member

    room, _ = two_humans(client)

    async def gone(_doc: dict[str, Json] | str) -> None:
        raise ConnectionGoneError

    member = Member("spectator", None, "en", gone)
    ping = PingMessage(format="splash/ws/1", type="ping", ref=1)
    with pytest.raises(ConnectionGoneError):  # what the play loop ends the connection on
        client.call(partial(handle, hub=client.hub), client.room(room), member, ping)
    assert not [r for r in caplog.records if r.exc_info]
