"""``splash bash print``: the playtest kit as a PDF, read back with ``pdftotext``."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import Result

from splash.core.i18n import message
from splash.games.bash.config import DECKS, BashConfig
from splash.games.bash.names import name

Splash = Callable[..., Result]


def _pdftotext() -> str:
    found = shutil.which("pdftotext")
    if found is None:
        reason = "no pdftotext (poppler-utils: make system-deps)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{reason} (required when CI=true)")
        pytest.skip(reason)
    return found


def pages(pdf: Path) -> list[str]:
    """The text of each page of ``pdf`` (``pdftotext`` ends every page with a form feed)."""
    text = subprocess.run(
        [_pdftotext(), "-layout", str(pdf), "-"], capture_output=True, check=True, text=True
    ).stdout
    return text.split("\f")[:-1]


def kit(splash: Splash, tmp_path: Path, *args: str, lang: str | None = None) -> list[str]:
    """The pages of the kit that ``splash [--lang LANG] bash print ARGS`` writes."""
    out = tmp_path / "kit.pdf"
    first = ["--lang", lang] if lang is not None else []
    result = splash(*first, "bash", "print", "-o", str(out), *args)
    assert result.exit_code == 0, result.output
    flat = "".join(result.output.split())  # the console wraps a long path
    said = message("Playtest kit written to {file}.", file=str(out)).render(lang or "en")
    assert "".join(said.split()) in flat
    return pages(out)


def test_the_drafts_kit_is_the_board_the_changes_and_every_card_on_7_pages(
    splash: Splash, tmp_path: Path
) -> None:
    found = kit(splash, tmp_path)
    assert len(found) == 7  # board, changes, 3 pages of 24 low tide and 2 of 18 high tide cards
    board, changed, *cards = found
    assert "Splash & Bash: the board" in board
    assert "Start and finish" in board
    assert "Checkpoint 3" in board
    assert "Team A starts on Outer 0, Centre 0, High tide 0" in board
    assert "Team B starts on Outer 0, Centre 0, High tide 0" in board
    assert "The designed rules, unchanged." in changed
    cards_text = "\n".join(cards)
    config = BashConfig.load()
    for deck in DECKS:
        for card in config.decks[deck].cards:
            assert name(card).render("en") in cards_text, card
    assert cards_text.count("copy 1 of 8") == 1  # Calm water: 8 copies, each printed
    assert "copy 8 of 8" in cards_text
    assert "Make a pawn of another team, in the High tide lane" in " ".join(cards_text.split())


def test_bv01_a_variants_page_names_the_variant_and_its_value(
    splash: Splash, tmp_path: Path
) -> None:
    found = kit(splash, tmp_path, "--set", "options.turn_order=snake")
    changed = found[1]
    assert "BV01" in changed
    assert "options.turn_order" in changed
    assert "draft: seat → this kit: snake" in changed
    assert "unchanged" not in changed


def test_bv03_the_board_shows_each_teams_staggered_start_squares(
    splash: Splash, tmp_path: Path
) -> None:
    found = kit(splash, tmp_path, "--teams", "3", "--set", "options.start_stagger=2")
    board, changed = found[0], found[1]
    # The squares of the rules' BV03 example (default board, s = 2).
    assert "Team A starts on Outer 0, Centre 0, High tide 0" in board
    assert "Team B starts on Outer 2, Centre 2, High tide 2" in board
    assert "Team C starts on Outer 5, Centre 4, High tide 3" in board
    assert "A helmsman enters on the start line, not ahead (BV03)." in board
    assert "BV03" in changed
    assert "BD01" in changed  # three teams


def test_a_deck_count_changes_the_cards_printed_and_is_listed(
    splash: Splash, tmp_path: Path
) -> None:
    found = kit(splash, tmp_path, "--set", "decks.low_tide.calm_water=0")
    assert len(found) == 6  # 16 low tide cards: 2 pages
    changed, cards = found[1], "\n".join(found[2:])
    assert "decks.low_tide.calm_water" in changed
    assert "draft: 8 → this kit: 0" in changed
    assert "Calm water" not in cards


def test_the_kit_speaks_the_language_of_lang(splash: Splash, tmp_path: Path) -> None:
    found = kit(splash, tmp_path, lang="fr")
    assert "Piscine" in found[0]
    assert "Eau calme" in "\n".join(found[2:])


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--set", "options.turn_order=zigzag"], "options.turn_order='zigzag'"),
        (["--set", "board.lanes.outr=3"], "unknown key 'outr'"),
        (["-o", "nosuchdir/kit.pdf"], "there is no folder nosuchdir"),
        (["-o", "."], "cannot write .: Is a directory"),
    ],
)
def test_a_bad_input_is_one_line_and_exit_code_2(
    splash: Splash, args: list[str], said: str
) -> None:
    result = splash("bash", "print", *args)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith("error: ")
    assert said in lines[0]
    assert not Path("kit.pdf").exists()
