"""Outcomes reported by people playing with real pieces (TD08, referee mode).

People say whether the tower stood (and whether the piece left room on its target, TD04),
or which stacks still stand and which pieces lie on the table.  Heights, which people do
not measure, are estimated from the catalogue: each piece adds the height of the face it
rests on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from splash.core.actions import Action, Json
from splash.games.tower.outcome import OUTCOME_FORMAT
from splash.games.tower.rules import target_of
from splash.games.tower.tower import TowerPiece

if TYPE_CHECKING:
    from splash.games.tower.state import TowerState


def _face_of(state: TowerState, piece: str) -> str:
    placement = state.placement or {}
    if piece == state.gift and isinstance(placement.get("face"), str):
        return str(placement["face"])
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


def stood(state: TowerState, *, room_left: bool = False) -> Action:
    """The tower stood; ``room_left``: the piece left room on its target (TD04)."""
    assert state.gift is not None
    target = target_of(state, state.gift)
    face = _face_of(state, state.gift)
    base = target.height_mm if target is not None else 0.0
    placed = TowerPiece(
        state.gift,
        target.piece if target is not None else None,
        face,
        base + _height_mm(state, state.gift, face),
        True,
        state.tower.next_order(),
    )
    tower = [
        TowerPiece(
            p.piece,
            p.support,
            p.face,
            p.height_mm,
            room_left if target is not None and p.piece == target.piece else p.uncovered,
            p.order,
            p.pose,
        )
        for p in state.tower.pieces
    ]
    return _result(state, "stood", [*tower, placed])


def _collapse(
    state: TowerState,
    pieces: Sequence[str],
    standing: Sequence[Sequence[str]],
    on_table: Sequence[str],
) -> list[TowerPiece]:
    records = []
    order = 0
    for stack in standing:
        height = 0.0
        for index, piece in enumerate(stack):
            face = _face_of(state, piece)
            height += _height_mm(state, piece, face)
            records.append(
                TowerPiece(
                    piece,
                    stack[index - 1] if index else None,
                    face,
                    height,
                    index == len(stack) - 1,
                    order,
                )
            )
            order += 1
    for piece in on_table:
        face = _face_of(state, piece)
        records.append(TowerPiece(piece, None, face, _height_mm(state, piece, face), True, order))
        order += 1
    return records


def fell(state: TowerState, standing: Sequence[Sequence[str]], on_table: Sequence[str]) -> Action:
    """The tower fell: ``standing`` stacks (each base first) and the pieces ``on_table``."""
    assert state.gift is not None
    pieces = [*state.tower.ids(), state.gift]
    records = _collapse(state, pieces, standing, on_table)
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
    records = _collapse(state, state.tower.ids(), standing, on_table)
    return _result(
        state,
        "knocked",
        records,
        stacks=[list(s) for s in standing],
        on_table=list(on_table),
        knocker=knocker,
    )
