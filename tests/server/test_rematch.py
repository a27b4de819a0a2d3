"""Rematches over the socket: a game played to its end, then ``rematch``: a new room of the
same game, settings and seats with a new secret, which starts once each person joined it
with their seed, each person's new token on their own connection only; the same room for a second request, after a restart too; refusals before
the end and from a spectator; a referee room's rematch."""

from __future__ import annotations

from starlette.testclient import WebSocketTestSession

from splash.core.protocol import CHANCE
from splash.core.record import GameRecord
from splash.server import storage
from splash.server.verify import verify
from tests.server.conversation import (
    NO_HOLD,
    QUICK_TIMER_S,
    SMALL_BASH,
    create_room,
    join,
    msg,
    pending_chance,
    receive,
    receive_until,
    take_seat,
    until_over,
)
from tests.server.harness import Serve, ServerClient
from tests.server.messages import RematchMessage, ServerMessage, ViewMessage
from tests.server.test_ended_rooms import wait_over

THREE_TEAMS = [*SMALL_BASH[1:], "options.teams=3"]
"""A short Splash & Bash game of three teams."""


def timed_room(client: ServerClient) -> tuple[str, list[str]]:
    """A room of two people (seats 0 and 1, on the quick turn timer) and a ``random`` bot
    (seat 2): its id and the people's tokens."""
    created = create_room(
        client,
        game="bash",
        settings=THREE_TEAMS,
        name="pool",
        bots=[None, None, "random"],
        options={"turn_timer_s": QUICK_TIMER_S, "pass_hold_s": 0},
    )
    room = created["room"]["id"]
    return room, [str(take_seat(client, room, 0, name="Ann")), str(take_seat(client, room, 1))]


def until_pong(ws: WebSocketTestSession) -> list[ServerMessage]:
    """Every message before the ``pong`` of a ``ping`` sent now."""
    ws.send_json(msg("ping", ref="barrier"))
    seen: list[ServerMessage] = []
    while (doc := receive(ws))["type"] != "pong":
        seen.append(doc)
    return seen


def rematch(ws: WebSocketTestSession) -> RematchMessage:
    ws.send_json(msg("rematch", ref="again"))
    doc, _ = receive_until(ws, "rematch")
    return doc


def own_token(doc: RematchMessage) -> str:
    """The receiver's own token in the new room, which a person's message carries."""
    token = doc.get("token")
    assert token is not None, doc
    return token


def seat_of(client: ServerClient, room: str, token: str, seed: str | None = None) -> int | None:
    """The seat ``token`` opens in ``room`` (``None``: it is the referee's), joined with the
    person's client ``seed`` when one is given."""
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        welcome = join(ws, token) if seed is None else join(ws, token, client_seed=seed)
    assert welcome["role"] in ("seat", "referee")
    return welcome["seat"]


def test_a_rematch_is_the_same_game_with_a_new_seed_and_each_person_gets_their_own_token(
    client: ServerClient,
) -> None:
    room, tokens = timed_room(client)
    with (
        client.websocket_connect(f"/ws/rooms/{room}") as ann,
        client.websocket_connect(f"/ws/rooms/{room}") as bob,
        client.websocket_connect(f"/ws/rooms/{room}") as screen,
    ):
        join(ann, tokens[0])
        join(bob, tokens[1])
        join(screen)
        for ws in (ann, bob, screen):
            until_over(ws)
        screen.send_json(msg("rematch"))
        refused, _ = receive_until(screen, "error")
        assert refused["code"] == "not_allowed"
        made = rematch(bob)
        told = [receive_until(ws, "rematch")[0] for ws in (ann, screen)]
        new = made["rematch"]
        assert {doc["rematch"] for doc in told} == {new} != {room}
        assert {doc["by"] for doc in [made, *told]} == {1}
        mine = [own_token(told[0]), own_token(made)]
        assert "token" not in told[1]
        assert len({*mine, *tokens}) == 4
        again = rematch(ann)
        assert (again["rematch"], own_token(again)) == (new, mine[0])
        assert not [doc for ws in (bob, screen) for doc in until_pong(ws)]
    old, fresh = client.stored(room), client.stored(new)
    assert old.rematch == new and fresh.rematch is None
    same = ("game", "mode", "settings", "options", "name", "host_token")
    assert [getattr(fresh, f) for f in same] == [getattr(old, f) for f in same]
    assert fresh.secret is not None and old.secret is not None and fresh.secret != old.secret
    assert fresh.status == "open"  # its people's seeds come when they join it
    seats = storage.list_seats(engine=client.engine, room_id=new)
    before = storage.list_seats(engine=client.engine, room_id=room)
    assert [(s.kind, s.name, s.bot) for s in seats] == [(s.kind, s.name, s.bot) for s in before]
    assert all(s.client_seed is None for s in seats)
    assert [seat_of(client, new, token) for token in mine] == [0, 1]
    assert client.stored(new).status == "open"
    assert [seat_of(client, new, mine[0], "Ann again")] == [0]
    assert client.stored(new).status == "open"
    assert [seat_of(client, new, mine[1], "Bob again")] == [1]
    assert client.stored(new).status == "playing"
    seats = storage.list_seats(engine=client.engine, room_id=new)
    assert [s.client_seed for s in seats if s.kind == "human"] == ["Ann again", "Bob again"]
    wait_over(client, [new])  # its turn timer too: it plays itself as the first game did
    replay = GameRecord.from_json(client.get(f"/api/rooms/{new}/replay").json())
    assert verify(replay).actions == len(replay.actions)  # its chance is checked as the first
    with client.websocket_connect(f"/ws/rooms/{new}") as ws:
        ws.send_json(msg("join", token=tokens[0]))
        assert receive(ws)["type"] == "error"


