"""Shared fixtures of the command-line tests: ``splash`` runs the command with typed input."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from splash.cli.main import app
from splash.core.i18n import set_locale


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    set_locale("en")
    yield
    set_locale("en")


@pytest.fixture
def splash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Result]:
    """``splash(*args, lines=[...])`` runs the command in a 120-column English terminal,
    typing ``lines`` at its prompts and then ending the input, in an empty working folder
    (so that a default output file such as ``RESULTS.parquet`` lands there)."""
    monkeypatch.chdir(tmp_path)
    runner = CliRunner(env={"COLUMNS": "120", "LANG": "en_GB.UTF-8"})

    def invoke(*args: str, lines: Sequence[str] = ()) -> Result:
        text = "".join(line + "\n" for line in lines)
        return runner.invoke(app, list(args), input=text, catch_exceptions=False)

    return invoke
