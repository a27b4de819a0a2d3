"""The limits that protect a public server: room creations per client address per minute
(429 with ``Retry-After``) and the most rooms open at once (503)."""

from __future__ import annotations

from pathlib import Path

from splash.server.settings import ServerSettings
from splash.server.throttle import CreationThrottle
from tests.server.conversation import SMALL_BASH, create_room
from tests.server.harness import Serve
from tests.server.messages import RoomCreateBody

BODY: RoomCreateBody = {"game": "bash", "settings": SMALL_BASH}


def test_the_creation_after_the_limit_is_a_429_with_retry_after(
    serve: Serve,
) -> None:
    with serve(room_creations_per_minute=2) as client:
        for _ in range(2):
            create_room(client, **BODY)
        refused = client.post("/api/rooms?lang=fr", json=BODY)
        assert refused.status_code == 429
        assert refused.json()["detail"]["code"] == "too_many_creations"
        wait = int(refused.headers["Retry-After"])
        assert 1 <= wait <= 60
        assert refused.json()["detail"]["message"]
        assert len(client.get("/api/rooms").json()) == 2
        throttle = client.throttle
        assert throttle.retry_after("testclient") >= 1
        assert throttle.retry_after("192.0.2.7") == 0, "another address is not affected"


def test_each_server_counts_for_itself(serve: Serve, tmp_path: Path) -> None:
    with serve(room_creations_per_minute=1) as client:
        create_room(client, **BODY)
        assert client.post("/api/rooms", json=BODY).status_code == 429
    with serve(room_creations_per_minute=1, database_url=f"sqlite:///{tmp_path / 'b.db'}") as other:
        create_room(other, **BODY)


def test_the_throttle_counts_each_address_apart() -> None:
    throttle = CreationThrottle(3)
    assert [throttle.hit("198.51.100.1") for _ in range(3)] == [None, None, None]
    refused = throttle.hit("198.51.100.1")
    assert refused is not None and 1 <= refused <= 60
    assert throttle.hit("198.51.100.2") is None
    assert throttle.retry_after("198.51.100.2") == 0


def test_one_room_beyond_max_open_rooms_is_a_503_until_one_is_closed(
    serve: Serve,
) -> None:
    with serve(max_open_rooms=2) as client:
        first = create_room(client, **BODY)
        create_room(client, game="tower", mode="referee")
        refused = client.post("/api/rooms", json=BODY)
        assert refused.status_code == 503
        detail = refused.json()["detail"]
        assert detail["code"] == "too_many_rooms" and "2" in detail["message"]
        closed = client.delete(
            f"/api/rooms/{first['room']['id']}",
            headers={"Authorization": f"Bearer {first['host_token']}"},
        )
        assert closed.status_code == 200
        create_room(client, **BODY)
        assert client.post("/api/rooms", json=BODY).status_code == 503


def test_the_limits_have_documented_defaults_and_environment_variables() -> None:
    defaults = ServerSettings()
    assert (defaults.max_open_rooms, defaults.room_creations_per_minute) == (500, 20)
    configured = ServerSettings.from_env(
        {
            "SPLASH_SERVER_MAX_OPEN_ROOMS": "7",
            "SPLASH_SERVER_ROOM_CREATIONS_PER_MINUTE": "3",
        }
    )
    assert (configured.max_open_rooms, configured.room_creations_per_minute) == (7, 3)
