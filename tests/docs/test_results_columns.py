"""The columns of the results table, as docs/simulate.md and the README name them, are the
columns the simulator writes: none missing, none that does not exist."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from splash.sim.runner import GameSpec

ROOT = Path(__file__).resolve().parents[2]
PLACEHOLDERS = {"<k>": r"\d+", "<deck>": r"(low_tide|high_tide)", "<card>": r"[a-z_]+?"}


def pattern(name: str) -> re.Pattern[str]:
    """A documented column name as a pattern: ``<k>`` a number, ``<deck>`` a deck, ``<card>``
    a card."""
    text = re.escape(name)
    for placeholder, regex in PLACEHOLDERS.items():
        text = text.replace(re.escape(placeholder), regex)
    return re.compile(text)


def table_names(markdown: str, heading: str) -> list[str]:
    """The backquoted names in the first cell of each table row of the ``###`` section
    ``heading`` (up to the next heading)."""
    section = markdown.split(f"### {heading}\n", 1)[1]
    section = re.split(r"\n#{2,3} ", section, maxsplit=1)[0]
    names: list[str] = []
    for line in section.splitlines():
        if line.startswith("| `"):
            names += re.findall(r"`([^`]+)`", line.split("|")[1])
    return names


def readme_names(markdown: str, label: str) -> list[str]:
    """The backquoted column names of the README's results list item starting ``label``."""
    section = markdown.split("### The results table\n", 1)[1].split("\n### ", 1)[0]
    item = section.split(f"- {label}", 1)[1].split("\n- ", 1)[0]
    return [n for n in re.findall(r"`([^`]+)`", item) if re.fullmatch(r"[a-z_<>0-9]{2,}", n)]


def check(documented: list[str], actual: list[str]) -> None:
    patterns = {name: pattern(name) for name in documented}
    missing = [c for c in actual if not any(p.fullmatch(c) for p in patterns.values())]
    unknown = [n for n, p in patterns.items() if not any(p.fullmatch(c) for c in actual)]
    assert not missing, f"columns written but not documented: {missing}"
    assert not unknown, f"documented columns that are not written: {unknown}"


@pytest.fixture(scope="module")
def columns() -> dict[str, list[str]]:
    return {
        "bash": list(GameSpec.of("bash", ["options.teams=3"], ["random"]).columns()),
        "tower": list(GameSpec.of("tower", ["options.players=3"], ["random"]).columns()),
    }


def test_docs_simulate_names_every_column(columns: dict[str, list[str]]) -> None:
    doc = (ROOT / "docs" / "simulate.md").read_text(encoding="utf-8")
    common = table_names(doc, "Every game")
    trace = ["moves", "trace", "data"]
    check(common + table_names(doc, "Splash & Bash, for each team `k`"), columns["bash"])
    check(common + table_names(doc, "Splash!"), columns["tower"])
    assert set(trace) <= set(common)


def test_the_readme_names_every_column(columns: dict[str, list[str]]) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    common = readme_names(readme, "every game:")
    falls = ["falls_height_5_9", "falls_height_10_14"]  # the README elides these two
    check(common + readme_names(readme, "Splash & Bash, per team"), columns["bash"])
    check(common + readme_names(readme, "Splash!:") + falls, columns["tower"])
