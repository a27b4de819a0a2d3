"""Games declared outside the package: ``SPLASH_GAMES`` and the ``splash.games`` entry
points (:mod:`splash.games.plugins`)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from splash.core.errors import OptionError
from splash.games.bash.declaration import DECLARATION as BASH
from splash.games.plugins import VARIABLE, declared_elsewhere, load_declaration

REFERENCE = "splash.games.bash.declaration:DECLARATION"


def test_a_reference_names_a_declaration() -> None:
    assert load_declaration(REFERENCE) is BASH


def test_the_variable_lists_declarations_separated_by_commas() -> None:
    assert declared_elsewhere({VARIABLE: f" {REFERENCE} , "}) == [BASH]
    assert declared_elsewhere({VARIABLE: f"{REFERENCE},{REFERENCE}"}) == [BASH]
    assert declared_elsewhere({}) == []


@pytest.mark.parametrize(
    ("reference", "problem"),
    [
        ("splash.games.bash.declaration", "module:attribute"),
        (":DECLARATION", "module:attribute"),
        ("no_such_module_here:DECLARATION", "cannot import 'no_such_module_here'"),
        ("splash.games.bash.declaration:NOTHING", "has no 'NOTHING'"),
        ("splash.games.bash.declaration:BashGame", "not a game declaration"),
    ],
)
def test_a_bad_reference_is_an_option_error_naming_it(reference: str, problem: str) -> None:
    with pytest.raises(OptionError) as error:
        declared_elsewhere({VARIABLE: reference})
    assert error.value.key == VARIABLE and error.value.value == reference
    assert problem in str(error.value)


@pytest.mark.parametrize(
    ("reference", "said"),
    [
        ("no_such_module_here:GAME", "no_such_module_here:GAME"),
        ("splash.games.tower.declaration:DECLARATION", "'tower' is declared twice"),
    ],
)
def test_the_command_line_says_what_is_wrong_without_a_traceback(reference: str, said: str) -> None:
    env = {**os.environ, VARIABLE: reference}
    done = subprocess.run(
        [sys.executable, "-m", "splash.cli.main", "--help"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode != 0
    assert said in done.stderr
    assert "Traceback" not in done.stderr
