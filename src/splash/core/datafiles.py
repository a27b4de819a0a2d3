"""Reading the data files games ship (TOML), with errors that name the file."""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from splash.core.errors import DataFileError
from splash.core.i18n import message


def read_toml(source: Path | resources.abc.Traversable, name: str) -> dict[str, Any]:
    """The table in the TOML file ``source``; a :class:`DataFileError` naming ``name`` when it
    cannot be read or parsed."""
    try:
        with source.open("rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as error:
        raise DataFileError(
            name, None, None, message("not valid TOML: {error}", error=str(error))
        ) from None
    except OSError as error:
        raise DataFileError(
            name, None, None, message("cannot be read: {error}", error=str(error))
        ) from None
