"""Every message in the code has an entry in every catalogue, with the same placeholders."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TextIO

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from splash.core.i18n import LOCALES, message, use_locale

SOURCE = Path(str(resources.files("splash")))
KEYWORDS = {**DEFAULT_KEYWORDS, "N_": None, "message": None, "Message": None}
PLACEHOLDER = re.compile(r"\{[^{}]*\}")


BABEL_CFG = Path(__file__).resolve().parents[2] / "babel.cfg"

MappingConfig = tuple[list[tuple[str, str]], dict[str, dict[str, object]]]
"""The extraction methods of babel.cfg by file pattern, and their options by pattern."""

parse_mapping: Callable[[TextIO], MappingConfig] = parse_mapping_cfg
"""babel's parser of babel.cfg (babel does not annotate it)."""


@cache
def source_messages() -> frozenset[str]:
    """Every msgid of the Python code and of the web pages' scripts, as ``make messages``
    extracts them (babel.cfg: Python files, the pages' JavaScript, no vendored library)."""
    with BABEL_CFG.open() as cfg:
        method_map, options_map = parse_mapping(cfg)
    found = set()
    for _, _, msgid, _, _ in extract_from_dir(
        str(SOURCE), method_map=method_map, options_map=options_map, keywords=KEYWORDS
    ):
        found.add(msgid if isinstance(msgid, str) else msgid[0])
    return frozenset(found)


def catalogue(locale: str) -> Catalog:
    path = SOURCE / "locale" / locale / "LC_MESSAGES" / "splash.po"
    with path.open("rb") as handle:
        return read_po(handle, locale=locale)


def test_the_code_has_messages() -> None:
    assert "illegal action {action} in {state}" in source_messages()
    assert "Connection lost — reconnecting…" in source_messages()
    assert len(source_messages()) > 100


@pytest.mark.parametrize("locale", LOCALES)
def test_every_message_is_in_the_catalogue(locale: str) -> None:
    entries = catalogue(locale)
    missing = sorted(m for m in source_messages() if m not in entries)
    assert missing == [], f"{locale}: {len(missing)} messages missing, e.g. {missing[:3]}"


@pytest.mark.parametrize("locale", [loc for loc in LOCALES if loc != "en"])
def test_every_message_is_translated_with_the_same_placeholders(locale: str) -> None:
    problems = []
    for entry in catalogue(locale):
        if not entry.id:
            continue
        msgid = entry.id if isinstance(entry.id, str) else entry.id[0]
        translated = entry.string if isinstance(entry.string, tuple | list) else [entry.string]
        strings = [text or "" for text in translated]
        if not all(strings) or entry.fuzzy:
            problems.append(f"untranslated: {msgid!r}")
            continue
        for text in strings:
            if set(PLACEHOLDER.findall(text)) != set(PLACEHOLDER.findall(msgid)):
                problems.append(f"placeholders differ: {msgid!r} -> {text!r}")
    assert problems == []


def test_italian_keeps_the_names_of_the_original() -> None:
    with use_locale("it"):
        assert message("Fish bone").render() == "Lisca di pesce"
        assert message("High tide").render() == "Alta Marea"


def test_french_keeps_a_takeback_time_and_its_unit_together() -> None:
    loose = re.compile(r"(\d|\}) (s|ms|min)\b")
    takebacks = [
        entry
        for entry in catalogue("fr")
        if isinstance(entry.id, str) and re.search(r"take ?back", entry.id)
    ]
    assert any("{seconds}" in str(entry.id) for entry in takebacks)
    assert [str(e.string) for e in takebacks if loose.search(str(e.string))] == []
    asked = message(
        "{who} asks to take back their last move. Answer within {seconds} s.", who="A", seconds=18
    )
    assert asked.render("fr").endswith("18\u00a0s.")
