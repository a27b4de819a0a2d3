"""``splash report`` and ``splash compare`` print the first-seat advantage of each level of
play when the games read hold several."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import Result

from tests.report.test_levels import level_files


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    return level_files(tmp_path_factory.mktemp("levels"))


def test_report_and_compare_print_the_edge_of_each_level(
    splash: Callable[..., Result], files: tuple[Path, Path, Path]
) -> None:
    random, greedy, both = files
    result = splash("report", str(random), str(greedy), "-o", "r.html")
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "At level random (6 games)" in text and "At level greedy (4 games)" in text
    compared = splash("compare", str(random), str(both), "-o", "c.html")
    assert compared.exit_code == 0, compared.output
    text = " ".join(compared.output.split())
    assert "B: At level greedy (4 games)" in text and "A: At level" not in text
