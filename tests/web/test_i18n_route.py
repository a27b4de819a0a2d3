"""The page strings and the board the web pages read (``splash.server.api.routes.i18n``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from splash.core.i18n import message
from splash.server.app import create_app
from splash.server.settings import ServerSettings


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = ServerSettings(database_url=f"sqlite:///{tmp_path / 'splash.db'}", workers=1)
    with TestClient(create_app(settings)) as running:
        yield running


def test_a_catalogue_is_served_as_page_strings(client: TestClient) -> None:
    french = client.get("/api/i18n/fr-FR").json()
    assert french["locale"] == "fr"
    assert french["messages"]["Outer"] == message("Outer").render("fr") == "Extérieur"
    italian = client.get("/api/i18n/it").json()
    assert italian["messages"]["Fish bone"] == "Lisca di pesce"
    english = client.get("/api/i18n/xx").json()
    assert english == {"locale": "en", "locales": ["en", "fr", "cs", "it"], "messages": {}}


def test_the_board_of_a_room_names_its_lanes_and_cards_in_the_language_asked(
    client: TestClient,
) -> None:
    settings = ["board.lanes.outer=36", "options.tail_wind=2"]
    created = client.post("/api/rooms", json={"game": "bash", "settings": settings}).json()
    room = created["room"]["id"]
    board = client.get(f"/api/rooms/{room}/board?lang=it").json()
    assert [lane["id"] for lane in board["lanes"]] == ["outer", "centre", "high_tide"]
    assert [lane["length"] for lane in board["lanes"]] == [36, 34, 28]
    assert board["lanes"][0]["checkpoints"] == [0, 9, 18, 27]
    assert board["decks"]["low_tide"]["cards"]["fish_bone"]["name"] == "Lisca di pesce"
    assert board["teams"] == ["A", "B"]
    # What each card does comes with it, as the deck file says (high_tide.toml).
    undertow = board["decks"]["high_tide"]["cards"]["undertow"]
    assert undertow["timing"] == "any"
    assert undertow["effects"] == [
        {
            "primitive": "fall",
            "target": {"team": "other", "lane": "high_tide", "within": 6, "next_to": False},
        }
    ]
    assert board["decks"]["low_tide"]["cards"]["calm_water"]["effects"] == []
    assert board["tail_wind"] == 2
    missing = client.get("/api/rooms/nothing/board")
    assert missing.status_code == 404
    assert missing.json()["detail"]["code"] == "room_not_found"


def test_a_splash_room_has_no_bash_board(client: TestClient) -> None:
    created = client.post("/api/rooms", json={"game": "tower", "mode": "referee"}).json()
    answer = client.get(f"/api/rooms/{created['room']['id']}/board")
    assert answer.status_code == 404
    assert answer.json()["detail"]["code"] == "no_board"
