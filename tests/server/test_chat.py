"""The chat of a room: broadcast to every connection with who wrote it and when, plain text
of at most 200 characters, at most 5 messages in 10 s per connection, spectators writing
only where the room lets them, and every message kept in the log and the replay.  The clock
is a fake one that the tests move on."""

from __future__ import annotations

from starlette.testclient import WebSocketTestSession

from splash.server import storage
from splash.server.line import CHAT_SOURCE, line_of_play
from tests.server.conversation import (
    NO_HOLD,
    SMALL_BASH,
    create_room,
    join,
    msg,
    receive,
    receive_until,
    take_seat,
)
from tests.server.harness import FakeClock, Serve, ServerClient
from tests.server.messages import (
    ChatDoc,
    ChatLineDoc,
    ErrorMessage,
    RoomOptionsBody,
    ServerMessage,
    WelcomeMessage,
)

START = 1_700_000_000.0


def heard(ws: WebSocketTestSession, text: str) -> ChatDoc:
    """Read chat messages on ``ws`` until the one that says ``text``."""
    while True:
        said, _ = receive_until(ws, "chat")
        if said["text"] == text:
            return said


def chat_error(ws: WebSocketTestSession, text: str) -> ErrorMessage:
    """The error that answers ``text`` sent as a chat message on ``ws``."""
    ws.send_json(msg("chat", text=text, ref="c"))
    error, _ = receive_until(ws, "error")
    assert error["ref"] == "c"
    return error


def test_a_chat_message_goes_to_every_connection_with_who_wrote_it_and_when(
    serve: Serve,
) -> None:
    clock = FakeClock(START)
    with serve(clock=clock) as client:
        room = create_room(client, game="bash", settings=SMALL_BASH, options=NO_HOLD)["room"]["id"]
        tokens = [take_seat(client, room, 0, name="Ann"), take_seat(client, room, 1)]
        with (
            client.websocket_connect(f"/ws/rooms/{room}") as ws0,
            client.websocket_connect(f"/ws/rooms/{room}") as ws1,
            client.websocket_connect(f"/ws/rooms/{room}") as screen,
        ):
            join(ws0, tokens[0])
            join(ws1, tokens[1])
            join(screen)
            clock.advance(3)
            ws0.send_json(msg("chat", text="  good <b>luck</b>\nall  "))
            for ws in (ws0, ws1, screen):
                said, _ = receive_until(ws, "chat")
                assert said["room"] == room
                assert (said["role"], said["seat"], said["name"]) == ("seat", 0, "Ann")
                assert said["text"] == "good <b>luck</b> all", "plain text, on one line"
                assert (said["at"], said["index"]) == (START + 3, 0)
            ws1.send_json(msg("chat", text="thanks"))
            said, _ = receive_until(ws0, "chat")
            assert (said["seat"], said["name"], said["text"]) == (1, "p", "thanks")
        referee_room = create_room(client, game="bash", mode="referee", settings=SMALL_BASH)
        with client.websocket_connect(f"/ws/rooms/{referee_room['room']['id']}") as referee:
            join(referee, referee_room["referee_token"])
            referee.send_json(msg("chat", text="start"))
            said, _ = receive_until(referee, "chat")
            assert (said["role"], said["seat"], said["name"]) == ("referee", None, None)


def test_a_chat_message_has_some_text_and_at_most_200_characters(client: ServerClient) -> None:
    room = create_room(client, game="bash", settings=SMALL_BASH)["room"]["id"]
    token = take_seat(client, room, 0)
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        join(ws, token)
        ws.send_json(msg("chat", text="é" * 200))
        said, _ = receive_until(ws, "chat")
        assert said["text"] == "é" * 200
        error = chat_error(ws, "x" * 201)
        assert error["code"] == "chat_too_long"
        assert "200" in error["message"] and "201" in error["message"]
        assert chat_error(ws, " \n\t ")["code"] == "chat_empty"
        ws.send_json(msg("chat", text=7, ref="n"))
        error, _ = receive_until(ws, "error")
        assert (error["code"], error["ref"]) == ("bad_field", "n")
        ws.send_json(msg("ping", ref="after"))
        _, seen = receive_until(ws, "pong")
        assert not [d for d in seen if d["type"] == "chat"], "a refused message is sent to nobody"


