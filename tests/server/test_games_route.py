"""``/api/games``: the games as their declarations describe them, and their pages' assets
behind one route (``splash.server.api.routes.games``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from splash.games import GAMES
from splash.server.app import create_app
from splash.server.settings import ServerSettings


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = ServerSettings(database_url=f"sqlite:///{tmp_path / 'splash.db'}", workers=1)
    with TestClient(create_app(settings)) as running:
        yield running


def test_the_games_are_listed_with_options_levels_and_seat_names_in_the_language_asked(
    client: TestClient,
) -> None:
    games = client.get("/api/games?lang=fr").json()
    assert [g["id"] for g in games] == list(GAMES)
    bash = games[0]
    assert bash["page"] == "bash.html" and bash["information"] == "imperfect"
    assert bash["state_format"] == "splash/bash/1" and bash["chance"] == ["draw", "roll", "steal"]
    assert bash["seats"]["naming"]["seats"][:2] == ["Équipe A", "Équipe B"]
    assert (bash["seats"]["min"], bash["seats"]["max"], bash["seats"]["default"]) == (2, 4, 2)
    assert bash["levels"][0]["label"] == "Débutant"
    assert bash["levels"][-1]["spec"] == "ismcts:iterations=200"
    assert bash["options"][0]["key"] == "options.obstacles"
    assert bash["options"][0]["default"] == "one-shot"
    tower = client.get("/api/games", headers={"Accept-Language": "it"}).json()[1]
    assert tower["seats"]["naming"]["seats"][0].endswith("1")
    assert tower["digital"] == ["deal"]


def test_one_route_serves_every_games_assets_and_the_old_routes_answer_the_same(
    client: TestClient,
) -> None:
    catalogue = client.get("/api/games/tower/assets").json()["catalogue"]
    assert catalogue["format"] == "splash/tower-pieces/1"
    assert client.get("/api/catalogue/tower").json() == catalogue
    created = client.post("/api/rooms", json={"game": "bash", "settings": ["options.teams=3"]})
    room = created.json()["room"]["id"]
    board = client.get(f"/api/games/bash/assets?room={room}&lang=it").json()["board"]
    assert board["teams"] == ["A", "B", "C"]
    assert client.get(f"/api/rooms/{room}/board?lang=it").json() == board
    refused = client.get(f"/api/games/tower/assets?room={room}")
    assert refused.status_code == 404 and refused.json()["detail"]["code"] == "unknown_game"
    unknown = client.get("/api/games/chess/assets")
    assert unknown.status_code == 404 and unknown.json()["detail"]["code"] == "unknown_game"
    assert "chess" in unknown.json()["detail"]["message"]
    no_catalogue = client.get("/api/catalogue/bash")
    assert no_catalogue.status_code == 404
    assert no_catalogue.json()["detail"]["code"] == "no_catalogue"


def test_an_unknown_game_gets_an_option_error_naming_it_never_a_key_error() -> None:
    from splash.core.errors import OptionError
    from splash.server.rules import build_game, uses_physics

    for ask in (
        lambda: uses_physics("chess", "play"),
        lambda: build_game("chess", [], "play"),
        lambda: build_game("chess", [], "referee"),
    ):
        with pytest.raises(OptionError) as raised:
            ask()
        assert raised.value.key == "game" and raised.value.value == "chess"
