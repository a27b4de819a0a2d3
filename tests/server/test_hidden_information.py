"""Whole games over the socket: every message a seat or a spectator receives holds exactly
what it may know (BD12) — the seat's own view, the public view — and never a seed, another
team's hand, the full state or a token."""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass

import numpy as np
import pytest
from starlette.testclient import WebSocketTestSession

from splash.core.actions import Json
from splash.core.protocol import State
from splash.core.record import GameRecord
from splash.games.bash import BashGame
from splash.server.rules import build_game, game_summary, public_view
from tests.server.conversation import (
    NO_HOLD,
    QUICK_TIMER_S,
    SMALL_BASH,
    action_docs,
    create_room,
    join,
    msg,
    take_seat,
)
from tests.server.harness import ServerClient
from tests.server.messages import ActionDoc, RematchMessage, ServerMessage, UpdateMessage, View

FORBIDDEN_KEYS = ('"hands"', '"history"', '"seed"', '"token"', '"snapshot"')


@dataclass(frozen=True)
class Read:
    """A message as the socket carried it, and as the JSON document it is."""

    raw: str
    doc: ServerMessage


def read(ws: WebSocketTestSession) -> Read:
    raw = ws.receive_text()
    doc: ServerMessage = json.loads(raw)
    return Read(raw, doc)


def updates(messages: list[Read]) -> list[UpdateMessage]:
    return [m.doc for m in messages if m.doc["type"] == "update"]


def play_scripted(ws: WebSocketTestSession, token: str, rng: np.random.Generator) -> list[Read]:
    """Join with ``token`` and take random legal actions for the seat until the game is over;
    every message read."""
    ws.send_json(msg("join", token=token))
    ws.send_json(msg("chat", text="good luck"))  # the chat reveals nothing either
    seen: list[Read] = []
    seat = None
    while True:
        message = read(ws)
        seen.append(message)
        doc = message.doc
        if doc["type"] == "welcome":
            seat = doc["seat"]
        if doc.get("status") == "over":
            return seen
        if doc["type"] in ("welcome", "update", "state") and doc["view"]["to_act"] == seat:
            legal = doc["view"]["legal_actions"]
            if legal:
                index = doc["index"] + (1 if doc["type"] == "update" else 0)
                choice = legal[int(rng.integers(len(legal)))]
                ws.send_json(msg("act", action=choice, expect=index))


def drain(ws: WebSocketTestSession) -> list[Read]:
    """Every message a passive connection received, up to the end of the game."""
    seen = []
    while True:
        message = read(ws)
        seen.append(message)
        if message.doc.get("status") == "over" and message.doc["type"] == "update":
            return seen


def read_until(ws: WebSocketTestSession, kind: str) -> list[Read]:
    """Every message read up to the first of type ``kind``, that one included."""
    seen = [read(ws)]
    while seen[-1].doc["type"] != kind:
        seen.append(read(ws))
    return seen


def rematch_of(message: Read) -> RematchMessage:
    """The ``rematch`` message that ``message`` is."""
    doc = message.doc
    assert doc["type"] == "rematch", doc
    return doc


def check_no_secrets(messages: list[Read], seed: int, tokens: list[str]) -> None:
    for message in messages:
        raw = message.raw
        assert str(seed) not in raw
        for key in FORBIDDEN_KEYS:
            assert key not in raw, (key, raw[:300])
        for token in tokens:
            assert token not in raw


def with_summary(view: dict[str, Json], state: State) -> View:
    """``view`` as the server sends it: with the game's summary once the game is over."""
    if state.is_terminal():
        view["summary"] = game_summary(state)
    doc: View = json.loads(json.dumps(view))
    return doc


def visible_action(full: ActionDoc, view: View) -> ActionDoc:
    """The action as a seat may see it: a card it did not see named in an event is cut."""
    if "card" not in full or full["kind"] not in ("draw", "steal"):
        return full
    seen = any(
        e.get("event") == full["kind"] and e.get("card") == full["card"] for e in view["events"]
    )
    return full if seen else {k: v for k, v in full.items() if k != "card"}


