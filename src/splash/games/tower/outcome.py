"""The outcome of a placement as the rules read it (TD07, TD08, T11, T17, T18).

Whoever supplies it — the physics, or people at a real table — reports one of:

- ``stood``: ``tower`` is the whole tower after the piece settled, the placed piece included;
- ``fell``: ``tower`` lists every piece left on the table (standing ones with their support,
  fallen ones with none), ``stacks`` the standing stacks (each base first) and ``on_table``
  the pieces lying on the table;
- ``spontaneous``: the tower fell before the new piece touched it (T17);
- ``knocked``: someone (``knocker``) knocked the tower over during the turn (T18, referee
  mode); ``tower``, ``stacks`` and ``on_table`` as for ``fell``, without the given piece.

``details`` is the provider's own record (tremor, release pose, simulated time): kept with
the game so a replay needs no physics, never read by the rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, cast

from splash.core.actions import Json
from splash.core.documents import format_tag
from splash.core.i18n import Message, message
from splash.games.tower.tower import TowerPiece

Result = Literal["stood", "fell", "spontaneous", "knocked"]
RESULTS: tuple[Result, ...] = ("stood", "fell", "spontaneous", "knocked")
OUTCOME_FORMAT = format_tag("tower-outcome", 1)


@dataclass(frozen=True)
class PlacementOutcome:
    """What happened to one placement."""

    result: Result
    tower: tuple[TowerPiece, ...] = ()
    stacks: tuple[tuple[str, ...], ...] = ()
    on_table: tuple[str, ...] = ()
    knocker: int | None = None
    details: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Json]:
        """A JSON-ready document (``splash/tower-outcome/1``)."""
        return {
            "format": OUTCOME_FORMAT,
            "result": self.result,
            "tower": [p.to_json() for p in self.tower],
            "stacks": [list(s) for s in self.stacks],
            "on_table": list(self.on_table),
            "knocker": self.knocker,
            "details": dict(self.details),
        }

    @staticmethod
    def parse(doc: object) -> PlacementOutcome | Message:
        """The outcome a document describes, or what is wrong with it."""
        if not isinstance(doc, Mapping):
            return message("an outcome is an object")
        if doc.get("format", OUTCOME_FORMAT) != OUTCOME_FORMAT:
            return message("an outcome has format {format}", format=OUTCOME_FORMAT)
        result = doc.get("result")
        if result not in RESULTS:
            return message("the result must be one of {results}", results=", ".join(RESULTS))
        try:
            tower = tuple(TowerPiece.from_json(p) for p in doc.get("tower", []))
            stacks = tuple(tuple(str(p) for p in s) for s in doc.get("stacks", []))
            on_table = tuple(str(p) for p in doc.get("on_table", []))
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            return message("a piece of the outcome is malformed: {error}", error=str(error))
        knocker = doc.get("knocker")
        if knocker is not None and (not isinstance(knocker, int) or isinstance(knocker, bool)):
            return message("the knocker is a seat number")
        details = doc.get("details", {})
        if not isinstance(details, Mapping):
            return message("details must be an object")
        return PlacementOutcome(cast(Result, result), tower, stacks, on_table, knocker, details)


def check(
    outcome: PlacementOutcome,
    *,
    before: tuple[str, ...],
    gift: str,
    target: str | None,
    players: int,
) -> Message | None:
    """What makes ``outcome`` impossible for a placement of ``gift`` on ``target`` (``None``
    for the table) onto a tower of pieces ``before``; ``None`` when it is consistent."""
    ids = [p.piece for p in outcome.tower]
    if len(ids) != len(set(ids)):
        return message("a piece appears twice in the outcome")
    if outcome.result in ("spontaneous", "knocked") and not before:
        return message("there is no tower to fall")
    if outcome.result == "spontaneous":
        return None
    expected = set(before) if outcome.result == "knocked" else {*before, gift}
    if outcome.result == "knocked" and (
        outcome.knocker is None or not 0 <= outcome.knocker < players
    ):
        return message("a knocked tower needs the seat of the knocker")
    if set(ids) != expected:
        return message(
            "the outcome must account for exactly the pieces {pieces}",
            pieces=", ".join(sorted(expected)),
        )
    supports = {p.piece: p.support for p in outcome.tower}
    if outcome.result == "stood":
        if supports[gift] != target:
            return message(
                "the placed piece must rest on its target {target}", target=target or "table"
            )
        bases = [p for p, s in supports.items() if s is None]
        if len(bases) != 1:
            return message("a tower that stood has exactly one base")
        return _supports_known(supports)
    in_stacks = [p for stack in outcome.stacks for p in stack]
    if len(in_stacks) != len(set(in_stacks)) or set(in_stacks) & set(outcome.on_table):
        return message("a piece is in two places")
    if set(in_stacks) | set(outcome.on_table) != expected:
        return message("every piece is in a standing stack or on the table")
    for stack in outcome.stacks:
        if not stack or supports[stack[0]] is not None:
            return message("a standing stack starts with a piece on the table")
        for piece in stack[1:]:
            if supports[piece] not in stack:
                return message("{piece} rests on a piece outside its stack", piece=piece)
    for piece in outcome.on_table:
        if supports[piece] is not None:
            return message("{piece} lies on the table: it has no support", piece=piece)
    return None


def _supports_known(supports: Mapping[str, str | None]) -> Message | None:
    for piece, support in supports.items():
        if support is not None and support not in supports:
            return message(
                "{piece} rests on {support}, which is not in the tower",
                piece=piece,
                support=support,
            )
    return None
