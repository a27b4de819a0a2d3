"""docs/envs.md shows the observation layouts of the default options as the code builds them:
offsets, sizes, each block's range and scale."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from splash.core.encoding import Layout
from splash.envs.encoding import observation_space
from splash.games.bash import BashGame
from splash.games.bash.encoding import BashEncoding
from splash.games.tower import TowerGame
from splash.games.tower.encoding import TowerEncoding

DOC = Path(__file__).resolve().parents[2] / "docs" / "envs.md"


def rows(layout: Layout) -> dict[str, list[str]]:
    """The cells of each block's row of the documented table."""
    text = DOC.read_text(encoding="utf-8")
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 6 and cells[2].strip("`") in {b.name for b in layout.blocks}:
            found.setdefault(cells[2].strip("`"), cells)
    return found


def test_the_documented_layouts_are_the_built_ones() -> None:
    text = DOC.read_text(encoding="utf-8")
    bash = BashEncoding(BashGame())
    tower = TowerEncoding(TowerGame())
    assert bash.layout.table() in text
    assert tower.layout.table() in text
    assert "| offset | size | block | range | scale | meaning |" in text
    assert f"{bash.num_actions} in all" in text
    assert f"{tower.num_actions} indices in all" in text
    assert f"({bash.layout.size} entries" in text
    assert f"({tower.layout.size} entries" in text


def test_the_documented_ranges_are_the_spaces_bounds() -> None:
    for encoding in (BashEncoding(BashGame()), TowerEncoding(TowerGame())):
        space = observation_space(encoding)
        documented = rows(encoding.layout)
        for block in encoding.layout.blocks:
            low, high = (float(x) for x in documented[block.name][3].strip("[]").split(","))
            assert np.all(space.low[block.slice] == low), block.name
            assert np.all(space.high[block.slice] == high), block.name
            assert (low, high) in ((0.0, 1.0), (-1.0, 1.0))
            assert documented[block.name][4].endswith(", clipped") == block.clipped
