"""Outcomes reported by people playing with real pieces (TD08, referee mode).

People say whether the tower stood (and whether the piece left room on its target, TD04),
or which stacks still stand and which pieces lie on the table.  Heights, which people do
not measure, are estimated from the catalogue: each piece adds the height of the face it
rests on to that of its support.  The pieces that did not move (the tower that stood, the
standing stack of the tower's own base) keep what the game knew of them.

These functions only write the report down: the game checks it when it is applied
(:mod:`splash.games.tower.reports`), and refuses, naming the piece, what people cannot have
seen (a piece twice, a stack that is not a part of the tower as it was, ...).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from splash.core.actions import Action, Json
from splash.games.tower.outcome import OUTCOME_FORMAT
from splash.games.tower.rules import target_of
from splash.games.tower.tower import TowerPiece

if TYPE_CHECKING:
    from splash.games.tower.state import TowerState


def _face_of(state: TowerState, piece: str) -> str:
    placement = state.placement or {}
    if piece == state.gift and "face" in placement:
        return placement["face"]
    if piece in state.tower:
        return state.tower.get(piece).face
    return next(iter(state.tower_game.catalogue.shape_of(piece).faces))


def _height_mm(state: TowerState, piece: str, face: str) -> float:
    shape = state.tower_game.catalogue.shape_of(piece)
    return float(shape.resting(face).height) * 1000.0


def _result(state: TowerState, result: str, tower: list[TowerPiece], **extra: Json) -> Action:
    outcome: dict[str, Json] = {
        "format": OUTCOME_FORMAT,
        "result": result,
        "tower": [p.to_json() for p in tower],
        "details": {"reported": True},
    }
    outcome.update(extra)
    return state.tower_game.parse_action({"kind": "result", "outcome": outcome})


def _gift(state: TowerState) -> str:
    if state.gift is None:
        raise ValueError("no piece is being placed")
    return state.gift


def stood(state: TowerState, *, room_left: bool = False) -> Action:
    """The tower stood; ``room_left``: the piece left room on its target (TD04)."""
    gift = _gift(state)
    target = target_of(state, gift)
    face = _face_of(state, gift)
    base = target.height_mm if target is not None else 0.0
    placed = TowerPiece(
        gift,
        target.piece if target is not None else None,
        face,
        base + _height_mm(state, gift, face),
        True,
        state.tower.next_order(),
    )
    tower = [
        replace(p, uncovered=room_left) if target is not None and p.piece == target.piece else p
        for p in state.tower.pieces
    ]
    return _result(state, "stood", [*tower, placed])


def _collapse(
    state: TowerState, standing: Sequence[Sequence[str]], on_table: Sequence[str], gift: bool
) -> list[TowerPiece]:
    """The records of a fall: each standing stack base first, then the pieces lying on the
    table.  Each piece rests on the piece it rested on (the gift on its target); the stack of
    the tower's own base did not move and keeps what the game knew of its pieces."""
    rested = {p.piece: p.support for p in state.tower.pieces}
    covered = None
    if gift and state.gift is not None:
        target = target_of(state, state.gift)
        covered = target.piece if target is not None else None
        rested[state.gift] = covered
    base = state.tower.pieces[0].piece if state.tower.pieces else None
    records: list[TowerPiece] = []
    for stack in standing:
        heights: dict[str, float] = {}
        for index, piece in enumerate(stack):
            support = rested.get(piece) if index else None
            carried = any(rested.get(p) == piece for p in stack[index + 1 :])
            face = _face_of(state, piece)
            below = heights.get(support, 0.0) if support is not None else 0.0
            record = TowerPiece(
                piece,
                support,
                face,
                below + _height_mm(state, piece, face),
                not carried,
                len(records),
            )
            if stack[0] == base and piece in state.tower:
                known = state.tower.get(piece)
                free = (known.uncovered and piece != covered) or not carried
                record = replace(known, uncovered=free)
            heights[piece] = record.height_mm
            records.append(record)
    for piece in on_table:
        face = _face_of(state, piece)
        height = _height_mm(state, piece, face)
        records.append(TowerPiece(piece, None, face, height, True, len(records)))
    return records


def fell(state: TowerState, standing: Sequence[Sequence[str]], on_table: Sequence[str]) -> Action:
    """The tower fell: ``standing`` stacks (each base first) and the pieces ``on_table``."""
    _gift(state)
    records = _collapse(state, standing, on_table, gift=True)
    return _result(
        state, "fell", records, stacks=[list(s) for s in standing], on_table=list(on_table)
    )


def spontaneous(state: TowerState) -> Action:
    """The tower fell by itself before the piece touched it (T17)."""
    return _result(state, "spontaneous", [])


def knocked(
    state: TowerState, knocker: int, standing: Sequence[Sequence[str]], on_table: Sequence[str]
) -> Action:
    """Someone knocked the tower over during the turn (T18)."""
    records = _collapse(state, standing, on_table, gift=False)
    return _result(
        state,
        "knocked",
        records,
        stacks=[list(s) for s in standing],
        on_table=list(on_table),
        knocker=knocker,
    )
