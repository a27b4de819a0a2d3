"""``timer_left_s``: the seconds really left on the turn timer, in every message that draws
the game, so that a page reloaded in the middle of a turn shows the time really left.  The
clock is a fake one that the tests move on (the timer's own task sleeps on the real one,
far longer than a test lasts)."""

from __future__ import annotations

from tests.server.conversation import SMALL_BASH, create_room, join, msg, receive_until, take_seat
from tests.server.harness import FakeClock, Serve
from tests.server.messages import RoomOptionsBody

LIMIT = 600.0


def test_the_time_left_is_the_limit_less_the_seconds_gone(serve: Serve, database_url: str) -> None:
    clock = FakeClock()
    options: RoomOptionsBody = {"turn_timer_s": LIMIT}
    with serve(database_url=database_url, clock=clock) as client:
        room = create_room(
            client, game="bash", settings=SMALL_BASH, bots=[None, "random"], options=options
        )["room"]["id"]
        token = take_seat(client, room, 0)
        with client.websocket_connect(f"/ws/rooms/{room}") as ws:
            welcome = join(ws, token)
            assert welcome["view"]["to_act"] == 0
            assert (welcome["timer"], welcome["timer_left_s"]) == (LIMIT, LIMIT)
            clock.advance(25)
            ws.send_json(msg("sync"))
            state, _ = receive_until(ws, "state")
            assert state["timer_left_s"] == LIMIT - 25
        clock.advance(100)
        with client.websocket_connect(f"/ws/rooms/{room}") as ws:
            again = join(ws, token)  # a page reloaded: the time really left, not a whole turn
            assert again["timer_left_s"] == LIMIT - 125
            with client.websocket_connect(f"/ws/rooms/{room}") as screen:
                assert join(screen)["timer_left_s"] == LIMIT - 125, "a spectator sees it too"
            ws.send_json(msg("act", action=again["view"]["legal_actions"][0], expect=0))
            update, _ = receive_until(ws, "update")
            # the bot of team B or a chance draw acts next (no timer), or team A again
            expected = LIMIT if update["view"]["to_act"] == 0 else None
            assert update["timer_left_s"] == expected
        clock.advance(LIMIT * 3)
        with client.websocket_connect(f"/ws/rooms/{room}") as ws:
            late = join(ws, token)
            assert late["timer_left_s"] == 0.0, "never below zero"


def test_no_time_is_left_without_a_timer_or_while_a_takeback_request_waits(
    serve: Serve, database_url: str
) -> None:
    clock = FakeClock()
    options: RoomOptionsBody = {"turn_timer_s": LIMIT}
    with serve(database_url=database_url, clock=clock) as client:
        untimed = create_room(client, game="bash", settings=SMALL_BASH)["room"]["id"]
        timed = create_room(client, game="bash", settings=SMALL_BASH, options=options)["room"]
        room = timed["id"]
        with client.websocket_connect(f"/ws/rooms/{untimed}") as ws:
            assert join(ws)["timer_left_s"] is None
        with client.websocket_connect(f"/ws/rooms/{room}") as ws:
            assert join(ws)["timer_left_s"] is None, "no timer runs before the game starts"
        tokens = [take_seat(client, room, 0), take_seat(client, room, 1)]
        with (
            client.websocket_connect(f"/ws/rooms/{room}") as ws0,
            client.websocket_connect(f"/ws/rooms/{room}") as ws1,
        ):
            welcome = join(ws0, tokens[0])
            join(ws1, tokens[1])
            ws0.send_json(msg("act", action=welcome["view"]["legal_actions"][0], expect=0))
            update, _ = receive_until(ws0, "update")
            while update["view"]["to_act"] < 0:  # a chance draw before the next decision
                update, _ = receive_until(ws0, "update")
            assert update["timer_left_s"] == LIMIT
            clock.advance(40)
            ws0.send_json(msg("undo_request", expect=update["index"] + 1))
            receive_until(ws1, "undo_asked")
            ws1.send_json(msg("sync"))
            paused, _ = receive_until(ws1, "state")
            assert paused["timer_left_s"] is None, "paused while the request waits"
            clock.advance(10)
            ws1.send_json(msg("undo_answer", accept=False))
            receive_until(ws1, "undo_result")
            ws1.send_json(msg("sync"))
            resumed, _ = receive_until(ws1, "state")
            assert resumed["timer_left_s"] == LIMIT - 40, "it goes on with what it had left"