@pytest.mark.rule("BD12")
def test_BD12_every_message_of_whole_games_shows_only_what_its_reader_may_know(
    client: ServerClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="splash.server")
    settings = [*SMALL_BASH, "options.teams=3"]
    hidden_cards_seen = 0
    for game_number in range(2):
        created = create_room(
            client, game="bash", settings=settings, bots=[None, "random", "greedy"], options=NO_HOLD
        )
        room = created["room"]["id"]
        token = str(take_seat(client, room, 0))
        seed = client.chance_key(room)
        secret = client.stored(room).secret
        assert secret is not None  # the room commits to it; no message may hold it
        rng = np.random.default_rng(game_number)
        with client.websocket_connect(f"/ws/rooms/{room}") as spectator:
            join(spectator)
            with client.websocket_connect(f"/ws/rooms/{room}") as ws:
                mine = play_scripted(ws, token, rng)
            public = drain(spectator)
            with client.websocket_connect(f"/ws/rooms/{room}") as again:
                mine_again = join(again, token)
        with client.websocket_connect(f"/ws/rooms/{room}") as watcher:
            public_again = join(watcher)
        check_no_secrets(mine + public, seed, [token, secret])
        assert [m.doc["type"] for m in mine + public].count("chat") == 2
        assert [c["text"] for c in public_again["chat"]] == ["good luck"]
        check_no_secrets([Read(json.dumps(mine_again), mine_again)], seed, [token, secret])
        check_no_secrets([Read(json.dumps(public_again), public_again)], seed, [token, secret])
        for welcome, seen in ((mine_again, mine), (public_again, public)):
            live = {u["index"]: u for u in updates(seen)}
            total = len(live)
            assert [e["index"] for e in welcome["log"]] == list(range(max(0, total - 50), total))
            for entry in welcome["log"]:
                shown = live[entry["index"]]
                assert (entry["actor"], entry["source"]) == (shown["actor"], shown["source"])
                assert entry["action"] == shown["action"]
        record = GameRecord.from_json(client.get(f"/api/rooms/{room}/replay").json())
        actions = action_docs(record.actions)
        game = build_game("bash", settings, "play")
        state = game.new_initial_state()
        after: list[State] = [state.clone()]
        for action in actions:
            state.apply(action)
            after.append(state.clone())
        assert state.is_terminal()
        seat_updates = updates(mine)
        assert [u["index"] for u in seat_updates] == list(range(len(actions)))
        for update in seat_updates:
            truth = after[update["index"] + 1]
            expected_view = with_summary(truth.view(0), truth)
            assert update["view"] == expected_view
            full = actions[update["index"]]
            assert update["action"] == visible_action(full, expected_view)
            if update["action"] != full:
                hidden_cards_seen += 1
        spectator_updates = updates(public)
        assert len(spectator_updates) == len(actions)
        for update in spectator_updates:
            truth = after[update["index"] + 1]
            assert update["view"] == with_summary(public_view(truth), truth)
            assert update["view"]["hand"] is None
            full = actions[update["index"]]
            if full["kind"] in ("draw", "steal") and full.get("deck", "high_tide") == "high_tide":
                assert "card" not in update["action"]
        summaries = [u["view"].get("summary") for u in (seat_updates[-1], spectator_updates[-1])]
        summaries += [mine_again["view"].get("summary"), public_again["view"].get("summary")]
        assert summaries[0] is not None and summaries == [summaries[0]] * 4
    assert hidden_cards_seen > 0, "no other team drew a hidden card: the test checked nothing"
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) > 100
    bash = build_game("bash", settings, "play")
    assert isinstance(bash, BashGame)
    cards = set(bash.settings.decks["high_tide"].cards)
    assert not [line for line in lines if any(card in line for card in cards)]


def test_a_rematch_tells_each_person_their_own_token_and_the_public_screens_none(
    client: ServerClient,
) -> None:
    created = create_room(
        client,
        game="bash",
        settings=SMALL_BASH,
        options={"turn_timer_s": QUICK_TIMER_S, "pass_hold_s": 0},
    )
    room = created["room"]["id"]
    tokens = [str(take_seat(client, room, seat)) for seat in (0, 1)]
    with (
        client.websocket_connect(f"/ws/rooms/{room}") as ann,
        client.websocket_connect(f"/ws/rooms/{room}") as bob,
        client.websocket_connect(f"/ws/rooms/{room}") as screen,
    ):
        for ws, token in ((ann, tokens[0]), (bob, tokens[1]), (screen, None)):
            join(ws, token)
        seen = [drain(ws) for ws in (ann, bob, screen)]
        bob.send_json(msg("rematch"))
        for each, ws in zip(seen, (ann, bob, screen), strict=True):
            each.extend(read_until(ws, "rematch"))
    told = [rematch_of(each[-1]) for each in seen]
    new = {doc["rematch"] for doc in told}
    assert len(new) == 1 and room not in new
    mine = [str(doc.get("token")) for doc in told[:2]]
    seeds = [client.chance_key(room), client.chance_key(new.pop())]
    for seed in seeds:
        check_no_secrets(seen[2], seed, [*tokens, *mine])
        for reader, other in ((0, 1), (1, 0)):
            check_no_secrets(seen[reader][:-1], seed, [*tokens, *mine])
            assert mine[other] not in seen[reader][-1].raw and str(seed) not in seen[reader][-1].raw
    assert mine[0] != mine[1] and not set(mine) & set(tokens)


