"""The types that the server tests read the server's documents with name what the server
really sends: the fields of its schemas and settings, and the keys of every message."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

import pytest
from pydantic import BaseModel

from splash.server.options import RoomOptions
from splash.server.schemas import (
    ReplayStep,
    RoomCreate,
    RoomCreated,
    RoomPublic,
    SeatClaim,
    SeatPublic,
)
from splash.server.settings import ServerSettings
from tests.server.conversation import (
    NO_HOLD,
    QUICK_TIMER_S,
    SMALL_BASH,
    create_room,
    join,
    msg,
    receive,
    receive_until,
    take_seat,
    until_over,
)
from tests.server.harness import ServerClient, SettingsOverrides
from tests.server.messages import (
    AckMessage,
    ChatDoc,
    ClosedMessage,
    ErrorMessage,
    PongMessage,
    RematchMessage,
    ReplayStepDoc,
    RoomCreateBody,
    RoomCreatedDoc,
    RoomDoc,
    RoomOptionsBody,
    RoomOptionsDoc,
    SeatClaimBody,
    SeatDoc,
    SeatsMessage,
    ServerMessage,
    StateMessage,
    UndoAskedMessage,
    UndoneMessage,
    UndoResultMessage,
    UpdateMessage,
    View,
    WelcomeMessage,
)

Keys = tuple[frozenset[str], frozenset[str]]
"""The required keys of a TypedDict, and the others."""


class Keyed(Protocol):
    """A TypedDict class."""

    __required_keys__: frozenset[str]
    __optional_keys__: frozenset[str]


def keys(doc_type: Keyed) -> Keys:
    return doc_type.__required_keys__, doc_type.__optional_keys__


DOCUMENTS: list[tuple[Keyed, type[BaseModel]]] = [
    (SeatDoc, SeatPublic),
    (RoomDoc, RoomPublic),
    (RoomCreatedDoc, RoomCreated),
    (RoomOptionsDoc, RoomOptions),
    (RoomOptionsBody, RoomOptions),
    (RoomCreateBody, RoomCreate),
    (SeatClaimBody, SeatClaim),
    (ReplayStepDoc, ReplayStep),
    (SettingsOverrides, ServerSettings),
]
"""Each document type of the tests, and the schema (or the settings) it stands for."""

MESSAGES: dict[str, Keys] = {
    "welcome": keys(WelcomeMessage),
    "state": keys(StateMessage),
    "update": keys(UpdateMessage),
    "ack": keys(AckMessage),
    "seats": keys(SeatsMessage),
    "error": keys(ErrorMessage),
    "pong": keys(PongMessage),
    "closed": keys(ClosedMessage),
    "undone": keys(UndoneMessage),
    "undo_asked": keys(UndoAskedMessage),
    "undo_result": keys(UndoResultMessage),
    "chat": keys(ChatDoc),
    "rematch": keys(RematchMessage),
}
TAKEBACK_MESSAGES = frozenset({"undone", "undo_asked", "undo_result"})
"""The messages of a takeback, checked by their own test."""
AFTER_THE_END = frozenset({"rematch"})
"""The messages of a game that is over, checked by their own test."""


def check_keys(doc: Mapping[str, object], keys: Keys) -> None:
    """``doc`` has every required key and no key that the type does not name."""
    required, optional = keys
    assert required <= doc.keys() <= required | optional, (sorted(doc), keys)


@pytest.mark.parametrize(
    ("doc_type", "model"),
    [pytest.param(d, m, id=m.__name__) for d, m in DOCUMENTS],
)
def test_the_documents_name_every_field_of_the_schemas(
    doc_type: Keyed, model: type[BaseModel]
) -> None:
    required, optional = keys(doc_type)
    assert required | optional == set(model.model_fields)


def check_messages(messages: list[ServerMessage], seen: set[str]) -> None:
    """Each message has the keys of its type (and its view those of a view)."""
    for doc in messages:
        check_keys(doc, MESSAGES[doc["type"]])
        seen.add(doc["type"])
        if doc["type"] in ("welcome", "state", "update", "undone"):
            assert View.__required_keys__ <= doc["view"].keys(), sorted(doc["view"])


def test_every_message_has_the_keys_of_its_type(client: ServerClient) -> None:
    seen: set[str] = set()
    created = create_room(client, game="bash", settings=SMALL_BASH, options=NO_HOLD)
    check_keys(created, keys(RoomCreatedDoc))
    room = created["room"]["id"]
    tokens = [take_seat(client, room, 0), take_seat(client, room, 1)]
    with (
        client.websocket_connect(f"/ws/rooms/{room}") as ws0,
        client.websocket_connect(f"/ws/rooms/{room}") as ws1,
        client.websocket_connect(f"/ws/rooms/{room}") as screen,
    ):
        welcome = join(ws0, tokens[0])
        assert "hand" in welcome["view"]
        check_messages([welcome, join(ws1, tokens[1])], seen)
        _, read = receive_until(ws0, "seats")
        check_messages(read, seen)
        public = join(screen)
        assert "revealed_hands" in public["view"]
        check_messages([public], seen)
        for message in (
            msg("ping", ref=1),
            msg("sync"),
            msg("act", action={"kind": "fly"}),
            msg("chat", text="hello"),
        ):
            ws0.send_json(message)
            check_messages([receive(ws0)], seen)
        ws0.send_json(msg("act", action=welcome["view"]["legal_actions"][0], expect=0))
        for ws in (ws0, ws1, screen):
            _, read = receive_until(ws, "update")
            check_messages(read, seen)
        closed = client.delete(
            f"/api/rooms/{room}", headers={"Authorization": f"Bearer {created['host_token']}"}
        )
        assert closed.status_code == 200
        for ws in (ws0, ws1, screen):
            _, read = receive_until(ws, "closed")
            check_messages(read, seen)
    assert seen == set(MESSAGES) - TAKEBACK_MESSAGES - AFTER_THE_END


def test_the_messages_of_a_takeback_have_the_keys_of_their_types(client: ServerClient) -> None:
    seen: set[str] = set()
    room = create_room(client, game="bash", settings=SMALL_BASH, options=NO_HOLD)["room"]["id"]
    tokens = [take_seat(client, room, 0), take_seat(client, room, 1)]
    with (
        client.websocket_connect(f"/ws/rooms/{room}") as ws0,
        client.websocket_connect(f"/ws/rooms/{room}") as ws1,
        client.websocket_connect(f"/ws/rooms/{room}") as screen,
    ):
        welcome = join(ws0, tokens[0])
        join(ws1, tokens[1])
        join(screen)
        ws0.send_json(msg("act", action=welcome["view"]["legal_actions"][0], expect=0))
        receive_until(ws0, "ack")
        ws0.send_json(msg("undo_request", expect=1))
        for ws in (ws0, ws1, screen):
            _, read = receive_until(ws, "undo_asked")
            check_messages(read, seen)
        with client.websocket_connect(f"/ws/rooms/{room}") as late:
            check_messages([join(late), receive(late)], seen)
        ws1.send_json(msg("undo_answer", accept=True))
        for ws in (ws0, ws1, screen):
            undone, read = receive_until(ws, "undone")
            check_messages(read, seen)
            assert undone["index"] == 0
    assert seen >= TAKEBACK_MESSAGES


def test_the_rematch_message_has_the_keys_of_its_type(client: ServerClient) -> None:
    seen: set[str] = set()
    room = create_room(
        client,
        game="bash",
        settings=SMALL_BASH,
        bots=[None, "random"],
        options={"turn_timer_s": QUICK_TIMER_S, "pass_hold_s": 0},
    )["room"]["id"]
    token = take_seat(client, room, 0)
    with (
        client.websocket_connect(f"/ws/rooms/{room}") as ws,
        client.websocket_connect(f"/ws/rooms/{room}") as screen,
    ):
        join(ws, token)
        join(screen)
        until_over(ws)
        ws.send_json(msg("rematch"))
        for each in (ws, screen):
            _, read = receive_until(each, "rematch")
            check_messages(read, seen)
    assert seen >= AFTER_THE_END


@pytest.mark.parametrize("game", ["bash", "tower"])
def test_a_referee_sees_the_chance_event_and_the_view_of_each_game(
    client: ServerClient, game: str
) -> None:
    created = create_room(client, game=game, mode="referee")
    with client.websocket_connect(f"/ws/rooms/{created['room']['id']}") as ws:
        welcome = join(ws, created["referee_token"])
        check_messages([welcome], set())
        assert "chance" in welcome
        view_keys = {
            "bash": {"hand", "revealed_hands"},
            "tower": {"phase", "tower", "table", "gift"},
        }[game]
        assert welcome["view"].keys() & View.__optional_keys__ == view_keys
