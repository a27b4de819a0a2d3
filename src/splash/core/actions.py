"""Actions: a stable integer id, a kind, parameters, and their JSON form."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from splash.core.errors import MalformedActionError
from splash.core.i18n import message

JsonScalar = str | int | float | bool | None
Json = JsonScalar | list["Json"] | dict[str, "Json"]


class FrozenMap(tuple[tuple[str, Any], ...]):
    """A JSON object made hashable: its items, sorted by key."""

    __slots__ = ()


Frozen = JsonScalar | tuple[Any, ...]
"""A JSON value made hashable (lists become tuples, objects :class:`FrozenMap`)."""


def freeze(value: Any) -> Any:
    """A hashable copy of a JSON value."""
    if isinstance(value, Mapping):
        return FrozenMap(sorted((str(k), freeze(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    return value


def thaw(value: Any) -> Json:
    """The JSON value a :func:`freeze` result stands for."""
    if isinstance(value, FrozenMap):
        return {k: thaw(v) for k, v in value}
    if isinstance(value, tuple):
        return [thaw(v) for v in value]
    return cast(Json, value)


@dataclass(frozen=True, slots=True)
class Action:
    """One move of a player, or one outcome of a chance event.

    ``id`` is the action's index in its game's fixed enumeration (for a continuous action,
    the id of its kind; its parameters then carry the values).
    """

    id: int
    kind: str
    params: tuple[tuple[str, Any], ...] = ()
    """Sorted ``(name, value)`` pairs; nested values are frozen (see :func:`freeze`)."""

    def param(self, name: str) -> Any:
        """The value of parameter ``name`` (scalars as they are, nested values as JSON)."""
        for key, value in self.params:
            if key == name:
                return thaw(value) if isinstance(value, tuple) else value
        raise KeyError(name)

    def to_json(self) -> dict[str, Json]:
        """The JSON form: ``{"kind": ..., **params}``."""
        doc: dict[str, Json] = {"kind": self.kind}
        doc.update((k, thaw(v)) for k, v in self.params)
        return doc

    def __str__(self) -> str:
        if not self.params:
            return self.kind
        shown = (f"{k}={'...' if isinstance(v, tuple) else v}" for k, v in self.params)
        return self.kind + "(" + ", ".join(shown) + ")"


def make_action(action_id: int, kind: str, **params: Any) -> Action:
    """An action with its parameters in a canonical (sorted) order; nested values frozen."""
    return Action(action_id, kind, tuple(sorted((k, freeze(v)) for k, v in params.items())))


def _key(kind: str, params: Iterable[tuple[str, Any]]) -> tuple[str, tuple[tuple[str, Any], ...]]:
    return kind, tuple(sorted(params))


class ActionSpace:
    """The fixed enumeration of a game's discrete actions (chance outcomes included)."""

    def __init__(self, actions: Sequence[Action]) -> None:
        for index, action in enumerate(actions):
            if action.id != index:
                raise ValueError(f"action {action} has id {action.id}, expected {index}")
        self._actions = tuple(actions)
        self._by_key = {_key(a.kind, a.params): a for a in self._actions}
        if len(self._by_key) != len(self._actions):
            raise ValueError("two actions share a kind and parameters")

    @property
    def size(self) -> int:
        """How many discrete actions the enumeration has (the length of an action mask)."""
        return len(self._actions)

    def __len__(self) -> int:
        return len(self._actions)

    def __getitem__(self, action_id: int) -> Action:
        if not isinstance(action_id, int) or isinstance(action_id, bool):
            raise MalformedActionError(action_id, message("an action id is an integer"))
        if not 0 <= action_id < len(self._actions):
            raise MalformedActionError(
                action_id,
                message(
                    "no action has id {id} (ids run from 0 to {last})",
                    id=action_id,
                    last=len(self._actions) - 1,
                ),
            )
        return self._actions[action_id]

    def __iter__(self) -> Any:
        return iter(self._actions)

    def find(self, kind: str, **params: JsonScalar) -> Action:
        """The action of ``kind`` with exactly these parameters; :class:`MalformedActionError`
        when there is none."""
        try:
            found = self._by_key.get(_key(kind, params.items()))
        except TypeError:  # an unhashable parameter: from_json says what is wrong
            found = None
        return found if found is not None else self.from_json({"kind": kind, **params})

    def from_json(self, doc: object) -> Action:
        """The action a JSON form names; :class:`MalformedActionError` when none does."""
        if isinstance(doc, int) and not isinstance(doc, bool):
            return self[doc]
        if not isinstance(doc, Mapping):
            raise MalformedActionError(
                doc, message("an action is an object with a 'kind' or an integer id")
            )
        kind = doc.get("kind")
        if not isinstance(kind, str):
            raise MalformedActionError(doc, message("the action has no 'kind'"))
        params = [(k, v) for k, v in doc.items() if k != "kind"]
        try:
            found = self._by_key.get(_key(kind, params))
        except TypeError:
            found = None
        if found is None:
            kinds = sorted({a.kind for a in self._actions})
            if kind not in kinds:
                raise MalformedActionError(
                    doc,
                    message(
                        "unknown action kind {kind!r} (known: {kinds})",
                        kind=kind,
                        kinds=", ".join(kinds),
                    ),
                )
            raise MalformedActionError(
                doc, message("no {kind!r} action has these parameters", kind=kind)
            )
        _check_scalar_types(doc, found, params)
        return found


def _check_scalar_types(doc: object, found: Action, given: Iterable[tuple[str, Any]]) -> None:
    """Refuse ``true`` or ``1.0`` for an integer parameter (they compare equal to ``1``)."""
    canonical = dict(found.params)
    for name, value in given:
        expected = canonical[name]
        if isinstance(expected, bool | int | float) and type(value) is not type(expected):
            raise MalformedActionError(
                doc,
                message(
                    "parameter {name!r} must be {expected}, not {value!r}",
                    name=name,
                    expected=_SCALAR_NAMES[type(expected)],
                    value=value,
                ),
            )


_SCALAR_NAMES = {
    bool: message("true or false"),
    int: message("an integer"),
    float: message("a number"),
}
