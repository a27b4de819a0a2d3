"""The server's log, read whole (BD12): at debug level, in JSON, a Splash & Bash game of
three teams with hidden hands, with a rules error and a failed write on the way, logs each
room event (creation, seats, connections, every action by index and kind, the close) and
never a token, a seed or a card that was in a hand."""

from __future__ import annotations

import io
import json
import logging
import re
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from splash.core.actions import Json
from splash.core.record import GameRecord
from splash.games.bash.state import BashState
from splash.server import storage
from splash.server.logs import LOGGERS, JsonFormatter, NoFrames
from splash.server.rules import build_game
from tests.server.conversation import NO_HOLD, SMALL_BASH, create_room, join, msg, receive
from tests.server.harness import Serve
from tests.server.messages import ServerMessage

INSTANCE = "leak-test"
SETTINGS = [*SMALL_BASH, "options.teams=3"]
KEYS = {"time", "level", "event", "logger", "room", "seat", "instance"}


@pytest.fixture
def json_log() -> Iterator[io.StringIO]:
    """What the ``splash`` and ``uvicorn`` loggers write at debug level, in JSON (as
    ``splash serve --log-level debug --log-format json`` writes it)."""
    buffer = io.StringIO()
    handler = logging.StreamHandler(buffer)
    handler.setFormatter(JsonFormatter(INSTANCE))
    handler.addFilter(NoFrames())
    loggers = [logging.getLogger(name) for name in LOGGERS]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.addHandler(handler)
        logger.setLevel(logging.DEBUG)
    try:
        yield buffer
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.removeHandler(handler)
            logger.setLevel(level)


def hand_cards(actions: list[Json]) -> set[str]:
    """Every card that was in a team's hand at some point of the game of ``actions``."""
    game = build_game("bash", SETTINGS, "play")
    state = game.new_initial_state()
    held: set[str] = set()
    for action in actions:
        state.apply(action)
        assert isinstance(state, BashState)
        held.update(card for hand in state.board.hands for card in hand)
    return held


def test_BD12_a_whole_game_logged_at_debug_holds_no_token_seed_or_hidden_card(
    serve: Serve, json_log: io.StringIO, monkeypatch: pytest.MonkeyPatch
) -> None:
    with serve(instance=INSTANCE) as client:
        created = create_room(
            client,
            game="bash",
            settings=SETTINGS,
            bots=[None, None, "random"],
            options={**NO_HOLD, "turn_timer_s": 0.05},  # seat 1's person is away: the timer
        )
        room = created["room"]["id"]
        tokens = [created["host_token"]]
        for seat in (0, 1):
            response = client.post(f"/api/rooms/{room}/seats/{seat}", json={"name": f"p{seat}"})
            tokens.append(response.json()["token"])
        seed = client.chance_key(room)
        held = client.room(room)

        def secret_state() -> str:
            return json.dumps(held.state.to_json())

        # A rules error whose message quotes the whole state (every hand), once.
        def broken_apply(action: Any) -> None:
            raise RuntimeError(f"the rules broke on {action} in {secret_state()}")

        # A failed write whose message quotes what it stored, and the state, once.
        write_actions = storage.write_actions
        failures: list[str] = []

        def failing_write(conn: Any, entries: Any) -> None:
            if not failures:
                failures.append(f"disk full storing {entries!r} of {secret_state()}")
                raise RuntimeError(failures[0])
            write_actions(conn, entries)

        with client.websocket_connect(f"/ws/rooms/{room}") as away:  # seat 1 looks in, leaves
            join(away, tokens[2])
        rng = np.random.default_rng(7)
        decisions = 0
        with client.websocket_connect(f"/ws/rooms/{room}") as ws:
            doc: ServerMessage = join(ws, tokens[1])
            while not (doc["type"] == "update" and doc["status"] == "over"):
                if doc["type"] in ("welcome", "update", "state") and doc["view"]["to_act"] == 0:
                    legal = doc["view"]["legal_actions"]
                    if legal:
                        decisions += 1
                        if decisions == 6:  # the hands hold cards by now
                            monkeypatch.setattr(held.state, "apply", broken_apply)
                        if decisions == 9:
                            monkeypatch.setattr(storage, "write_actions", failing_write)
                        index = doc["index"] + (1 if doc["type"] == "update" else 0)
                        choice = legal[int(rng.integers(len(legal)))]
                        ws.send_json(msg("act", action=choice, expect=index))
                doc = receive(ws)
        record = GameRecord.from_json(client.get(f"/api/rooms/{room}/replay").json())
        closed = client.delete(
            f"/api/rooms/{room}", headers={"Authorization": f"Bearer {tokens[0]}"}
        )
        assert closed.status_code == 200, closed.text
    assert failures, "no write failed: the test provoked nothing"

    text = json_log.getvalue()
    lines = [json.loads(line) for line in text.splitlines()]
    assert len(lines) > 100
    for line in lines:
        assert KEYS <= line.keys() <= KEYS | {"traceback"}, line
        assert line["instance"] == INSTANCE
    mine = [line for line in lines if line["room"] == room]
    events = [line["event"] for line in mine]
    assert any(e.startswith(f"room {room}: created (bash, play, 3 seats") for e in events)
    assert sum(f"room {room}: seat {seat} taken by a person" in events for seat in (0, 1)) == 2
    assert f"room {room}: seat 1 connected" in events
    assert f"room {room}: seat 1 disconnected" in events
    assert f"room {room}: seat 0 connected" in events
    assert any(e.startswith(f"room {room}: closed (host)") for e in events)
    logged = [
        int(m.group(1)) for e in events if (m := re.match(rf"room {room}: action (\d+) \(", e))
    ]
    assert sorted(logged) == list(range(len(record.actions))), "each action once, by index"
    by_seat = {line["seat"] for line in mine if " action " in line["event"]}
    assert {0, 1, 2, None} <= by_seat  # the teams' actions, and the chance draws (no seat)
    # The provoked failures were logged, with a traceback but not the exception's message.
    broke = [line for line in mine if "the rules failed" in line["event"]]
    assert broke and "RuntimeError: (message withheld)" in broke[0]["traceback"]
    assert any(" not stored (RuntimeError)" in e for e in events)

    cards = hand_cards(record.actions)
    assert len(cards) >= 3, "no hand held cards: the test checked nothing"
    counts = {card: text.count(card) for card in cards}
    assert counts == dict.fromkeys(cards, 0), counts
    for token in tokens:
        assert token not in text
    assert str(seed) not in text
    secret = client.stored(room).secret
    assert secret is not None and secret not in text
    assert failures[0] not in text and "disk full" not in text
    assert '"hands"' not in text and "high_tide" not in text
