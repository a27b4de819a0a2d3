"""``/api/games``: the games as their declarations describe them, and their pages' assets
behind one route (``splash.server.api.routes.games``)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, cast

import pytest
from fastapi.testclient import TestClient

import splash.web
from splash.core.actions import Json
from splash.core.errors import OutcomeError
from splash.core.i18n import message
from splash.core.protocol import State
from splash.games import GAMES, GameDeclaration
from splash.games.registry import with_requests
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
    assert bash["levels"][-1]["spec"].startswith("ismcts:engine=fast,iterations=5000")
    assert bash["levels"][3]["label"] == "Autodidacte"
    assert bash["options"][0]["key"] == "options.obstacles"
    assert bash["options"][0]["default"] == "one-shot"
    assert bash["options"][0]["value_labels"] == ["retirés après usage", "restent en place"]
    assert bash["options"][1]["value_labels"] == []
    tower = client.get("/api/games", headers={"Accept-Language": "it"}).json()[1]
    assert tower["seats"]["naming"]["seats"][0].endswith("1")
    assert tower["digital"] == ["deal"]
    assert tower["requests"] == ["odds", "placements"] and tower["referee_requests"] == []
    assert bash["requests"] == bash["referee_requests"] == []
    assert tower["page"] == "tower.html" and tower["replay"] == "replay-tower.js"
    assert (bash["title"], bash["levels"][0]["msgid"]) == ("Splash & Bash", "Beginner")
    assert bash["options"][1]["msgid"] == "Laps"
    assert bash["seats"]["naming"]["count_msgid"] == "Teams"


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


def test_an_extra_request_is_looked_up_by_its_kind_and_answered_for_the_seat_asking(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def to_act(state: State, seat: int | None, body: Mapping[str, Any]) -> Json:
        if "fail" in body:
            raise OutcomeError(message("no placement is waiting for its outcome"))
        return {"seat": seat, "to_act": state.to_act(), "echo": cast(Json, dict(body))}

    monkeypatch.setitem(
        cast(dict[str, GameDeclaration], GAMES),
        "bash",
        with_requests(GAMES["bash"], to_act=to_act),
    )
    created = client.post("/api/rooms", json={"game": "bash", "bots": [None, "random"]})
    room = created.json()["room"]["id"]
    token = client.post(f"/api/rooms/{room}/seats/0", json={"name": "a"}).json()["token"]
    asked = client.post(f"/api/rooms/{room}/requests/to_act", json={"x": 1})
    assert asked.json() == {
        "kind": "to_act",
        "index": asked.json()["index"],
        "answer": {"seat": None, "to_act": asked.json()["answer"]["to_act"], "echo": {"x": 1}},
    }
    mine = client.post(
        f"/api/rooms/{room}/requests/to_act", headers={"Authorization": f"Bearer {token}"}
    )
    assert mine.json()["answer"]["seat"] == 0
    wrong = client.post(
        f"/api/rooms/{room}/requests/to_act", headers={"Authorization": "Bearer nope"}
    )
    assert wrong.status_code == 403 and wrong.json()["detail"]["code"] == "bad_token"
    failed = client.post(f"/api/rooms/{room}/requests/to_act", json={"fail": True})
    assert failed.status_code == 422 and failed.json()["detail"]["code"] == "bad_request"
    unknown = client.post(f"/api/rooms/{room}/requests/placement_map")
    assert unknown.status_code == 404 and unknown.json()["detail"]["code"] == "unknown_request"
    assert "to_act" in unknown.json()["detail"]["message"]
    listed = client.get("/api/games").json()
    assert listed[0]["requests"] == ["to_act"]


def test_an_unknown_game_gets_an_option_error_naming_it_never_a_key_error() -> None:
    from splash.core.errors import OptionError
    from splash.server.rules import build_game, request_handler, uses_physics

    for ask in (
        lambda: uses_physics("chess", "play"),
        lambda: build_game("chess", [], "play"),
        lambda: build_game("chess", [], "referee"),
        lambda: request_handler("chess", "placement_map"),
    ):
        with pytest.raises(OptionError) as raised:
            ask()
        assert raised.value.key == "game" and raised.value.value == "chess"


JS = Path(splash.web.__file__).parent / "static" / "js"


def shared_modules(games: list[dict[str, Any]]) -> list[Path]:
    """The lobby, invite and replay pages' modules and every module they may share: all but
    the modules of the games' own pages (``bash.js``, ``bash-*.js``, ``replay-bash.js``)."""
    own = {Path(game["page"]).stem for game in games} | {
        Path(game["replay"]).stem for game in games
    }
    return [
        script
        for script in sorted(JS.glob("*.js"))
        if not any(script.stem == stem or script.stem.startswith(f"{stem}-") for stem in own)
    ]


def test_the_lobby_join_replay_and_shared_modules_name_no_game(client: TestClient) -> None:
    """The pages read the games from ``GET /api/games``: no game id is a string literal of
    ``lobby.js``, ``join.js``, ``replay.js`` or a module that the game pages share."""
    games = client.get("/api/games").json()
    ids = [game["id"] for game in games]
    scripts = shared_modules(games)
    assert {"lobby.js", "join.js", "replay.js", "games.js", "i18n.js"} <= {s.name for s in scripts}
    assert not {"bash.js", "tower-panels.js", "replay-bash.js"} & {s.name for s in scripts}
    named = [
        f"{script.name}: {quote}{game}{quote}"
        for script in scripts
        for game in ids
        for quote in "\"'`"
        if f"{quote}{game}{quote}" in script.read_text(encoding="utf-8")
    ]
    assert named == []
