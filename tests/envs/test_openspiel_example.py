"""The example that pits OpenSpiel's MCTS against the project's bots runs and reports."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "openspiel_mcts_vs_bots.py"


def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("openspiel_mcts_vs_bots", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_example_plays_and_prints_the_score(capsys: pytest.CaptureFixture[str]) -> None:
    example = load_example()
    tiny = [
        "board.laps=1",
        "board.lanes.outer=6",
        "board.lanes.centre=5",
        "board.lanes.high_tide=4",
    ]
    argv = ["--games", "2", "--simulations", "2", "--seed", "3", "--bot", "random"]
    for setting in tiny:
        argv += ["--set", setting]
    assert example.main(argv) == 0
    lines = capsys.readouterr().out.strip().split("\n")
    assert len(lines) == 3
    assert lines[0].startswith("game 1: MCTS (seat A) ")
    assert lines[1].startswith("game 2: MCTS (seat B) ")
    wins = sum(" won against random" in line for line in lines[:2])
    assert lines[2] == f"MCTS (2 simulations a move) won {wins} of 2 against random"


def test_the_example_reads_settings_as_toml() -> None:
    example = load_example()
    assert example.parse_set("options.teams=3") == ("options.teams", 3)
    assert example.parse_set("options.obstacles=permanent") == ("options.obstacles", "permanent")
