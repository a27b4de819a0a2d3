"""Chance anyone can check, as the server keeps it: a room commits to its secret from its
creation, each person adds a client seed with their seat, and every outcome the room draws
comes from the key of the secret and the seeds (:mod:`splash.core.fairness`)."""

from __future__ import annotations

import time

import pytest

from splash.core.fairness import commitment, room_key
from splash.core.protocol import CHANCE
from splash.core.record import GameRecord
from splash.server import storage
from splash.server.line import line_of_play
from splash.server.rules import build_game, chance_action
from tests.server.conversation import NO_HOLD, SMALL_BASH, create_room, join, take_seat
from tests.server.harness import ServerClient


def stored(client: ServerClient, room: str) -> storage.RoomRow:
    row = storage.get_room(engine=client.app.state.engine, room_id=room)  # type: ignore[attr-defined]
    assert row is not None
    return row


@pytest.mark.rule("BD12")
def test_a_play_room_shows_its_commitment_from_its_creation_and_the_seeds_as_they_come(
    client: ServerClient,
) -> None:
    created = create_room(
        client, game="bash", settings=SMALL_BASH, bots=[None, "random"], options=NO_HOLD
    )
    room = created["room"]
    row = stored(client, room["id"])
    assert row.secret is not None and len(row.secret) == 64
    assert room["commitment"] == commitment(bytes.fromhex(row.secret))
    assert all(seat["client_seed"] is None for seat in room["seats"])
    token = take_seat(client, room["id"], 0, name="Ann", client_seed="ann's dice 7")
    read = client.get(f"/api/rooms/{room['id']}").json()
    assert (
        read["seats"][0]["client_seed"] == "ann's dice 7"
        and read["seats"][1]["client_seed"] is None
    )
    with client.websocket_connect(f"/ws/rooms/{room['id']}") as ws:
        welcome = join(ws, token)
    assert welcome["commitment"] == room["commitment"]
    assert welcome["seats"][0]["client_seed"] == "ann's dice 7"
    assert row.secret not in str(welcome) and row.secret not in str(read)


def test_a_referee_room_commits_only_when_the_server_draws_for_it(client: ServerClient) -> None:
    plain = create_room(client, game="bash", mode="referee", settings=SMALL_BASH)
    digital = create_room(
        client, game="bash", mode="referee", settings=SMALL_BASH, options={"digital": ["draw"]}
    )
    assert (
        plain["room"]["commitment"] is None and stored(client, plain["room"]["id"]).secret is None
    )
    assert digital["room"]["commitment"] is not None


@pytest.mark.parametrize(
    ("body", "code", "words"),
    [
        ({"name": "Ann", "client_seed": ""}, "bad_request", "client_seed"),
        ({"name": "Ann", "client_seed": "x" * 65}, "bad_request", "client_seed"),
        ({"name": "Ann", "client_seed": "dés"}, "bad_request", "printable ASCII"),
        ({"bot": "random", "client_seed": "abc"}, "bad_seat", "a bot adds no seed"),
    ],
)
def test_a_bad_client_seed_is_a_coded_error_that_says_why(
    client: ServerClient, body: dict[str, str], code: str, words: str
) -> None:
    room = create_room(client, game="bash", settings=SMALL_BASH)["room"]["id"]
    response = client.post(f"/api/rooms/{room}/seats/0", json=body)
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert detail["code"] == code and words in detail["message"]
    assert client.get(f"/api/rooms/{room}").json()["seats"][0]["kind"] == "open"


def test_every_outcome_a_room_draws_comes_from_its_secret_and_its_people_s_seeds(
    client: ServerClient,
) -> None:
    room = create_room(
        client,
        game="bash",
        settings=SMALL_BASH,
        bots=[None, "random"],
        options={"pass_hold_s": 0, "turn_timer_s": 0.01},
    )["room"]["id"]
    take_seat(client, room, 0, name="Ann", client_seed="seven")
    deadline = time.monotonic() + 60
    while client.get(f"/api/rooms/{room}").json()["status"] != "over":
        assert time.monotonic() < deadline
        time.sleep(0.1)
    row = stored(client, room)
    assert row.secret is not None
    key = room_key(bytes.fromhex(row.secret), ["seven", None])
    engine = client.app.state.engine  # type: ignore[attr-defined]
    line = line_of_play(storage.load_actions(engine=engine, room_id=room)).rows()
    game = build_game("bash", row.settings, row.mode)
    state = GameRecord(game.id, game.config(), []).replay(game)
    drawn = 0
    for entry in line:
        if entry.actor == CHANCE:
            assert (
                chance_action(state, seed=key, index=entry.index, settings=row.settings).to_json()
                == entry.action
            )
            drawn += 1
        state.apply(state.game.parse_action(entry.action))
    assert drawn > 20 and state.is_terminal()
