"""The ``check`` message: the rules' own verdict on an action, asked before it is sent,
changing nothing; a Splash! pose that would not rest on its target alone is refused (T06)
by the same test that refuses it when it is played."""

from __future__ import annotations

import pytest
from starlette.testclient import WebSocketTestSession

from splash.core.actions import Json
from splash.server.checks import CHECKS_PER_SECOND
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
from tests.server.messages import ServerMessage

# Seat 0 gives first and seat 1 places on the table; then seat 0 places on that piece.
TOWER = ["options.players=2", "options.drops_to_win=1"]


def wait_to_place_on_a_piece(
    ws: WebSocketTestSession, doc: ServerMessage
) -> tuple[int, list[Json]]:
    """Play seat 0's gifts until it is to place on a tower of at least one piece: the
    index of its placement and the tower."""
    while True:
        if doc["type"] in ("welcome", "update") and doc["view"]["to_act"] == 0:
            view = doc["view"]
            index = doc["index"] + (1 if doc["type"] == "update" else 0)
            if view["phase"] == "place" and view["tower"]:
                return index, list(view["tower"])
            if view["phase"] != "place":
                ws.send_json(msg("act", action=view["legal_actions"][0], expect=index))
        doc = receive(ws)


@pytest.mark.slow
@pytest.mark.rule("T06")
def test_a_check_refuses_the_pose_that_the_rules_refuse_and_changes_nothing(
    client: ServerClient,
) -> None:
    room = create_room(client, game="tower", settings=TOWER, bots=[None, "random"])["room"]["id"]
    token = take_seat(client, room, 0)
    with (
        client.websocket_connect(f"/ws/rooms/{room}") as ws,
        client.websocket_connect(f"/ws/rooms/{room}") as watcher,
    ):
        index, tower = wait_to_place_on_a_piece(ws, join(ws, token, lang="fr"))
        join(watcher)
        # 60 mm off the centre of a piece a few centimetres wide: on the plane of its top,
        # over nothing, so the piece would not rest on its target (T06).
        off: Json = {"kind": "place", "face": "bottom", "rotation_deg": 0, "x_mm": 60, "y_mm": 0}
        ws.send_json(msg("check", action={"kind": "place"}, ref="centred", expect=index))
        centred, _ = receive_until(ws, "check")
        ws.send_json(msg("check", action=off, ref="off"))
        refused, _ = receive_until(ws, "check")
        watcher.send_json(msg("check", action={"kind": "place"}, ref="w"))
        spectator, _ = receive_until(watcher, "error")
        ws.send_json(msg("check", action={"kind": "place"}, expect=index - 1))
        stale, _ = receive_until(ws, "error")
        ws.send_json(msg("sync"))
        after, _ = receive_until(ws, "state")
        ws.send_json(msg("act", action=off, expect=index))
        played, _ = receive_until(ws, "error")
    assert centred == {
        "format": "splash/ws/1",
        "type": "check",
        "ref": "centred",
        "index": index,
        "ok": True,
        "why": None,
    }
    assert refused["ref"] == "off" and refused["index"] == index and refused["ok"] is False
    assert refused["why"] and "bottom" in refused["why"]
    assert spectator["code"] == "not_allowed" and stale["code"] == "stale"
    assert after["index"] == index and after["view"]["tower"] == tower
    assert after["view"]["phase"] == "place" and after["view"]["to_act"] == 0
    assert played["code"] == "illegal_action"


def test_a_check_of_splash_and_bash_is_the_rules_verdict_and_checks_are_limited(
    client: ServerClient,
) -> None:
    room = create_room(client, game="bash", settings=SMALL_BASH)["room"]["id"]
    token = take_seat(client, room, 0)
    take_seat(client, room, 1, bot="random")
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        welcome = join(ws, token)
        doc: ServerMessage = welcome
        while doc["type"] not in ("welcome", "update", "state") or doc["view"]["to_act"] != 0:
            doc = receive(ws)
        assert doc["type"] in ("welcome", "update", "state")
        legal = doc["view"]["legal_actions"]
        ws.send_json(msg("check", action=legal[0], ref=1))
        good, _ = receive_until(ws, "check")
        ws.send_json(msg("check", action={"kind": "fly"}, ref=2))
        bad, _ = receive_until(ws, "check")
        for ref in range(CHECKS_PER_SECOND + 2):
            ws.send_json(msg("check", action=legal[0], ref=10 + ref))
        answers = [receive(ws) for _ in range(CHECKS_PER_SECOND + 2)]
    assert good["ok"] is True and good["why"] is None and good["ref"] == 1
    assert bad["ok"] is False and bad["why"] and "fly" in bad["why"]
    limited = [a for a in answers if a["type"] == "error"]
    assert limited and all(a["code"] == "too_many_checks" for a in limited)
    assert all(a["type"] in ("check", "error") for a in answers)
