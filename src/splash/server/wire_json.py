"""JSON read from the network with limits: size, nesting depth and integer length.

The standard library's decoder parses what it is given: a message nested thousands of
levels deep exhausts its recursion, and an integer of thousands of digits costs quadratic
time (and past 4,300 digits raises).  :func:`load_limited` checks all three before the
message reaches anything else; each refusal is a :class:`WireJsonError` naming its limit.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any, Final, Literal

MAX_DEPTH: Final = 32
"""The deepest nesting of arrays and objects a message may have."""
MAX_INT_DIGITS: Final = 18
"""The most digits of an integer (every one fits in 64 bits)."""

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")

Problem = Literal["too_large", "bad_json", "too_deep", "bad_number"]


@dataclass
class WireJsonError(ValueError):
    """A message refused before it is parsed: ``code`` says why, ``params`` with what."""

    code: Problem
    params: dict[str, int]


def too_deep(text: str, limit: int) -> bool:
    """Whether arrays and objects nest deeper than ``limit`` in ``text`` (brackets inside
    strings do not count).

    Only the bracket characters are visited, after the strings are blanked out, and a text
    with few brackets is not visited at all.
    """
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    for match in _BRACKET.finditer(_STRING.sub('""', text)):
        if match.group() in "[{":
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False


def _integer(limit: int) -> Any:
    def parse(digits: str) -> int:
        if len(digits.lstrip("-")) > limit:
            raise WireJsonError("bad_number", {"limit": limit})
        return int(digits)

    return parse


def _finite(digits: str) -> float:
    value = float(digits)
    if not math.isfinite(value):
        raise WireJsonError("bad_number", {"limit": MAX_INT_DIGITS})
    return value


def _no_constant(_name: str) -> Any:
    raise WireJsonError("bad_number", {"limit": MAX_INT_DIGITS})


def load_limited(
    raw: str | bytes,
    *,
    max_bytes: int,
    max_depth: int = MAX_DEPTH,
    max_int_digits: int = MAX_INT_DIGITS,
) -> Any:
    """The JSON value of ``raw``, refused (:class:`WireJsonError`) when it has more than
    ``max_bytes`` bytes, is not JSON (or UTF-8), nests deeper than ``max_depth``, holds an
    integer of more than ``max_int_digits`` digits, or a number that is not finite
    (``NaN``, ``Infinity``, ``1e999``)."""
    size = len(raw.encode() if isinstance(raw, str) else raw)
    if size > max_bytes:
        raise WireJsonError("too_large", {"size": size, "limit": max_bytes})
    try:
        text = raw if isinstance(raw, str) else raw.decode()
    except UnicodeDecodeError:
        raise WireJsonError("bad_json", {}) from None
    if too_deep(text, max_depth):
        raise WireJsonError("too_deep", {"limit": max_depth})
    try:
        return json.loads(
            text,
            parse_int=_integer(max_int_digits),
            parse_float=_finite,
            parse_constant=_no_constant,
        )
    except json.JSONDecodeError:
        raise WireJsonError("bad_json", {}) from None
    except RecursionError:  # unreachable after the depth check; kept as a last guard
        raise WireJsonError("too_deep", {"limit": max_depth}) from None


__all__ = ["MAX_DEPTH", "MAX_INT_DIGITS", "WireJsonError", "load_limited", "too_deep"]
