"""The golden playthroughs still come out of the engines exactly as written down.

A failure means that an engine computes something else than when the files were written:
the diff shows the first steps that moved.  After an intended change of the rules,
regenerate the files (``python scripts/golden.py --write``) and commit their diff with it.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from splash.core.actions import Json
from splash.core.errors import IllegalActionError
from tests.golden.cases import PLAYTHROUGHS
from tests.golden.playthrough import (
    DIRECTORY,
    REGENERATE,
    Difference,
    GoldenError,
    Playthrough,
    difference,
    read,
    record,
    replay,
)

FILES = sorted(DIRECTORY.glob("*.json"))
IDS = [path.stem for path in FILES]


def _document(path: Path) -> dict[str, Json]:
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(doc, dict)
    return doc


def regenerated(path: Path) -> Difference | None:
    """How the file differs from its playthrough played again from its header."""
    playthrough, _ = read(path)
    return difference(path.stem, path.read_text(encoding="utf-8"), record(playthrough).render())


def replayed(path: Path) -> Difference | None:
    """How the file differs from its action log applied alone (no policy, no generator)."""
    return difference(path.stem, path.read_text(encoding="utf-8"), replay(path).render())


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_playthrough_regenerates_its_file(path: Path) -> None:
    found = regenerated(path)
    if found is not None:
        pytest.fail(found["diff"], pytrace=False)


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_action_log_alone_rebuilds_counts_and_final_state(path: Path) -> None:
    found = replayed(path)
    if found is not None:
        pytest.fail(found["diff"], pytrace=False)


def test_every_playthrough_has_its_file_and_every_file_its_playthrough() -> None:
    names = sorted(p.name for p in PLAYTHROUGHS)
    assert names == IDS, f"tests/golden/cases.py and the files disagree: {REGENERATE}"
    for playthrough in PLAYTHROUGHS:
        assert read(playthrough.path)[0] == playthrough


def test_at_least_six_playthroughs_of_each_game() -> None:
    games = Counter(p.game for p in PLAYTHROUGHS)
    assert games["bash"] >= 6 and games["tower"] >= 6


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_game_ends_with_a_winner_not_at_the_turn_cap(path: Path) -> None:
    summary = _document(path)["summary"]
    assert isinstance(summary, dict)
    returns, events = summary["returns"], summary["events"]
    assert isinstance(returns, list) and isinstance(events, dict)
    assert 1.0 in returns
    assert "turn_cap" not in events


def test_splash_files_cover_every_report_and_both_wins() -> None:
    results: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    wins: set[str] = set()
    for playthrough in PLAYTHROUGHS:
        if playthrough.game != "tower":
            continue
        doc = _document(playthrough.path)
        steps = doc["steps"]
        assert isinstance(steps, list)
        for step in steps:
            assert isinstance(step, dict) and isinstance(step["action"], dict)
            action = step["action"]
            kind = str(action["kind"])
            kinds[kind + ("" if kind != "place" or "face" in action else " without a pose")] += 1
            if kind == "result":
                assert isinstance(action["outcome"], dict)
                results[str(action["outcome"]["result"])] += 1
        final = doc["final"]
        assert isinstance(final, dict) and isinstance(final["events"], list)
        wins |= {str(e["by"]) for e in final["events"] if isinstance(e, dict) and "by" in e}
    assert set(results) == {"stood", "fell", "spontaneous", "knocked"}
    assert {"base", "keep", "place", "place without a pose", "take", "deal"} <= set(kinds)
    assert wins == {"pieces", "drops"}


def _changed(path: Path, tmp_path: Path, old: str, new: str) -> Path:
    text = path.read_text(encoding="utf-8")
    assert old in text
    changed = tmp_path / path.name
    changed.write_text(text.replace(old, new, 1), encoding="utf-8")
    return changed


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ('"legal": 3, "chance": 0,', '"legal": 4, "chance": 0,'),
        ('"turns": ', '"turns": 1'),
    ],
    ids=["a step's count", "the final state"],
)
def test_a_changed_file_fails_both_comparisons_with_a_diff_and_the_hint(
    tmp_path: Path, old: str, new: str
) -> None:
    changed = _changed(DIRECTORY / "bash_2_teams.json", tmp_path, old, new)
    for found in (regenerated(changed), replayed(changed)):
        assert found is not None
        assert any(line.startswith("-") and new in line for line in found["diff"].splitlines())
        assert found["diff"].endswith("python scripts/golden.py --write")


def test_a_changed_action_fails_the_replay(tmp_path: Path) -> None:
    changed = _changed(
        DIRECTORY / "bash_2_teams.json",
        tmp_path,
        '"kind": "start_lane", "lane": "outer"',
        '"kind": "stay"',
    )
    with pytest.raises(IllegalActionError, match="stay"):
        replayed(changed)


def test_a_file_of_another_format_is_refused(tmp_path: Path) -> None:
    changed = _changed(DIRECTORY / "tower_2_players.json", tmp_path, "splash/golden/1", "x/9")
    with pytest.raises(GoldenError, match="format"):
        read(changed)


def test_header_round_trips() -> None:
    for playthrough in PLAYTHROUGHS:
        assert Playthrough.from_header(playthrough.header()) == playthrough
