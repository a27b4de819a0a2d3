"""What the web pages need to speak the reader's language.

``GET /api/i18n/{locale}`` — the page strings of a language: every translated entry of its
catalogue (``msgid`` → text).  What a game's page draws with (a board and its names in the
client's language, say) is the game's assets: :mod:`splash.server.api.routes.games`.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from babel.messages.pofile import read_po
from fastapi import APIRouter

from splash.core.i18n import DEFAULT_LOCALE, LOCALES, catalogue_path, normalise_locale

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
