"""OpenSpiel game parameters: the scalar values of a game's configuration tree, by key.

OpenSpiel passes parameters as a flat mapping of names to ``int``, ``float``, ``bool`` or
``str``, and writes them into the game's string (``python_splash_bash(options.teams=3)``),
which is read back on deserialisation.  Each scalar leaf of a game's ``config()`` tree
becomes one parameter named by its ``--set`` key; lists and tables (a card's effects,
checkpoint fractions, a shape's parts) cannot be written in a game string and are left out,
and so are strings that would break it (with ``,``, ``=``, ``(`` or ``)``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

ParamValue = int | float | bool | str
"""What an OpenSpiel parameter may hold."""

_UNSAFE = frozenset(",=()")


def scalar_leaves(tree: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    """Every ``(key, value)`` leaf of ``tree``, keys dotted like ``--set`` keys."""
    for key, value in tree.items():
        if isinstance(value, Mapping):
            yield from scalar_leaves(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}", value


def specification(tree: Mapping[str, Any], *, skip: frozenset[str] = frozenset()) -> dict[str, Any]:
    """The parameters a configuration tree offers, with their default values.

    Keeps scalar leaves that a game string can carry; drops ``format`` tags and the keys in
    ``skip``.
    """
    spec: dict[str, Any] = {}
    for key, value in scalar_leaves(tree):
        if key in skip or key.rsplit(".", 1)[-1] == "format":
            continue
        if isinstance(value, str) and _UNSAFE & set(value):
            continue
        if isinstance(value, bool | int | float | str):
            spec[key] = value
    return spec


def assignments(
    params: Mapping[str, Any], defaults: Mapping[str, Any]
) -> list[tuple[str, ParamValue]]:
    """The ``--set`` assignments of the parameters that differ from their defaults.

    Keys absent from ``defaults`` (the adapter's own parameters) are not assignments.
    """
    changed: list[tuple[str, ParamValue]] = []
    for key, value in sorted(params.items()):
        if key in defaults and value != defaults[key]:
            changed.append((key, value))
    return changed
