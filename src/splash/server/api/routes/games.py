"""``/api/games``: the games the server plays, as their declarations describe them, and the
assets their pages draw with.

``GET /api/games`` — every game: its name, seats (how many, how they are named), the options
the lobby offers, the bot levels (labels in the client's language) and the page that plays
it (``null``: none of its own), the module that draws its replays, the extra requests a
play room (``requests``) and a referee room (``referee_requests``) answer.  Every label comes
rendered in the client's language and as its ``msgid`` (which the pages translate with their
own catalogue, the same one, when the reader switches language).
``GET /api/games/{game}/assets`` — what the game's page draws with (Splash & Bash: the
board and its names in the client's language; Splash!: the piece catalogue), for the shipped
game or, with ``?room=ID``, for that room's game (its settings applied).

The older per-asset routes answer the same documents: ``GET /api/rooms/{room}/{asset}``
(``board``, ``catalogue``: 404 ``no_<asset>`` for a room whose game has none) and
``GET /api/catalogue/{game}``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Annotated, Any

from fastapi import APIRouter, Query

from splash.core.actions import Json
from splash.core.documents import format_tag
from splash.core.i18n import Message, message
from splash.games import GAMES
from splash.games.registry import GameDeclaration, unknown_game
from splash.server.api.deps import HubDep, LocaleDep, http_error, room_or_404
from splash.server.options import PLAY, REFEREE
from splash.server.rules import requests_of

router = APIRouter(tags=["games"])


def game_public(declaration: GameDeclaration, locale: str) -> dict[str, Json]:
    """What a page needs to offer ``declaration``'s game, labels rendered in ``locale``."""
    lobby = declaration.lobby
    naming = declaration.seat_naming
    return {
        "id": declaration.id,
        "name": declaration.name,
        "title": Message(declaration.name).render(locale),
        "page": lobby.page,
        "replay": lobby.replay,
        "information": declaration.information.value,
        "state_format": format_tag(declaration.state_format, 1),
        "chance": list[Json](sorted(declaration.chance_kinds)),
        "seats": {
            "kind": declaration.seat.value,
            "key": declaration.seats_key,
            "min": declaration.min_seats,
            "max": declaration.max_seats,
            "default": lobby.default_seats,
            "naming": naming.to_json(locale),
        },
        "options": [choice.to_json(locale) for choice in lobby.choices],
        "levels": [level.to_json(locale) for level in lobby.ordered()],
        "digital": list[Json](sorted(declaration.referee.digital)),
        "requests": list[Json](sorted(requests_of(declaration.id, PLAY))),
        "referee_requests": list[Json](sorted(requests_of(declaration.id, REFEREE))),
    }


@router.get("/api/games")
async def list_games(lang: LocaleDep) -> list[dict[str, Any]]:
    """Every game the server plays, in the order of the registry."""
    return [game_public(declaration, lang) for declaration in GAMES.values()]


def _declaration(game_id: str, locale: str) -> GameDeclaration:
    found = GAMES.get(game_id)
    if found is None:
        raise http_error(404, "unknown_game", unknown_game(GAMES, game_id), locale)
    return found


@lru_cache(maxsize=16)
def shipped_assets(game_id: str, locale: str) -> dict[str, Json]:
    """The assets of ``game_id`` with its shipped data and no setting, in ``locale``."""
    declaration = GAMES[game_id]
    return declaration.assets(declaration.from_settings([]), locale)


async def _assets(game_id: str, room_id: str | None, hub: HubDep, lang: str) -> dict[str, Json]:
    declaration = _declaration(game_id, lang)
    if room_id is None:
        return shipped_assets(declaration.id, lang)
    room = await room_or_404(hub, room_id, lang)
    if room.game.id != declaration.id:
        raise http_error(
            404,
            "unknown_game",
            message(
                "room {room} is not a {game} room", room=room_id, game=Message(declaration.name)
            ),
            lang,
        )
    return declaration.assets(room.game, lang)


@router.get("/api/games/{game_id}/assets")
async def read_assets(
    game_id: str,
    hub: HubDep,
    lang: LocaleDep,
    room: Annotated[str | None, Query(max_length=40)] = None,
) -> dict[str, Any]:
    """The assets of a game's page, by name; 404 ``unknown_game`` for no game (or a room of
    another game), ``room_not_found`` for no room."""
    return await _assets(game_id, room, hub, lang)


def _asset(assets: dict[str, Json], name: str, missing: Message, locale: str) -> Any:
    """The asset ``name``; a 404 ``no_<name>`` saying ``missing`` when there is none."""
    if name not in assets:
        raise http_error(404, f"no_{name}", missing, locale)
    return assets[name]


def _room_asset(name: str, room_id: str) -> Message:
    return message("room {room} has no {asset}", room=room_id, asset=name)


@router.get("/api/rooms/{room_id}/board")
async def read_room_board(room_id: str, hub: HubDep, lang: LocaleDep) -> Any:
    """The ``board`` asset of a room's game (404 ``no_board`` for a game without one)."""
    room = await room_or_404(hub, room_id, lang)
    assets = await _assets(room.game.id, room_id, hub, lang)
    return _asset(assets, "board", _room_asset("board", room_id), lang)


@router.get("/api/rooms/{room_id}/catalogue")
async def read_room_catalogue(room_id: str, hub: HubDep, lang: LocaleDep) -> Any:
    """The ``catalogue`` asset of a room's game (404 ``no_catalogue`` for a game without
    one)."""
    room = await room_or_404(hub, room_id, lang)
    assets = await _assets(room.game.id, room_id, hub, lang)
    return _asset(assets, "catalogue", _room_asset("catalogue", room_id), lang)


@router.get("/api/catalogue/{game_id}")
async def read_catalogue(game_id: str, hub: HubDep, lang: LocaleDep) -> Any:
    """The ``catalogue`` asset of a game, its shipped data (404 for a game without one)."""
    assets = await _assets(game_id, None, hub, lang)
    missing = message("the game {game} has no {asset}", game=game_id, asset="catalogue")
    return _asset(assets, "catalogue", missing, lang)
