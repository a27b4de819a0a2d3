"""A room's game is one of the registry's games: the API refuses another with the known
ones listed, and its schema offers them as an enumeration."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from splash.games import GAMES
from splash.server.schemas import RoomCreate


def test_an_unknown_game_is_a_422_that_lists_the_known_ones(client: TestClient) -> None:
    response = client.post("/api/rooms", json={"game": "chess"})
    assert response.status_code == 422
    text = response.text
    assert "unknown game 'chess'" in text and "bash, tower" in text
    assert client.post("/api/rooms", json={"game": "tower"}).status_code == 201


def test_the_openapi_schema_lists_the_games(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    game = schema["components"]["schemas"]["RoomCreate"]["properties"]["game"]
    assert game["enum"] == list(GAMES) == ["bash", "tower"]


def test_the_schema_takes_each_game_of_the_registry() -> None:
    for game_id in GAMES:
        assert RoomCreate.model_validate({"game": game_id}).game == game_id
    with pytest.raises(ValidationError, match="known: bash, tower"):
        RoomCreate.model_validate({"game": "Bash"})
