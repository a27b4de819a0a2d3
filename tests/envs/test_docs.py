"""docs/envs.md shows the observation layouts of the default options as the code builds them."""

from __future__ import annotations

from pathlib import Path

from splash.envs.bash_encoding import BashEncoding
from splash.envs.tower_encoding import TowerEncoding
from splash.games.bash import BashGame
from splash.games.tower import TowerGame

DOC = Path(__file__).resolve().parents[2] / "docs" / "envs.md"


def test_the_documented_layouts_are_the_built_ones() -> None:
    text = DOC.read_text(encoding="utf-8")
    bash = BashEncoding(BashGame())
    tower = TowerEncoding(TowerGame())
    assert bash.layout.table() in text
    assert tower.layout.table() in text
    assert f"{bash.num_actions} in all" in text
    assert f"{tower.num_actions} indices in all" in text
    assert f"({bash.layout.size} entries" in text
    assert f"({tower.layout.size} entries" in text
