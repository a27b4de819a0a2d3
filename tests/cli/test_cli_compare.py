"""``splash compare``: two designs side by side, and every input it refuses."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import Result

from splash.cli.common import USAGE_EXIT
from splash.sim import GameSpec, run_one
from splash.sim.store import ResultStore

Splash = Callable[..., Result]


def simulate(path: Path, settings: list[str], games: int = 3) -> Path:
    spec = GameSpec.of("bash", ["options.turn_cap=40", *settings], ["random"])
    store = ResultStore(path, spec)
    for seed in range(games):
        store.add(run_one(spec, seed))
    store.finish()
    return path


@pytest.fixture(scope="module")
def designs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("compare")
    return (
        simulate(folder / "a.parquet", []),
        simulate(folder / "b.parquet", ["board.lanes.outer=44"]),
    )


def test_two_designs_are_compared(
    splash: Splash, designs: tuple[Path, Path], tmp_path: Path
) -> None:
    out = tmp_path / "c.html"
    result = splash("compare", str(designs[0]), str(designs[1]), "-o", str(out))
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "after Holm's correction" in text and f"The comparison is in {out}." in text
    html = out.read_text(encoding="utf-8")
    assert "board.lanes.outer=44" in html and "<td>duration_turns</td>" in html
    assert "B - A (95 % interval)" in html


def refused(splash: Splash, *args: str) -> str:
    result = splash("compare", *args)
    assert result.exit_code == USAGE_EXIT, result.output
    return " ".join(result.output.split())


def test_a_missing_file_is_refused(
    splash: Splash, designs: tuple[Path, Path], tmp_path: Path
) -> None:
    missing = tmp_path / "none.parquet"
    assert f"{missing} does not exist" in refused(splash, str(designs[0]), str(missing))


def test_designs_with_other_team_counts_are_refused(
    splash: Splash, designs: tuple[Path, Path], tmp_path: Path
) -> None:
    three = simulate(tmp_path / "three.parquet", ["options.teams=3"], games=1)
    text = refused(splash, str(designs[0]), str(three), "-o", str(tmp_path / "c.html"))
    assert "has 2 teams" in text and "same number of teams" in text
    assert not (tmp_path / "c.html").exists()


def test_a_bad_tolerance_is_refused(splash: Splash, designs: tuple[Path, Path]) -> None:
    text = refused(splash, str(designs[0]), str(designs[1]), "--tolerance", "0")
    assert "--tolerance" in text
