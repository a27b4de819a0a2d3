"""Every bot level the lobby offers for Splash & Bash plays a whole game in a room of the
play server (the learned agent and the search levels in the server's worker threads)."""

from __future__ import annotations

import time

import pytest

from splash.games import GAMES
from tests.server.conversation import create_room
from tests.server.harness import ServerClient

LEVELS = [level.spec for level in GAMES["bash"].lobby.ordered()]


@pytest.mark.slow
@pytest.mark.parametrize("spec", [s for s in LEVELS if s.startswith("td")])
def test_the_learned_level_plays_a_whole_game_in_a_room(client: ServerClient, spec: str) -> None:
    room = create_room(client, game="bash", bots=[spec, "greedy"], options={"pass_hold_s": 0})
    room_id = room["room"]["id"]
    deadline = time.monotonic() + 120
    while (found := client.get(f"/api/rooms/{room_id}").json())["status"] != "over":
        assert time.monotonic() < deadline, "the game did not end"
        time.sleep(0.1)
    replay = client.get(f"/api/rooms/{room_id}/replay").json()
    assert replay["meta"]["sources"].count("bot") == len(replay["actions"]) - replay["meta"][
        "sources"
    ].count("chance")
    assert found["seats"][0]["bot"] == spec


def test_a_learned_agent_is_refused_for_a_table_it_did_not_learn(client: ServerClient) -> None:
    three = ["options.teams=3"]
    answer = client.post(
        "/api/rooms", json={"game": "bash", "settings": three, "bots": ["td:ply=2"]}
    )
    assert answer.status_code == 422
    detail = answer.json()["detail"]
    assert "the agent learned 2 teams" in detail["message"] and "3 teams" in detail["message"]
    room = create_room(client, game="bash", settings=three)["room"]["id"]
    seated = client.post(f"/api/rooms/{room}/seats/1", json={"bot": "td"})
    assert seated.status_code == 422
    assert "the agent learned 2 teams" in seated.json()["detail"]["message"]
    assert client.get(f"/api/rooms/{room}").json()["seats"][1]["kind"] == "open"
    timer = client.post(
        "/api/rooms",
        json={"game": "bash", "settings": three, "options": {"timer_bot": "td"}},
    )
    assert timer.status_code == 422
