"""The HTTP API: health, the home page, rooms, seats and their refusals."""

from __future__ import annotations

from fastapi.testclient import TestClient

from splash.core.fairness import commitment
from splash.server import storage
from tests.server.conversation import SMALL_BASH, create_room, take_seat


def test_health_and_home_page(client: TestClient) -> None:
    assert client.get("/api/health").json() == {
        "status": "ok",
        "database": "ok",
        "protocol": "splash/ws/1",
    }
    home = client.get("/")
    assert home.status_code == 200 and "text/html" in home.headers["content-type"]
    assert "/static/js/lobby.js" in home.text


def test_a_room_is_created_listed_and_read_without_seed_or_tokens(client: TestClient) -> None:
    created = create_room(
        client,
        game="bash",
        settings=["board.lanes.outer=36", "options.teams=3"],
        name="pool",
        bots=[None, "greedy:depth=2"],
    )
    room = created["room"]
    assert created["referee_token"] is None
    assert room["status"] == "open" and room["name"] == "pool"
    assert [s["kind"] for s in room["seats"]] == ["open", "bot", "open"]
    assert "seed" not in room
    token = take_seat(client, room["id"], 0, name="ann")
    assert token and len(token) >= 24
    listed = client.get("/api/rooms").json()
    assert [r["id"] for r in listed] == [room["id"]]
    read = client.get(f"/api/rooms/{room['id']}").json()
    assert read["seats"][0]["name"] == "ann" and read["seats"][0]["kind"] == "human"
    text = client.get(f"/api/rooms/{room['id']}").text + client.get("/api/rooms").text
    assert token not in text and '"seed"' not in text and "token" not in text
    stored = storage.get_room(engine=client.app.state.engine, room_id=room["id"])  # type: ignore[attr-defined]
    assert stored is not None and stored.secret is not None and stored.secret not in text
    assert '"secret"' not in text
    assert read["commitment"] == commitment(bytes.fromhex(stored.secret))


def test_a_bad_setting_is_a_422_that_names_it(client: TestClient) -> None:
    response = client.post("/api/rooms", json={"game": "bash", "settings": ["board.lanes.outr=36"]})
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert detail["code"] == "bad_option" and "outr" in detail["message"]
    response = client.post("/api/rooms", json={"game": "tower", "settings": ["options.players=9"]})
    assert response.status_code == 422 and "options.players" in response.json()["detail"]["message"]
    response = client.post("/api/rooms", json={"game": "bash", "settings": ["nonsense"]})
    assert response.status_code == 422 and "KEY=VALUE" in response.json()["detail"]["message"]
    assert client.get("/api/rooms").json() == []


def test_a_bad_bot_is_a_422_that_names_it(client: TestClient) -> None:
    for bots in (["planner"], ["ismcts:iterations=zero"], ["wizard"], ["random"] * 3):
        response = client.post("/api/rooms", json={"game": "bash", "bots": bots})
        assert response.status_code == 422, bots
    room = create_room(client, game="bash", settings=SMALL_BASH)["room"]["id"]
    response = client.post(f"/api/rooms/{room}/seats/0", json={"bot": "planner:samples=2"})
    assert response.status_code == 422 and "planner" in response.json()["detail"]["message"]
    response = client.post(
        "/api/rooms", json={"game": "bash", "mode": "referee", "bots": ["random"]}
    )
    assert response.status_code == 422 and "bots" in response.json()["detail"]["message"]
    referee = create_room(client, game="bash", mode="referee")["room"]["id"]
    assert client.post(f"/api/rooms/{referee}/seats/0", json={"bot": "random"}).status_code == 422
    response = client.post("/api/rooms", json={"game": "bash", "options": {"timer_bot": "planner"}})
    assert response.status_code == 422


def test_seats_are_taken_once(client: TestClient) -> None:
    room = create_room(client, game="bash", settings=SMALL_BASH)["room"]["id"]
    take_seat(client, room, 1)
    again = client.post(f"/api/rooms/{room}/seats/1", json={"name": "bob"})
    assert again.status_code == 409 and again.json()["detail"]["code"] == "seat_taken"
    assert client.post(f"/api/rooms/{room}/seats/7", json={}).status_code == 409
    assert client.post("/api/rooms/nope/seats/0", json={}).status_code == 404
    both = client.post(f"/api/rooms/{room}/seats/0", json={"name": "x", "bot": "random"})
    assert both.status_code == 422


def test_refusals_speak_the_language_asked_for(client: TestClient) -> None:
    english = client.get("/api/rooms/nope").json()["detail"]
    assert english["code"] == "room_not_found" and "nope" in english["message"]
    response = client.post(
        "/api/rooms?lang=fr", json={"game": "bash", "settings": ["board.lanes.outer=-1"]}
    )
    french = client.post(
        "/api/rooms",
        json={"game": "bash", "settings": ["board.lanes.outer=-1"]},
        headers={"Accept-Language": "fr"},
    )
    assert response.json() == french.json()
    assert response.status_code == 422


def test_a_seat_s_name_is_trimmed_and_a_long_or_control_name_is_a_422_that_says_so(
    client: TestClient,
) -> None:
    room = create_room(client, game="bash", settings=SMALL_BASH)["room"]["id"]
    for name, says in (("B" * 41, "40"), ("Bea\x1b[31m", "control characters")):
        response = client.post(f"/api/rooms/{room}/seats/0", json={"name": name})
        assert response.status_code == 422, name
        detail = response.json()["detail"]
        assert "name" in detail["message"] and says in detail["message"], detail
    assert client.post(f"/api/rooms/{room}/seats/0", json={"name": "  Bea  "}).status_code == 201
    seats = client.get(f"/api/rooms/{room}").json()["seats"]
    assert seats[0]["name"] == "Bea"
