"""The translated rules pages keep the rule ids, the tables and the links of the English pages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[2] / "docs" / "rules"
LANGUAGES = ("fr", "cs", "it")
PAGES = ("README.md", "splash-and-bash.md", "splash.md")
RULE_ID = re.compile(r"\b(?:B|BD|BV|T|TD)\d{2}\b")
LINK = re.compile(r"\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6} +(.+?) *$", re.MULTILINE)

CASES = [pytest.param(lang, page, id=f"{lang}/{page}") for lang in LANGUAGES for page in PAGES]


def rule_ids(text: str) -> set[str]:
    return set(RULE_ID.findall(text))


def table_rows(text: str) -> int:
    return sum(1 for line in text.splitlines() if line.startswith("|"))


def anchors(text: str) -> set[str]:
    """The anchors GitHub gives the headings of a page."""
    return {
        re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-") for title in HEADING.findall(text)
    }


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize(("lang", "page"), CASES)
def test_translation_exists(lang: str, page: str) -> None:
    assert (RULES / lang / page).is_file()


@pytest.mark.parametrize(("lang", "page"), CASES)
def test_same_rule_ids(lang: str, page: str) -> None:
    english = rule_ids(read(RULES / page))
    translated = rule_ids(read(RULES / lang / page))
    assert translated == english, (
        f"missing: {sorted(english - translated)}, extra: {sorted(translated - english)}"
    )


@pytest.mark.parametrize(("lang", "page"), CASES)
def test_same_table_rows(lang: str, page: str) -> None:
    assert table_rows(read(RULES / lang / page)) == table_rows(read(RULES / page))


@pytest.mark.parametrize(("lang", "page"), CASES)
def test_links_to_english_reference(lang: str, page: str) -> None:
    assert f"](../{page})" in read(RULES / lang / page)


@pytest.mark.parametrize(("lang", "page"), CASES)
def test_relative_links_resolve(lang: str, page: str) -> None:
    path = RULES / lang / page
    for target in LINK.findall(read(path)):
        if "://" in target:
            continue
        file_part, _, anchor = target.partition("#")
        linked = path.parent / file_part if file_part else path
        assert linked.is_file(), f"broken link {target} in {lang}/{page}"
        if anchor:
            assert anchor in anchors(read(linked)), f"broken anchor {target} in {lang}/{page}"


def test_english_index_lists_translations() -> None:
    index = read(RULES / "README.md")
    for lang in LANGUAGES:
        assert f"]({lang}/README.md)" in index