def test_at_most_five_chat_messages_in_ten_seconds_per_connection(serve: Serve) -> None:
    clock = FakeClock(START)
    with serve(clock=clock) as client:
        room = create_room(client, game="bash", settings=SMALL_BASH)["room"]["id"]
        token = take_seat(client, room, 0)
        with (
            client.websocket_connect(f"/ws/rooms/{room}") as ws,
            client.websocket_connect(f"/ws/rooms/{room}") as other,
        ):
            join(ws, token)
            join(other, token)  # the same seat on a second page
            for n in range(5):
                ws.send_json(msg("chat", text=f"line {n}"))
                receive_until(ws, "chat")
                clock.advance(1)
            assert chat_error(ws, "one more")["code"] == "chat_rate"
            other.send_json(msg("chat", text="from the other page"))
            heard(other, "from the other page")
            clock.advance(5)  # the first message is now 10 s old
            ws.send_json(msg("chat", text="again"))
            heard(ws, "again")
            assert chat_error(ws, "and again")["code"] == "chat_rate"


def test_spectators_read_the_chat_and_write_only_where_the_room_lets_them(
    client: ServerClient,
) -> None:
    closed_room = create_room(client, game="bash", settings=SMALL_BASH)["room"]["id"]
    token = take_seat(client, closed_room, 0)
    with (
        client.websocket_connect(f"/ws/rooms/{closed_room}") as seat,
        client.websocket_connect(f"/ws/rooms/{closed_room}") as screen,
    ):
        join(seat, token)
        join(screen)
        error = chat_error(screen, "hello")
        assert error["code"] == "chat_spectators"
        seat.send_json(msg("chat", text="you may read this"))
        said, _ = receive_until(screen, "chat")
        assert said["text"] == "you may read this"
    open_room = create_room(
        client, game="bash", settings=SMALL_BASH, options={"spectator_chat": True}
    )["room"]["id"]
    with client.websocket_connect(f"/ws/rooms/{open_room}") as screen:
        join(screen)
        screen.send_json(msg("chat", text="hello"))
        said, _ = receive_until(screen, "chat")
        assert (said["role"], said["seat"], said["name"]) == ("spectator", None, None)


def test_the_chat_is_kept_in_the_log_the_welcome_and_the_replay(serve: Serve) -> None:
    with serve() as client:
        options: RoomOptionsBody = {"spectator_chat": True, "pass_hold_s": 0}
        room = create_room(
            client, game="bash", settings=SMALL_BASH, bots=[None, "random"], options=options
        )["room"]["id"]
        token = take_seat(client, room, 0)
        with client.websocket_connect(f"/ws/rooms/{room}") as ws:
            welcome = join(ws, token)
            assert welcome["chat"] == []
            ws.send_json(msg("chat", text="before"))
            receive_until(ws, "chat")
            ws.send_json(msg("act", action=welcome["view"]["legal_actions"][0], expect=0))
            receive_until(ws, "ack")
            ws.send_json(msg("chat", text="after one move"))
            receive_until(ws, "chat")
    with serve() as client:  # a restarted server rebuilds the game from the stored log
        held = client.call(client.hub.get, room)
        stored = storage.load_actions(engine=client.engine, room_id=room)
        assert [r.index for r in stored] == list(range(len(stored)))
        assert sum(r.source == CHAT_SOURCE for r in stored) == 2
        line = line_of_play(stored)
        assert line.actions == [a.to_json() for a in held.state.history]
        with client.websocket_connect(f"/ws/rooms/{room}") as ws:
            welcome = join(ws, token)
            texts = [(c["text"], c["index"]) for c in welcome["chat"]]
            assert texts == [("before", 0), ("after one move", 1)]
            play_to_the_end(ws, welcome)
        with client.websocket_connect(f"/ws/rooms/{room}") as screen:
            join(screen)
            screen.send_json(msg("chat", text="well played"))
            said, _ = receive_until(screen, "chat")
        replay = client.get(f"/api/rooms/{room}/replay")
        assert replay.status_code == 200, replay.text
        chat: list[ChatLineDoc] = replay.json()["meta"]["chat"]
        assert [c["text"] for c in chat] == ["before", "after one move", "well played"]
        assert chat[-1] == {k: v for k, v in said.items() if k not in ("format", "type", "room")}


def play_to_the_end(ws: WebSocketTestSession, welcome: WelcomeMessage) -> None:
    """Take the first legal action of the seat each time it is to act, to the end."""
    doc: ServerMessage = welcome
    while True:
        if doc["type"] in ("welcome", "update") and doc["view"]["to_act"] == welcome["seat"]:
            expect = doc["index"] + (1 if doc["type"] == "update" else 0)
            ws.send_json(msg("act", action=doc["view"]["legal_actions"][0], expect=expect))
        doc = receive(ws)
        if doc["type"] == "update" and doc["status"] == "over":
            return
