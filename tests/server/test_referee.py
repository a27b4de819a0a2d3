"""Referee rooms: people at the pool or the table enter the chance outcomes and the
decisions; the server keeps the rules and shows only the public view."""

from __future__ import annotations

import json
from typing import Unpack

from splash.core.protocol import CHANCE
from tests.server.conversation import (
    SMALL_BASH,
    create_room,
    join,
    msg,
    pending_chance,
    receive_until,
    take_seat,
)
from tests.server.harness import ServerClient
from tests.server.messages import RoomOptionsBody, ViewMessage


def referee_room(
    client: ServerClient, game: str, settings: list[str], **options: Unpack[RoomOptionsBody]
) -> tuple[str, str]:
    created = create_room(client, game=game, mode="referee", settings=settings, options=options)
    assert created["room"]["status"] == "playing"
    return created["room"]["id"], str(created["referee_token"])


def test_the_referee_enters_rolls_and_decisions_for_open_seats(client: ServerClient) -> None:
    room, token = referee_room(client, "bash", SMALL_BASH, digital=["draw", "steal"])
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        welcome = join(ws, token)
        assert welcome["role"] == "referee" and welcome["view"]["hand"] is None
        doc: ViewMessage = welcome
        rolls = 0
        for _ in range(60):
            view = doc["view"]
            if doc["status"] == "over":
                break
            if view["to_act"] == CHANCE and pending_chance(doc)["event"]["kind"] != "roll":
                doc, _ = receive_until(ws, "update")  # the server draws the cards itself
                assert doc["source"] == "chance"
                continue
            if view["to_act"] == CHANCE:
                outcomes = pending_chance(doc)["outcomes"]
                if not rolls:
                    ws.send_json(msg("act", seat=0, action={"kind": "stay"}))
                    error, _ = receive_until(ws, "error")
                    assert error["code"] == "awaiting_chance"
                    ws.send_json(msg("outcome", action={"kind": "roll", "face": 99}))
                    error, _ = receive_until(ws, "error")
                    assert error["code"] == "malformed_action"
                ws.send_json(msg("outcome", action=outcomes[-1], expect=doc["index"] + 1))
                rolls += 1
            else:
                legal = view["legal_actions"]
                if not legal:
                    ws.send_json(msg("reveal", seat=view["to_act"]))
                    doc, _ = receive_until(ws, "state")
                    assert doc["view"]["revealed_hands"][str(view["to_act"])] is not None
                    continue
                ws.send_json(msg("act", seat=view["to_act"], action=legal[0]))
            receive_until(ws, "ack")
            doc, _ = receive_until(ws, "update")
            assert doc["source"] == "referee" if doc["actor"] == CHANCE else "human"
    assert rolls > 5


def test_a_referee_roll_is_validated_and_a_person_holds_a_seat(client: ServerClient) -> None:
    room, token = referee_room(client, "bash", SMALL_BASH)
    team = take_seat(client, room, 1)
    with (
        client.websocket_connect(f"/ws/rooms/{room}") as ws,
        client.websocket_connect(f"/ws/rooms/{room}") as phone,
    ):
        doc = join(ws, token)
        join(phone, team)
        ws.send_json(msg("act", seat=0, action={"kind": "start_lane", "lane": "outer"}))
        receive_until(ws, "ack")
        receive_until(ws, "update")
        ws.send_json(msg("act", seat=1, action={"kind": "start_lane", "lane": "outer"}))
        error, _ = receive_until(ws, "error")
        assert error["code"] == "seat_held"
        ws.send_json(msg("outcome", action={"kind": "roll", "face": 3}))
        error, _ = receive_until(ws, "error")
        assert error["code"] == "no_chance"
        phone.send_json(msg("outcome", action={"kind": "roll", "face": 3}))
        error, _ = receive_until(phone, "error")
        assert error["code"] == "not_allowed"
    assert doc["chance"] is None


def test_a_refereed_splash_game_takes_reported_outcomes(client: ServerClient) -> None:
    room, token = referee_room(
        client, "tower", ["options.players=2", "options.deal=random"], digital=["deal"]
    )
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        doc: ViewMessage = join(ws, token)
        while doc["view"]["phase"] != "give":
            doc, _ = receive_until(ws, "update")
        given = doc["view"]["legal_actions"][0]
        ws.send_json(msg("act", action=given))
        receive_until(ws, "ack")
        doc, _ = receive_until(ws, "update")
        while doc["view"]["phase"] != "result":
            doc, _ = receive_until(ws, "update")
        chance = pending_chance(doc)
        assert chance["event"]["kind"] == "placement" and "outcomes" not in chance
        ws.send_json(
            msg("outcome", report={"result": "fell", "standing": [["nowhere"]], "on_table": []})
        )
        error, _ = receive_until(ws, "error")
        assert error["code"] in ("bad_outcome", "illegal_action")
        gift = given["piece"]  # on the table, alone: a fall that left it standing is none
        ws.send_json(
            msg("outcome", report={"result": "fell", "standing": [[gift]], "on_table": []})
        )
        error, _ = receive_until(ws, "error")
        assert error["code"] == "illegal_action" and "nothing fell" in json.dumps(error)
        ws.send_json(msg("outcome", report={"result": "stood", "room_left": False}, ref="r"))
        ack, _ = receive_until(ws, "ack")
        update, _ = receive_until(ws, "update")
    assert ack["ref"] == "r"
    assert update["source"] == "referee" and update["action"]["kind"] == "result"
    assert len(update["view"]["tower"]) == 1
