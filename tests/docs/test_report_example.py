"""docs/report.md quotes the summary its worked example's command prints today: the block
that ``scripts/report_example.py`` generates, rerun and compared."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "report_example", ROOT / "scripts" / "report_example.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_the_worked_example_quotes_what_its_command_prints() -> None:
    example = script()
    text = (ROOT / "docs" / "report.md").read_text(encoding="utf-8")
    assert example.documented(text) == example.block(example.summary()), (
        "docs/report.md's example is stale: run python scripts/report_example.py"
    )
