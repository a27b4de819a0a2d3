"""Reaction windows of people held open (``splash.server.hold``): how fast a team passes tells
the other seats nothing about its hand.

Two games that differ only in the card team 0 draws: a ``rogue_wave`` (playable before the
roll) or a ``lifebuoy`` (playable only when a pawn falls).  With the first, the person
passes at once; with the second, "Pass" is all the team may do and the server passes for it.
On a clock that moves only when the test moves it, the other seat and a spectator must
receive the same messages at the same times.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from starlette.testclient import WebSocketTestSession

import splash.server.hub as hub_module
from splash.core.actions import Action
from splash.core.protocol import State
from splash.server import room as room_module
from splash.server import rules
from splash.server.room import Room
from tests.server.conversation import (
    SMALL_BASH,
    create_room,
    join,
    msg,
    receive_until,
    take_seat,
)
from tests.server.harness import FakeClock, Serve, ServerClient
from tests.server.messages import RoomOptionsBody, ServerMessage

HOLD_S = 2.0
PLAYABLE = "rogue_wave"
"""A high tide card playable before the roll."""
UNPLAYABLE = "lifebuoy"
"""A high tide card playable only when a pawn falls: never in a play window."""

Timed = list[tuple[float, ServerMessage]]


@dataclass
class Table:
    """A room of two people (teams 0 and 1) and a spectator, on a fake clock."""

    client: ServerClient
    clock: FakeClock
    room: str
    team0: WebSocketTestSession
    team1: WebSocketTestSession
    screen: WebSocketTestSession
    pings: int = 0

    @property
    def held(self) -> Room:
        return self.client.room(self.room)

    def drain(self, ws: WebSocketTestSession) -> list[ServerMessage]:
        """Every message sent to ``ws`` so far: a ping's pong comes after them."""
        self.pings += 1
        ws.send_json(msg("ping", ref=self.pings))
        pong, seen = receive_until(ws, "pong")
        assert pong["ref"] == self.pings
        return seen[:-1]

    def close_due(self) -> None:
        """What the server's own task does once the window's time is up (its sleep is on the
        real clock: the test does it itself, at the fake clock's time)."""

        async def close(room: Room) -> None:
            async with room.lock:
                await room.close_window()

        self.client.call(close, self.held)


def scripted_draws(card: str) -> Callable[..., Action]:
    """The room's chance, except that team 0's first high tide card is ``card``."""
    real = rules.chance_action
    drawn: list[bool] = []

    def chance(state: State, *, seed: int, index: int, settings: Sequence[str] = ()) -> Action:
        event = state.chance_event()
        high_tide = (
            event is not None and event.kind == "draw" and event.params.get("deck") == "high_tide"
        )
        if high_tide and not drawn and state.to_json()["team"] == 0:
            drawn.append(True)
            return state.game.parse_action({"kind": "draw", "deck": "high_tide", "card": card})
        return real(state, seed=seed, index=index, settings=settings)

    return chance


def setup_on_high_tide(table: Table) -> None:
    """Both teams start every pawn on the high tide lane (its deck is the one kept in hand)."""
    sockets = {0: table.team0, 1: table.team1}
    while True:
        state = table.held.state
        legal = state.legal_actions()
        if state.to_act() not in sockets or legal[0].kind != "start_lane":
            break
        lane = next(a for a in legal if a.param("lane") == "high_tide")
        ws = sockets[state.to_act()]
        ws.send_json(msg("act", action=lane.to_json(), ref="lane"))
        receive_until(ws, "ack")
    for ws in (table.team0, table.team1, table.screen):
        table.drain(ws)


@contextmanager
def table(serve: Serve, monkeypatch: pytest.MonkeyPatch, card: str) -> Iterator[Table]:
    monkeypatch.setattr(secrets, "randbits", lambda _bits: 20_261_207)
    monkeypatch.setattr(hub_module, "new_secret", lambda: bytes(range(32)))  # the same dice
    monkeypatch.setattr(room_module, "chance_action", scripted_draws(card))
    clock = FakeClock()
    with serve(clock=clock) as client:
        options: RoomOptionsBody = {"pass_hold_s": HOLD_S}
        room = create_room(client, game="bash", settings=SMALL_BASH, options=options)["room"]["id"]
        tokens = [take_seat(client, room, 0, name="Ann"), take_seat(client, room, 1, name="Bea")]
        with (
            client.websocket_connect(f"/ws/rooms/{room}") as team0,
            client.websocket_connect(f"/ws/rooms/{room}") as team1,
            client.websocket_connect(f"/ws/rooms/{room}") as screen,
        ):
            join(team0, tokens[0])
            join(team1, tokens[1])
            join(screen)
            found = Table(client, clock, room, team0, team1, screen)
            setup_on_high_tide(found)
            yield found


def anonymous(messages: list[ServerMessage], room: str) -> list[str]:
    """The messages as text, with the room's id (new in each game) taken out."""
    import orjson

    return [orjson.dumps(m).decode().replace(room, "ROOM") for m in messages]


