"""Format tags of every saved or exchanged document: ``{"format": "splash/<kind>/<version>"}``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from splash.core.errors import DocumentError, UnsupportedFormatError
from splash.core.i18n import message


def format_tag(kind: str, version: int) -> str:
    """The tag of a document of ``kind`` at ``version``: ``splash/bash/1``."""
    return f"splash/{kind}/{version}"


def check_format(doc: object, kind: str, versions: tuple[int, ...] = (1,)) -> int:
    """The version of ``doc`` if it is a ``kind`` document this code reads.

    Raises :class:`DocumentError` for something that is not a document and
    :class:`UnsupportedFormatError` for another kind or an unknown version.
    """
    if not isinstance(doc, Mapping):
        raise DocumentError(
            message("a document is a JSON object, not {type}", type=type(doc).__name__)
        )
    tag = doc.get("format")
    expected = " or ".join(format_tag(kind, v) for v in versions)
    if not isinstance(tag, str):
        raise UnsupportedFormatError(tag, expected)
    parts = tag.split("/")
    if len(parts) != 3 or parts[0] != "splash" or parts[1] != kind:
        raise UnsupportedFormatError(tag, expected)
    try:
        version = int(parts[2])
    except ValueError:
        raise UnsupportedFormatError(tag, expected) from None
    if version not in versions:
        raise UnsupportedFormatError(tag, expected)
    return version


def require(doc: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    """``doc[key]`` checked to be of ``kind``; :class:`DocumentError` naming the key if not."""
    if key not in doc:
        raise DocumentError(message("the document has no {key!r}", key=key), doc)
    value = doc[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise DocumentError(
            message("{key!r} has the wrong type ({type})", key=key, type=type(value).__name__),
            doc,
        )
    return value
