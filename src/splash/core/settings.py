"""``--set KEY=VALUE``: assignments into the tree of a game's data and options."""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Iterable, Mapping
from typing import Any

from splash.core.errors import OptionError
from splash.core.i18n import message


def parse_value(raw: str) -> Any:
    """A TOML value (``36``, ``0.5``, ``true``, ``[1, 2]``, ``"x"``), else the raw text."""
    try:
        return tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        return raw


def parse_assignment(text: str) -> tuple[str, Any]:
    """``("board.lanes.outer", 36)`` from ``"board.lanes.outer=36"``."""
    key, sep, raw = text.partition("=")
    key = key.strip()
    if not sep or not key:
        raise OptionError(text, None, message("expected KEY=VALUE"))
    if any(not part for part in key.split(".")):
        raise OptionError(key, raw, message("a key is a dotted path such as options.teams"))
    return key, parse_value(raw.strip())


def apply_assignments(
    tree: Mapping[str, Any],
    assignments: Iterable[tuple[str, Any]],
    *,
    leaf_key: str | None = None,
) -> dict[str, Any]:
    """A copy of ``tree`` with each ``(dotted key, value)`` set.

    A key must already exist in the tree (an unknown key is an :class:`OptionError` that
    lists the known ones).  When ``leaf_key`` is given and the key names a table that
    holds ``leaf_key``, a plain value sets that entry: ``decks.high_tide.undertow=0`` sets
    the card's ``count``.
    """
    result: dict[str, Any] = copy.deepcopy(dict(tree))
    for key, value in assignments:
        parts = key.split(".")
        node: Any = result
        for depth, part in enumerate(parts):
            if not isinstance(node, dict):
                raise OptionError(
                    key,
                    value,
                    message("{path} is a value, not a table", path=".".join(parts[:depth])),
                )
            if part not in node or part.startswith("_"):  # "_" marks what the code keeps
                known = ", ".join(sorted(k for k in node if not k.startswith("_"))) or "none"
                raise OptionError(
                    key,
                    value,
                    message("unknown key {part!r} (known here: {known})", part=part, known=known),
                )
            if depth == len(parts) - 1:
                current = node[part]
                if isinstance(current, dict) and not isinstance(value, dict):
                    if leaf_key is not None and leaf_key in current:
                        current[leaf_key] = value
                        break
                    raise OptionError(
                        key, value, message("{key} is a table; set one of its keys", key=key)
                    )
                node[part] = value
            else:
                node = node[part]
    return result
