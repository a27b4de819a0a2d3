"""JSON documents in the tests: a value read from one, typed as the object or the array the
test expects it to be."""

from __future__ import annotations

from splash.core.actions import Json


def json_object(value: Json) -> dict[str, Json]:
    """``value``, which must be a JSON object."""
    assert isinstance(value, dict), f"not a JSON object: {value!r}"
    return value


def json_array(value: Json) -> list[Json]:
    """``value``, which must be a JSON array."""
    assert isinstance(value, list), f"not a JSON array: {value!r}"
    return value