def play_the_window(serve: Serve, monkeypatch: pytest.MonkeyPatch, card: str) -> dict[str, Any]:
    """Team 0's first window, on the fake clock: the person passes 0.3 s in when the card
    is playable, and does nothing otherwise.  What each connection read, and when."""
    with table(serve, monkeypatch, card) as t:
        start = t.clock.now
        state = t.held.state
        assert state.to_act() == 0 and state.hidden_pass() is not None
        seen: dict[str, Timed] = {"team1": [], "screen": [], "team0": []}

        def read(at: float) -> None:
            for name, ws in (("team1", t.team1), ("screen", t.screen), ("team0", t.team0)):
                seen[name] += [(round(at - start, 3), m) for m in t.drain(ws)]

        read(t.clock.now)
        legal = [a.kind for a in t.held.state.legal_actions()]
        t.clock.advance(0.3)
        if legal != ["pass"]:
            t.team0.send_json(msg("act", action={"kind": "pass"}, ref="pass"))
        read(t.clock.now)
        t.clock.advance(HOLD_S - 0.3)
        t.close_due()
        read(t.clock.now)
        return {
            "legal": legal,
            "team1": anonymous([m for _, m in seen["team1"]], t.room),
            "screen": anonymous([m for _, m in seen["screen"]], t.room),
            "team1_times": [at for at, _ in seen["team1"]],
            "screen_times": [at for at, _ in seen["screen"]],
            "team0": seen["team0"],
        }


@pytest.mark.rule("BD12")
def test_a_pass_before_the_window_s_time_and_a_lone_pass_look_the_same_to_the_others(
    serve: Serve, monkeypatch: pytest.MonkeyPatch
) -> None:
    chose = play_the_window(serve, monkeypatch, PLAYABLE)
    passed_for = play_the_window(serve, monkeypatch, UNPLAYABLE)
    assert chose["legal"] == ["pass", "play"] and passed_for["legal"] == ["pass"]
    for reader in ("team1", "screen"):
        assert chose[reader] == passed_for[reader], reader
        assert chose[f"{reader}_times"] == passed_for[f"{reader}_times"], reader
        times = chose[f"{reader}_times"]
        assert times and all(at == HOLD_S for at in times), times  # nothing before the time
        assert '"action":{"kind":"pass"}' in chose[reader][0]
    # The person's own pass is acknowledged when it is played, at the window's time.
    acks = [(at, m) for at, m in chose["team0"] if m["type"] == "ack"]
    assert [at for at, _ in acks] == [HOLD_S] and acks[0][1]["ref"] == "pass"


def test_a_second_act_while_a_pass_is_held_is_refused_and_a_card_is_played_at_once(
    serve: Serve, monkeypatch: pytest.MonkeyPatch
) -> None:
    with table(serve, monkeypatch, PLAYABLE) as t:
        t.team0.send_json(msg("act", action={"kind": "pass"}))
        t.team0.send_json(msg("act", action={"kind": "play", "card": PLAYABLE}))
        error, _ = receive_until(t.team0, "error")
        assert error["code"] == "pass_held" and "window" in error["message"]
        assert t.drain(t.team1) == []  # nothing played yet
        t.clock.advance(HOLD_S)
        t.close_due()
        passed = [m for m in t.drain(t.team1) if m["type"] == "update"]
        assert passed and passed[0]["action"] == {"kind": "pass"}
    with table(serve, monkeypatch, PLAYABLE) as t:
        index = t.held.index
        t.team0.send_json(msg("act", action={"kind": "play", "card": PLAYABLE}))
        update, _ = receive_until(t.team1, "update")  # at once: the card is public
        assert update["index"] == index and update["action"]["kind"] == "play"


def test_a_person_who_asks_always_is_asked_and_a_pass_after_the_time_is_played_at_once(
    serve: Serve, monkeypatch: pytest.MonkeyPatch
) -> None:
    with table(serve, monkeypatch, UNPLAYABLE) as t:
        t.team0.send_json(msg("prefer", ask_always=True))
        t.drain(t.team0)
        index = t.held.index
        t.clock.advance(HOLD_S + 5)
        t.close_due()
        assert t.held.index == index and t.drain(t.team1) == []  # still asked
        t.team0.send_json(msg("act", action={"kind": "pass"}))
        update, _ = receive_until(t.team1, "update")
        assert update["index"] == index and update["action"] == {"kind": "pass"}


def test_a_spectator_may_not_prefer_and_the_preference_is_a_bool(
    serve: Serve, monkeypatch: pytest.MonkeyPatch
) -> None:
    with table(serve, monkeypatch, UNPLAYABLE) as t:
        t.screen.send_json(msg("prefer", ask_always=True))
        error, _ = receive_until(t.screen, "error")
        assert error["code"] == "not_allowed"
        t.team0.send_json(msg("prefer", ask_always="yes"))
        error, _ = receive_until(t.team0, "error")
        assert error["code"] == "bad_field" and "ask_always" in error["message"]
        index = t.held.index
        t.team0.send_json(msg("prefer", ask_always=True))
        t.clock.advance(HOLD_S)
        t.close_due()
        assert t.held.index == index
        t.team0.send_json(msg("prefer", ask_always=False))  # the lone pass is due: played now
        update, _ = receive_until(t.team1, "update")
        assert update["index"] == index and update["action"] == {"kind": "pass"}
