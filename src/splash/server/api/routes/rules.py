"""``/rules/...``: the rules documentation of both games, as HTML pages.

The pages are the project's rules documentation (Markdown, shipped in the package as
``splash/web/rules``): ``/rules/README.md``, ``/rules/splash.md`` and
``/rules/splash-and-bash.md`` in English, the same names under ``/rules/fr/``,
``/rules/cs/`` and ``/rules/it/`` in French, Czech and Italian.  The URLs mirror the files,
so the pages' relative links and anchors work as written.  Only those twelve pages are
served; any other path is a 404.
"""

from __future__ import annotations

import html
from functools import cache
from importlib import resources
from pathlib import Path

from fastapi import APIRouter, HTTPException
from fastapi.responses import HTMLResponse, RedirectResponse
from markdown_it import MarkdownIt

router = APIRouter(prefix="/rules", tags=["rules"])

LANGUAGES = ("fr", "cs", "it")
"""The translations, each in a folder of its own; English is at the top."""

PAGES = ("README.md", "splash.md", "splash-and-bash.md")
"""The pages of each language."""

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 52rem;
       padding: 0 1rem; line-height: 1.5; color: #1b2733; }
table { border-collapse: collapse; margin: .8rem 0; }
th, td { border: 1px solid #c9d3dc; padding: .25rem .5rem; vertical-align: top; }
th { background: #eaf2f8; }
code { background: #f2f4f6; padding: 0 .2rem; }
nav a { margin-right: .8rem; }
"""


def rules_dir() -> Path:
    """The folder of the rules pages shipped in the package."""
    return Path(str(resources.files("splash.web") / "rules"))


@cache
def _render(relative: str) -> str:
    path = rules_dir() / relative
    text = path.read_text(encoding="utf-8")
    body = MarkdownIt("commonmark").enable("table").render(text)
    language = relative.split("/", maxsplit=1)[0] if "/" in relative else "en"
    up = "../" if "/" in relative else ""
    page = relative.rsplit("/", 1)[-1]
    links = [f'<a href="{up}{page}" hreflang="en">English</a>']
    for lang, name in (("fr", "français"), ("cs", "čeština"), ("it", "italiano")):
        links.append(f'<a href="{up}{lang}/{page}" hreflang="{lang}">{html.escape(name)}</a>')
    title = next((line[2:] for line in text.splitlines() if line.startswith("# ")), "splash")
    return (
        f'<!DOCTYPE html><html lang="{language}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>"
        f'<nav><a href="/">splash</a> {" ".join(links)}</nav>{body}</body></html>'
    )


def _page(relative: str) -> HTMLResponse:
    if relative not in {p for p in PAGES} | {f"{lang}/{p}" for lang in LANGUAGES for p in PAGES}:
        raise HTTPException(status_code=404, detail=f"no rules page {relative!r}")
    return HTMLResponse(_render(relative))


@router.get("", include_in_schema=False)
async def rules_home() -> RedirectResponse:
    """The English index of the rules."""
    return RedirectResponse("/rules/README.md")


@router.get("/{page}", response_class=HTMLResponse)
async def english_page(page: str) -> HTMLResponse:
    """An English rules page: ``README.md``, ``splash.md`` or ``splash-and-bash.md``."""
    return _page(page)


@router.get("/{language}/{page}", response_class=HTMLResponse)
async def translated_page(language: str, page: str) -> HTMLResponse:
    """A rules page in French (``fr``), Czech (``cs``) or Italian (``it``)."""
    return _page(f"{language}/{page}")