def test_a_replay_is_refused_while_the_game_runs(client: ServerClient) -> None:
    room = create_room(client, game="bash", settings=SMALL_BASH)["room"]["id"]
    for path in (f"/api/rooms/{room}/replay", f"/api/rooms/{room}/replay/0"):
        response = client.get(path)
        assert response.status_code == 409
        assert response.json()["detail"]["code"] == "game_running"


def test_a_finished_game_replays_step_by_step_with_every_hand(client: ServerClient) -> None:
    room = create_room(client, game="bash", settings=SMALL_BASH, bots=["random", "random"])["room"][
        "id"
    ]
    for _ in range(200):
        if client.get(f"/api/rooms/{room}").json()["status"] == "over":
            break
        client.call(asyncio.sleep, 0.05)
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
    assert client.room(room).status == "over"


@pytest.mark.rule("BD12")
def test_BD12_the_recent_log_rebuilt_from_storage_is_the_log_kept_while_playing() -> None:
    from splash.server.room import RECENT_ENTRIES, LogEntry, replay_recent
    from splash.server.rules import audience
    from splash.server.storage import ActionRow

    game = build_game("bash", [*SMALL_BASH, "options.teams=3"], "play")
    state = game.new_initial_state()
    rng = np.random.default_rng(5)
    rows: list[ActionRow] = []
    live: list[LogEntry] = []
    while not state.is_terminal() and len(rows) < 400:
        legal = state.legal_actions()
        action = legal[int(rng.integers(len(legal)))]
        seats = audience(state, action)
        actor = state.to_act()
        rows.append(ActionRow(len(rows), action.to_json(), actor, "seat"))
        live.append(LogEntry(len(live), actor, "seat", action, seats))
        state.apply(action)
    rebuilt, recent = replay_recent(game, rows)
    assert rebuilt.to_json() == state.to_json()
    assert list(recent) == live[-RECENT_ENTRIES:]
    hidden = [(e, e.audience) for e in recent if e.audience is not None]
    assert hidden, "no hidden draw among the last entries: the test checked nothing"
    for entry, seats in hidden:
        outsider = next(s for s in range(3) if s not in seats)
        for recipient in (outsider, None):
            shown = entry.for_recipient(recipient)["action"]
            assert isinstance(shown, dict) and "card" not in shown
        insider = entry.for_recipient(min(seats))["action"]
        assert isinstance(insider, dict) and "card" in insider


@pytest.mark.rule("BD12")
def test_BD12_takebacks_show_nothing_taken_back_to_whoever_had_not_seen_it(
    client: ServerClient,
) -> None:
    settings = [*SMALL_BASH, "options.teams=3"]
    created = create_room(
        client, game="bash", settings=settings, bots=[None, "random", "random"], options=NO_HOLD
    )
    room = created["room"]["id"]
    token = str(take_seat(client, room, 0))
    seed = client.chance_key(room)
    secret = client.stored(room).secret
    assert secret is not None
    rng = np.random.default_rng(3)
    seen: list[Read] = []
    undone = 0
    with (
        client.websocket_connect(f"/ws/rooms/{room}") as spectator,
        client.websocket_connect(f"/ws/rooms/{room}") as ws,
    ):
        join(spectator)
        ws.send_json(msg("join", token=token))
        acts = 0
        while True:
            message = read(ws)
            seen.append(message)
            doc = message.doc
            if doc.get("status") == "over":
                break
            if doc["type"] == "undone":
                held = client.room(room)
                assert doc["view"] == json.loads(json.dumps(held.state.view(0)))
                assert doc["index"] == held.index
                undone += 1
            if doc["type"] in ("welcome", "update", "undone") and doc["view"]["to_act"] == 0:
                legal = doc["view"]["legal_actions"]
                if legal:
                    index = doc["index"] + (1 if doc["type"] == "update" else 0)
                    if acts % 4 == 3 and doc["type"] != "undone":
                        ws.send_json(msg("undo", expect=index))
                    else:
                        ws.send_json(
                            msg("act", action=legal[int(rng.integers(len(legal)))], expect=index)
                        )
                    acts += 1
        public = drain(spectator)
        with client.websocket_connect(f"/ws/rooms/{room}") as again:
            welcome = join(again, token)
    assert undone >= 3
    check_no_secrets(seen + public, seed, [token, secret])
    check_no_secrets([Read(json.dumps(welcome), welcome)], seed, [token, secret])
    held = client.room(room)
    # The welcome's log is the line of play as seat 0 may see it: no card it did not see.
    for entry in welcome["log"]:
        full = held.state.history[entry["index"]].to_json()
        assert entry["action"] == {k: v for k, v in full.items() if k in entry["action"]}
    record = GameRecord.from_json(client.get(f"/api/rooms/{room}/replay").json())
    assert len(record.actions) == held.index
    takebacks = record.meta["takebacks"]
    assert isinstance(takebacks, list) and len(takebacks) == undone
