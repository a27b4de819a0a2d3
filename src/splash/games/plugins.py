"""Games declared outside this package: :func:`declared_elsewhere`.

A game joins :data:`splash.games.GAMES` without a change to this package in either of two
ways (docs/adding-a-game.md):

- the environment variable ``SPLASH_GAMES``: ``module:attr`` references to
  :class:`~splash.games.registry.GameDeclaration` objects, separated by commas
  (``SPLASH_GAMES=mygame.declaration:DECLARATION``).  Spawned worker processes and a server
  started in another process inherit it;
- an entry point of the group ``splash.games`` in an installed distribution, whose object is
  a declaration (``[project.entry-points."splash.games"] mygame =
  "mygame.declaration:DECLARATION"``).

A reference that is malformed, cannot be imported or is not a declaration is an
:class:`~splash.core.errors.OptionError` that names it.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Mapping
from importlib.metadata import entry_points

from splash.core.errors import OptionError
from splash.core.i18n import message
from splash.games.registry import GameDeclaration

VARIABLE = "SPLASH_GAMES"
"""The environment variable naming the declarations of further games."""
GROUP = "splash.games"
"""The entry-point group naming the declarations of further games."""


def load_declaration(reference: str, key: str = VARIABLE) -> GameDeclaration:
    """The declaration that ``reference`` (``module:attr``) names; an :class:`OptionError`
    naming ``key`` and the reference when it is malformed, cannot be imported or names
    something else than a :class:`GameDeclaration`."""
    module_name, colon, attribute = reference.strip().partition(":")
    if not colon or not module_name or not attribute:
        raise OptionError(
            key, reference, message("a game is named as module:attribute, e.g. mygame:DECLARATION")
        )
    try:
        found: object = importlib.import_module(module_name)
    except ImportError as error:
        raise OptionError(
            key,
            reference,
            message("cannot import {module!r}: {error}", module=module_name, error=str(error)),
        ) from error
    for part in attribute.split("."):
        if not hasattr(found, part):
            raise OptionError(
                key,
                reference,
                message("{module!r} has no {name!r}", module=module_name, name=attribute),
            )
        found = getattr(found, part)
    if not isinstance(found, GameDeclaration):
        raise OptionError(key, reference, message("this is not a game declaration"))
    return found


def declared_elsewhere(environ: Mapping[str, str] | None = None) -> list[GameDeclaration]:
    """The declarations of the entry points of the group ``splash.games``, then those that
    ``SPLASH_GAMES`` names in ``environ`` (the process's environment by default), in order;
    the same declaration named twice is taken once."""
    environ = os.environ if environ is None else environ
    found: list[GameDeclaration] = []
    for point in entry_points(group=GROUP):
        found.append(load_declaration(point.value, f"entry point {point.name}"))
    for reference in environ.get(VARIABLE, "").split(","):
        if reference.strip():
            found.append(load_declaration(reference))
    return list({id(declaration): declaration for declaration in found}.values())
