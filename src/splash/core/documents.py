"""Format tags of every saved or exchanged document: ``{"format": "splash/<kind>/<version>"}``."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn, TypeVar

from splash.core.actions import Json
from splash.core.errors import DocumentError, UnsupportedFormatError
from splash.core.i18n import Message, message


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


S = TypeVar("S", bound=str)

_KINDS: dict[str, Message] = {
    "object": message("an object"),
    "list": message("a list"),
    "string": message("a string"),
    "integer": message("an integer"),
    "number": message("a finite number"),
    "boolean": message("true or false"),
}


def _found(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


@dataclass(frozen=True, slots=True)
class Field:
    """A value read from a document together with the path that leads to it.

    Each accessor checks the value and raises :class:`DocumentError` naming the path
    (``tower[3].support``) and what was found there, so that loaders never fail with a bare
    ``KeyError`` or ``TypeError``:

    >>> Field.root({"tower": [{"support": 5}]})["tower"][0]["support"].as_str()
    Traceback (most recent call last):
    ...
    splash.core.errors.DocumentError: tower[0].support must be a string, not 5
    """

    value: object
    path: str = ""

    @classmethod
    def root(cls, doc: object) -> Field:
        """The document itself."""
        return cls(doc, "")

    @property
    def where(self) -> str:
        """The path, or ``document`` for the root."""
        return self.path or "document"

    def fail(self, problem: Message) -> NoReturn:
        """Raise a :class:`DocumentError` about this field."""
        raise DocumentError(
            message("{path}: {problem}", path=self.where, problem=problem),
            path=self.path,
            value=self.value,
        )

    def _wrong(self, kind: str) -> NoReturn:
        raise DocumentError(
            message(
                "{path} must be {expected}, not {found}",
                path=self.where,
                expected=_KINDS[kind],
                found=_found(self.value),
            ),
            path=self.path,
            value=self.value,
        )

    def _child(self, key: str | int) -> str:
        if isinstance(key, int):
            return f"{self.path}[{key}]"
        return f"{self.path}.{key}" if self.path else key

    def __getitem__(self, key: str | int) -> Field:
        """The member ``key`` of an object, or item ``key`` of a list; it must exist."""
        if isinstance(key, int):
            items = self.as_list()
            if not 0 <= key < len(items):
                raise DocumentError(
                    message("{path} is missing", path=self._child(key)), path=self._child(key)
                )
            return items[key]
        members = self.as_object()
        if key not in members:
            raise DocumentError(
                message("{path} is missing", path=self._child(key)), path=self._child(key)
            )
        return Field(members[key], self._child(key))

    def get(self, key: str, default: object = None) -> Field:
        """The member ``key`` of an object, or ``default`` when it is absent."""
        return Field(self.as_object().get(key, default), self._child(key))

    def is_null(self) -> bool:
        """Whether the value is JSON ``null``."""
        return self.value is None

    def as_object(self) -> Mapping[str, object]:
        """The value, which must be a JSON object."""
        if not isinstance(self.value, Mapping):
            self._wrong("object")
        return self.value

    def as_list(self) -> list[Field]:
        """The items of the value, which must be a JSON list."""
        if not isinstance(self.value, list | tuple):
            self._wrong("list")
        return [Field(item, self._child(i)) for i, item in enumerate(self.value)]

    def members(self) -> list[tuple[str, Field]]:
        """The ``(key, field)`` pairs of the value, which must be a JSON object."""
        return [(str(k), Field(v, self._child(str(k)))) for k, v in self.as_object().items()]

    def as_str(self) -> str:
        """The value, which must be a string."""
        if not isinstance(self.value, str):
            self._wrong("string")
        return self.value

    def as_int(self) -> int:
        """The value, which must be an integer (``true`` and ``1.0`` are refused)."""
        if not isinstance(self.value, int) or isinstance(self.value, bool):
            self._wrong("integer")
        return self.value

    def as_float(self) -> float:
        """The value, which must be a finite number."""
        value = self.value
        if (
            not isinstance(value, int | float)
            or isinstance(value, bool)
            or not math.isfinite(value)
        ):
            self._wrong("number")
        return float(value)

    def as_bool(self) -> bool:
        """The value, which must be ``true`` or ``false``."""
        if not isinstance(self.value, bool):
            self._wrong("boolean")
        return self.value

    def as_json(self) -> Json:
        """The value, which must be made of JSON values only (objects with string keys)."""
        value = self.value
        if value is None or isinstance(value, str | bool | int):
            return value
        if isinstance(value, float):
            return self.as_float()
        if isinstance(value, list | tuple):
            return [item.as_json() for item in self.as_list()]
        if isinstance(value, Mapping) and all(isinstance(k, str) for k in value):
            return {key: item.as_json() for key, item in self.members()}
        self.fail(message("not a JSON value: {found}", found=_found(value)))

    def optional_str(self) -> str | None:
        """The value: a string or ``null``."""
        return None if self.value is None else self.as_str()

    def optional_int(self) -> int | None:
        """The value: an integer or ``null``."""
        return None if self.value is None else self.as_int()

    def one_of(self, choices: Sequence[S]) -> S:
        """The value, a string that must be one of ``choices`` (typed as they are)."""
        value = self.as_str()
        for choice in choices:
            if choice == value:
                return choice
        self.fail(
            message("{found} is not one of {known}", found=_found(value), known=", ".join(choices))
        )

    def int_in(self, low: int, high: int) -> int:
        """The value, an integer from ``low`` to ``high`` inclusive."""
        value = self.as_int()
        if not low <= value <= high:
            self.fail(
                message("{found} is not between {low} and {high}", found=value, low=low, high=high)
            )
        return value


def parse_json(text: str | bytes, *, what: Message) -> object:
    """The JSON value ``text`` holds; :class:`DocumentError` saying ``what`` it should have
    been when it is not JSON, is nested too deeply or holds a number Python refuses."""
    try:
        return json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise DocumentError(
            message("{what} is not JSON: {error}", what=what, error=str(error))
        ) from None
    except RecursionError:
        raise DocumentError(message("{what} is nested too deeply", what=what)) from None
    except ValueError as error:  # an integer of more digits than int() takes
        raise DocumentError(
            message(
                "{what} holds a number that cannot be read: {error}", what=what, error=str(error)
            )
        ) from None
