"""What the web pages need to speak the reader's language and draw a board.

``GET /api/i18n/{locale}`` — the page strings of a language: every translated entry of its
catalogue (``msgid`` → text).  ``GET /api/rooms/{room}/board`` — a Splash & Bash room's
course (lanes, lengths, checkpoints, decks, the tail wind) with the names of its lanes, decks
and cards in the client's language, so that pages show the server's own translated names,
and each card's timing and effects, from which pages tell what any deck's cards do.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from babel.messages.pofile import read_po
from fastapi import APIRouter

from splash.core.i18n import DEFAULT_LOCALE, LOCALES, catalogue_path, message, normalise_locale
from splash.games.bash import BashGame
from splash.games.bash.board import TEAM_LETTERS
from splash.games.bash.config import LANES
from splash.games.bash.names import name
from splash.server.api.deps import HubDep, LocaleDep, http_error, room_or_404

router = APIRouter(tags=["i18n"])


@cache
def catalogue_texts(locale: str) -> dict[str, str]:
    """The translated entries of ``locale``'s catalogue (nothing for English, the source)."""
    path = catalogue_path(locale)
    if locale == DEFAULT_LOCALE or not path.is_file():
        return {}
    with path.open("rb") as po:
        catalog = read_po(po, locale=locale)
    texts: dict[str, str] = {}
    for entry in catalog:
        if not entry.id or entry.fuzzy or not isinstance(entry.id, str):
            continue
        if isinstance(entry.string, str) and entry.string:
            texts[entry.id] = entry.string
    return texts


@router.get("/api/i18n/{locale}")
async def page_strings(locale: str) -> dict[str, Any]:
    """``{"locale": "fr", "locales": [...], "messages": {msgid: text}}``; an unknown
    language gets English (no messages: the page shows its English msgids)."""
    known = normalise_locale(locale)
    return {"locale": known, "locales": list(LOCALES), "messages": catalogue_texts(known)}


def bash_board(game: BashGame, locale: str) -> dict[str, Any]:
    """The course and the names of a Splash & Bash game, in ``locale``."""
    course = game.course
    lanes = [
        {
            "id": lane,
            "name": name(lane).render(locale),
            "length": course.length(index),
            "deck": course.colours[index],
            "checkpoints": list(course.checkpoints[index]),
        }
        for index, lane in enumerate(LANES)
    ]
    decks = {
        deck: {
            "name": name(deck).render(locale),
            "cards": {
                card: {
                    "name": name(card).render(locale),
                    "count": spec.count,
                    "timing": spec.timing,
                    "effects": [effect.model_dump(mode="json") for effect in spec.effects],
                }
                for card, spec in deck_spec.cards.items()
                if spec.count > 0
            },
        }
        for deck, deck_spec in game.settings.decks.items()
    }
    options = game.settings.options
    return {
        "game": game.id,
        "locale": locale,
        "teams": list(TEAM_LETTERS[: options.teams]),
        "lanes": lanes,
        "laps": course.laps,
        "helmsman_laps": course.helmsman_laps,
        "die_faces": options.die_faces,
        "tail_wind": options.tail_wind,
        "decks": decks,
        "pieces": {
            "pawn": name("pawn").render(locale),
            "helmsman": name("helmsman").render(locale),
        },
    }


@router.get("/api/rooms/{room_id}/board")
async def room_board(room_id: str, hub: HubDep, lang: LocaleDep) -> dict[str, Any]:
    """A Splash & Bash room's course and names (404 for another game or no room)."""
    room = await room_or_404(hub, room_id, lang)
    if not isinstance(room.game, BashGame):
        raise http_error(
            404, "no_board", message("room {room} is not a Splash & Bash room", room=room_id), lang
        )
    return bash_board(room.game, lang)
