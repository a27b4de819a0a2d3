"""The ``placements`` request of a Splash! play room (T06, TD13): the placement map of the
gift, answered to the seat that must place it and to no one else, by the physics layer's
request that the server looks up by its kind; refused in referee rooms."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import WebSocketTestSession

from splash.physics.map_request import KIND
from splash.physics.placement import Placement, PoseProbe
from splash.physics.poses import PieceRest
from tests.physics.builders import shared_model
from tests.server.conversation import create_room, join, msg, receive, take_seat
from tests.server.harness import ServerClient
from tests.server.messages import AnswerMessage, ServerMessage, View
from tests.server.test_check_message import TOWER


def _wait_to_place_on_a_piece(ws: WebSocketTestSession, token: str | None) -> tuple[int, View]:
    """Play seat 0's gifts until it must place on a tower: the placement's index and view."""
    doc: ServerMessage = join(ws, token)
    while True:
        if doc["type"] in ("welcome", "update") and doc["view"]["to_act"] == 0:
            view = doc["view"]
            index = doc["index"] + (1 if doc["type"] == "update" else 0)
            if view["phase"] == "place" and view["tower"]:
                return index, view
            if view["phase"] != "place":
                ws.send_json(msg("act", action=view["legal_actions"][0], expect=index))
        doc = receive(ws)


@pytest.mark.slow
@pytest.mark.rule("T06", "TD13")
def test_T06_the_placer_gets_the_map_and_its_steadiest_poses_pass_the_check(
    client: ServerClient,
) -> None:
    room = create_room(client, game="tower", settings=TOWER, bots=[None, "random"])["room"]["id"]
    token = take_seat(client, room, 0)
    url = f"/api/rooms/{room}/requests/{KIND}"
    mine_header = {"Authorization": f"Bearer {token}"}
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        index, view = _wait_to_place_on_a_piece(ws, token)
        mine = client.post(url, headers=mine_header)
        again = client.post(url, headers=mine_header)
        watcher = client.post(url)
    assert mine.status_code == 200, mine.text
    answer = mine.json()["answer"]
    assert mine.json()["index"] == index == answer["index"]
    assert answer["forced"] is False and answer["target"] == view.get("target")
    assert again.json() == mine.json()
    assert watcher.status_code == 422 and watcher.json()["detail"]["code"] == "bad_request"
    tower = view.get("tower", [])
    rests = [
        PieceRest.from_json({**piece, **piece["pose"]})
        for piece in tower
        if isinstance(piece["pose"], dict)
    ]
    probe = PoseProbe(shared_model(), rests)
    checked = 0
    for face, turns in answer["faces"].items():
        for turn, cell in turns.items():
            steadiest = cell["steadiest"]
            if steadiest is None:
                continue
            offset = (steadiest["x_mm"] / 1000.0, steadiest["y_mm"] / 1000.0)
            gift = str(view.get("gift"))
            probe.check(Placement(gift, face, float(turn), offset, answer["target"]))
            checked += 1
    assert checked > 0


@pytest.mark.slow
@pytest.mark.rule("T06", "TD13")
def test_T06_the_map_asked_over_the_websocket_comes_to_the_placer_alone(
    client: ServerClient,
) -> None:
    room = create_room(client, game="tower", settings=TOWER, bots=[None, "random"])["room"]["id"]
    token = take_seat(client, room, 0)
    with (
        client.websocket_connect(f"/ws/rooms/{room}") as ws,
        client.websocket_connect(f"/ws/rooms/{room}") as spectator,
    ):
        index, view = _wait_to_place_on_a_piece(ws, token)
        join(spectator)
        ws.send_json(msg("ask", request=KIND, ref="m1"))
        answered = receive(ws)
        posted = client.post(
            f"/api/rooms/{room}/requests/{KIND}", headers={"Authorization": f"Bearer {token}"}
        )
        spectator.send_json(msg("ask", request=KIND, ref="s1"))
        refused = receive(spectator)
        ws.send_json(msg("ask", request="dance", ref="m2"))
        unknown = receive(ws)
        ws.send_json(msg("ask", request=KIND, body=[1], ref="m3"))
        malformed = receive(ws)
    assert answered["type"] == "answer" and answered["ref"] == "m1"
    assert answered["request"] == KIND and answered["index"] == index
    assert answered["answer"] == posted.json()["answer"]
    answer = answered["answer"]
    assert isinstance(answer, dict) and answer["target"] == view.get("target")
    assert refused["type"] == "error" and refused["code"] == "bad_request"
    assert "only the seat that must place" in refused["message"]
    assert unknown["type"] == "error" and unknown["code"] == "unknown_request"
    assert KIND in unknown["message"] and "dance" in unknown["message"]
    assert malformed["type"] == "error" and malformed["code"] == "bad_field"


def test_a_referee_room_has_no_map_to_ask_for(client: ServerClient) -> None:
    room = create_room(client, game="tower", mode="referee", settings=TOWER)["room"]["id"]
    refused = client.post(f"/api/rooms/{room}/requests/{KIND}")
    assert refused.status_code == 404 and refused.json()["detail"]["code"] == "unknown_request"
    referee = create_room(client, game="tower", mode="referee", settings=TOWER)
    with client.websocket_connect(f"/ws/rooms/{referee['room']['id']}") as ws:
        join(ws, referee["referee_token"])
        ws.send_json(msg("ask", request=KIND))
        error = receive(ws)
    assert error["type"] == "error" and error["code"] == "unknown_request"


def _answer(ws: WebSocketTestSession) -> AnswerMessage:
    """The next message, an ``answer``."""
    doc = receive(ws)
    assert doc["type"] == "answer", doc
    return doc


@pytest.mark.slow
@pytest.mark.rule("TD14")
def test_TD14_the_placer_asks_the_odds_of_a_safe_pose_in_a_room_that_shows_them(
    client: ServerClient,
) -> None:
    settings = [*TOWER, "options.placement_aid=odds"]
    room = create_room(client, game="tower", settings=settings, bots=[None, "random"])
    token = take_seat(client, room["room"]["id"], 0)
    plain = create_room(client, game="tower", settings=TOWER, bots=[None, "random"])
    plain_token = take_seat(client, plain["room"]["id"], 0)
    with client.websocket_connect(f"/ws/rooms/{room['room']['id']}") as ws:
        index, _ = _wait_to_place_on_a_piece(ws, token)
        ws.send_json(msg("ask", request=KIND))
        placements: Any = _answer(ws)["answer"]
        assert isinstance(placements, dict)
        face, turns = next(
            (face, turns)
            for face, turns in placements["faces"].items()
            if turns["0"]["steadiest"] is not None
        )
        steadiest = turns["0"]["steadiest"]
        pose = {
            "face": face,
            "rotation_deg": 0,
            "x_mm": steadiest["x_mm"],
            "y_mm": steadiest["y_mm"],
        }
        ws.send_json(msg("ask", request="odds", body=pose, ref="o1"))
        answered = _answer(ws)
        ws.send_json(msg("ask", request="odds", body=pose, ref="o2"))
        again = _answer(ws)
    assert answered["request"] == "odds"
    odds: Any = answered["answer"]
    assert isinstance(odds, dict) and odds["rulings"] == 16 and odds["index"] == index
    assert 0 <= odds["stood"] <= 16 and odds["pose"] == pose
    assert again["answer"] == odds  # kept by the room: the same answer, not ruled again
    with client.websocket_connect(f"/ws/rooms/{plain['room']['id']}") as ws:
        _wait_to_place_on_a_piece(ws, plain_token)
        ws.send_json(msg("ask", request="odds", body=pose))
        refused = receive(ws)
    assert refused["type"] == "error" and refused["code"] == "bad_request"
    assert "options.placement_aid=region" in refused["message"]