def test_a_person_away_when_the_rematch_was_made_gets_their_token_after_a_restart(
    serve: Serve, database_url: str
) -> None:
    with serve(database_url=database_url) as client:
        room, tokens = timed_room(client)
        with client.websocket_connect(f"/ws/rooms/{room}") as ann:
            assert join(ann, tokens[0])["rematch"] is None
            until_over(ann)
            first = rematch(ann)
    with serve(database_url=database_url) as client:
        with (
            client.websocket_connect(f"/ws/rooms/{room}") as ann,
            client.websocket_connect(f"/ws/rooms/{room}") as bob,
        ):
            join(ann, tokens[0])
            welcome = join(bob, tokens[1])
            assert welcome["rematch"] == first["rematch"] and "token" not in welcome
            again = rematch(ann)
            late = rematch(bob)
        assert again == first
        assert late["rematch"] == first["rematch"] and own_token(late) != own_token(first)
        assert seat_of(client, first["rematch"], own_token(late)) == 1
        assert seat_of(client, first["rematch"], own_token(first)) == 0


def test_no_rematch_while_the_game_goes_on(client: ServerClient) -> None:
    room = create_room(
        client, game="bash", settings=SMALL_BASH, bots=[None, "random"], options=NO_HOLD
    )["room"]
    token = take_seat(client, room["id"], 0)
    with client.websocket_connect(f"/ws/rooms/{room['id']}") as ws:
        join(ws, token)
        ws.send_json(msg("rematch", ref=3))
        refused, _ = receive_until(ws, "error")
    assert (refused["code"], refused["ref"]) == ("not_over", 3)
    assert client.stored(room["id"]).rematch is None


def play_as_referee(client: ServerClient, ws: WebSocketTestSession, doc: ViewMessage) -> None:
    """Enter every decision (the first legal one, as the server's state lists it: the
    public view names no card of a hand) and outcome of a referee room to its end."""
    room = client.room(doc["room"])
    while doc["status"] != "over":
        view = doc["view"]
        if view["to_act"] == CHANCE:
            ws.send_json(msg("outcome", action=pending_chance(doc)["outcomes"][0]))
        else:
            ws.send_json(msg("act", action=room.state.legal_actions()[0].to_json()))
        receive_until(ws, "ack")
        doc, _ = receive_until(ws, "update")
        while doc["index"] + 1 < room.index:  # the draws the server made after it
            doc, _ = receive_until(ws, "update")


def test_a_referee_room_rematch_is_a_new_referee_room_of_the_same_settings(
    client: ServerClient,
) -> None:
    created = create_room(
        client,
        game="bash",
        mode="referee",
        settings=SMALL_BASH,
        options={"digital": ["draw", "steal", "deal"]},
    )
    room, token = created["room"]["id"], str(created["referee_token"])
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        welcome = join(ws, token)
        ws.send_json(msg("rematch"))
        refused, _ = receive_until(ws, "error")
        assert refused["code"] == "not_over"
        play_as_referee(client, ws, welcome)
        made = rematch(ws)
    assert made["by"] == -1 and own_token(made) != token
    old, fresh = client.stored(room), client.stored(made["rematch"])
    assert (fresh.mode, fresh.settings, fresh.options) == (old.mode, old.settings, old.options)
    assert fresh.secret is not None and old.secret is not None and fresh.secret != old.secret
    assert fresh.status == "playing"  # a referee room has no seat's seed to wait for
    assert seat_of(client, made["rematch"], own_token(made)) is None
