"""Matching, targets and legal gifts (T05, T07, T08, TD04-TD06)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from splash.core.actions import Action
from splash.core.i18n import Message, message
from splash.games.tower.tower import TowerPiece, highest

if TYPE_CHECKING:
    from splash.games.tower.state import TowerState

MAX_OFFSET_MM = 60.0


def matches(state: TowerState, piece: str, other: str) -> bool:
    """Same shape or same colour."""
    catalogue = state.tower_game.catalogue
    a, b = catalogue.piece(piece), catalogue.piece(other)
    return bool(a.shape == b.shape or a.colour == b.colour)


def _resting_places(state: TowerState, piece: str) -> list[TowerPiece]:
    """Uncovered pieces on which ``piece`` has a pose that touches nothing else."""
    fits = state.tower_game.fits
    return [target for target in state.tower.uncovered() if fits(state.tower, piece, target)]


def target_of(state: TowerState, piece: str) -> TowerPiece | None:
    """Where ``piece`` must go (TD04); ``None`` for the table."""
    if not state.tower.pieces:
        return None
    tolerance = state.tower_game.options.height_tolerance_mm
    places = _resting_places(state, piece)
    if state.tower_game.options.placement == "top":
        top = state.tower.top(tolerance)
        if top is not None and top in places:
            return top
        return highest(places, tolerance) or highest(state.tower.pieces, tolerance)
    matching = [t for t in places if matches(state, piece, t.piece)]
    found = highest(matching or places, tolerance)
    if found is None:
        # No free top anywhere (a ridge or a lying cylinder on top): the highest piece.
        return highest(state.tower.pieces, tolerance)
    return found


def forced(state: TowerState, piece: str) -> bool:
    """Whether ``piece`` has no pose on any piece of the tower that touches nothing else:
    T06 cannot be kept, and the piece goes on the highest piece, touching what it must."""
    return bool(state.tower.pieces) and not _resting_places(state, piece)


def placeable(state: TowerState, piece: str) -> bool:
    """Whether ``piece`` may be given now (T07)."""
    if not state.tower.pieces:
        return True
    places = _resting_places(state, piece)
    if state.tower_game.options.placement == "top":
        top = state.tower.top(state.tower_game.options.height_tolerance_mm)
        return top is not None and top in places and matches(state, piece, top.piece)
    return any(matches(state, piece, t.piece) for t in places)


def legal_gifts(state: TowerState) -> list[str]:
    """The pieces the giver may give (T07, T08, TD05, TD06)."""
    own = state.reserves[state.giver]
    mine = [p for p in own if placeable(state, p)]
    if mine:
        return mine
    others = [p for seat, r in enumerate(state.reserves) if seat != state.giver for p in r]
    theirs = [p for p in others if placeable(state, p)]
    if theirs:
        return theirs
    return list(own) if own else others


def placement_problem(state: TowerState, action: Action) -> Message | None:
    """What is wrong with a placement's parameters (TD13), checked before any outcome."""
    params = dict(action.params)
    check = state.tower_game.pose_check
    if not params:
        return check(state, action) if check is not None else None
    expected = {"face", "rotation_deg", "x_mm", "y_mm"}
    if set(params) != expected:
        return message("a placement gives face, rotation_deg, x_mm and y_mm (or nothing)")
    assert state.gift is not None
    shape = state.tower_game.catalogue.shape_of(state.gift)
    if params["face"] not in shape.faces:
        return message(
            "{piece} has no face {face!r} (faces: {faces})",
            piece=state.gift,
            face=params["face"],
            faces=", ".join(shape.faces),
        )
    for key in ("rotation_deg", "x_mm", "y_mm"):
        value = params[key]
        if (
            not isinstance(value, int | float)
            or isinstance(value, bool)
            or not math.isfinite(value)
        ):
            return message("{key} must be a number", key=key)
    if not -180.0 <= float(params["rotation_deg"]) <= 180.0:
        return message("rotation_deg must lie between -180 and 180")
    if max(abs(float(params["x_mm"])), abs(float(params["y_mm"]))) > MAX_OFFSET_MM:
        return message(
            "the offset must lie within {limit} mm of the target's centre", limit=MAX_OFFSET_MM
        )
    if check is not None:
        return check(state, action)
    return None
