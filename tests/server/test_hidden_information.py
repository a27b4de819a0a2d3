"""Whole games over the socket: every message a seat or a spectator receives holds exactly
what it may know (BD12) — the seat's own view, the public view — and never a seed, another
team's hand, the full state or a token."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import numpy as np
import pytest
from fastapi.testclient import TestClient

from splash.core.record import GameRecord
from splash.server import storage
from splash.server.rules import build_game, public_view
from tests.server.conversation import SMALL_BASH, create_room, join, msg, take_seat

FORBIDDEN_KEYS = ('"hands"', '"history"', '"seed"', '"token"', '"snapshot"')


def play_scripted(ws: Any, token: str, rng: np.random.Generator) -> list[dict[str, Any]]:
    """Join with ``token`` and take random legal actions for the seat until the game is over;
    every message read."""
    ws.send_json(msg("join", token=token))
    seen: list[dict[str, Any]] = []
    seat = None
    while True:
        raw = ws.receive_text()
        doc = json.loads(raw)
        doc["_raw"] = raw
        seen.append(doc)
        if doc["type"] == "welcome":
            seat = doc["seat"]
        if doc.get("status") == "over":
            return seen
        view = doc.get("view")
        if doc["type"] in ("welcome", "update", "state") and view and view["to_act"] == seat:
            legal = view["legal_actions"]
            if legal:
                index = doc["index"] + (1 if doc["type"] == "update" else 0)
                choice = legal[int(rng.integers(len(legal)))]
                ws.send_json(msg("act", action=choice, expect=index))


def drain(ws: Any) -> list[dict[str, Any]]:
    """Every message a passive connection received, up to the end of the game."""
    seen = []
    while True:
        raw = ws.receive_text()
        doc = json.loads(raw)
        doc["_raw"] = raw
        seen.append(doc)
        if doc.get("status") == "over" and doc["type"] == "update":
            return seen


def check_no_secrets(messages: list[dict[str, Any]], seed: int, tokens: list[str]) -> None:
    for doc in messages:
        raw = doc["_raw"]
        assert str(seed) not in raw
        for key in FORBIDDEN_KEYS:
            assert key not in raw, (key, raw[:300])
        for token in tokens:
            assert token not in raw


def visible_action(full: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    """The action as a seat may see it: a card it did not see named in an event is cut."""
    if "card" not in full or full["kind"] not in ("draw", "steal"):
        return full
    seen = any(
        e.get("event") == full["kind"] and e.get("card") == full["card"] for e in view["events"]
    )
    return full if seen else {k: v for k, v in full.items() if k != "card"}


@pytest.mark.rule("BD12")
def test_BD12_every_message_of_whole_games_shows_only_what_its_reader_may_know(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="splash.server")
    settings = [*SMALL_BASH, "options.teams=3"]
    hidden_cards_seen = 0
    for game_number in range(2):
        created = create_room(
            client, game="bash", settings=settings, bots=[None, "random", "greedy"]
        )
        room = created["room"]["id"]
        token = str(take_seat(client, room, 0))
        engine = client.app_state.engine  # type: ignore[attr-defined]
        seed = storage.get_room(engine=engine, room_id=room).seed  # type: ignore[union-attr]
        rng = np.random.default_rng(game_number)
        with client.websocket_connect(f"/ws/rooms/{room}") as spectator:
            join(spectator)
            with client.websocket_connect(f"/ws/rooms/{room}") as ws:
                mine = play_scripted(ws, token, rng)
            public = drain(spectator)
        check_no_secrets(mine + public, seed, [token])
        record = GameRecord.from_json(client.get(f"/api/rooms/{room}/replay").json())
        game = build_game("bash", settings, "play")
        state = game.new_initial_state()
        after: list[Any] = [state.clone()]
        for action in record.actions:
            state.apply(action)  # type: ignore[arg-type]
            after.append(state.clone())
        assert state.is_terminal()
        updates = [d for d in mine if d["type"] == "update"]
        assert [u["index"] for u in updates] == list(range(len(record.actions)))
        for update in updates:
            truth = after[update["index"] + 1]
            expected_view = truth.view(0)
            assert update["view"] == json.loads(json.dumps(expected_view))
            full = record.actions[update["index"]]
            assert update["action"] == visible_action(full, expected_view)  # type: ignore[arg-type]
            if update["action"] != full:
                hidden_cards_seen += 1
        spectator_updates = [d for d in public if d["type"] == "update"]
        assert len(spectator_updates) == len(record.actions)
        for update in spectator_updates:
            truth = after[update["index"] + 1]
            assert update["view"] == json.loads(json.dumps(public_view(truth)))
            assert update["view"]["hand"] is None
            full = record.actions[update["index"]]
            if full["kind"] in ("draw", "steal") and full.get("deck", "high_tide") == "high_tide":  # type: ignore[index,union-attr]
                assert "card" not in update["action"]
    assert hidden_cards_seen > 0, "no other team drew a hidden card: the test checked nothing"
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) > 100
    cards = set(build_game("bash", settings, "play").settings.decks["high_tide"].cards)  # type: ignore[attr-defined]
    assert not [line for line in lines if any(card in line for card in cards)]


def test_a_replay_is_refused_while_the_game_runs(client: TestClient) -> None:
    room = create_room(client, game="bash", settings=SMALL_BASH)["room"]["id"]
    for path in (f"/api/rooms/{room}/replay", f"/api/rooms/{room}/replay/0"):
        response = client.get(path)
        assert response.status_code == 409
        assert response.json()["detail"]["code"] == "game_running"


def test_a_finished_game_replays_step_by_step_with_every_hand(client: TestClient) -> None:
    room = create_room(client, game="bash", settings=SMALL_BASH, bots=["random", "random"])["room"][
        "id"
    ]
    hub = client.app_state.hub  # type: ignore[attr-defined]
    for _ in range(200):
        if client.get(f"/api/rooms/{room}").json()["status"] == "over":
            break
        client.portal.call(asyncio.sleep, 0.05)  # type: ignore[attr-defined]
    log = client.get(f"/api/rooms/{room}/replay").json()
    assert log["format"] == "splash/record/1" and log["game"] == "bash"
    n = len(log["actions"])
    assert n > 20
    record = GameRecord.from_json(log)
    game = build_game("bash", SMALL_BASH, "play")
    for k in (0, 1, n // 2, n):
        step = client.get(f"/api/rooms/{room}/replay/{k}").json()
        truth = record.replay(game, k)
        assert step["index"] == k and step["length"] == n
        assert step["state"] == json.loads(json.dumps(truth.to_json()))
        assert step["views"][1] == json.loads(json.dumps(truth.view(1)))
        assert step["action"] == (log["actions"][k - 1] if k else None)
    assert client.get(f"/api/rooms/{room}/replay/{n + 1}").status_code == 404
    assert hub.cached(room).status == "over"
