"""Centred Splash! towers built by the simulation, for the benchmarks that time one ruling.

Every piece rests on its most stable face, centred on the piece below it; the pieces come
in the catalogue's order (each colour in every shape)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from splash.physics.model import TowerModel
from splash.physics.placement import Placement
from splash.physics.poses import TABLE, PieceRest
from splash.physics.ruling import rule

FACES = {"cube": "bottom", "beam": "flat", "prism": "triangle", "arch": "feet", "cylinder": "round"}
"""The face each shape is placed on."""


def centred_tower(model: TowerModel, pieces: list[str]) -> list[PieceRest]:
    """The rests of ``pieces`` placed one on the other, centred, as the simulation rules
    them; a ``RuntimeError`` if the tower falls."""
    tower: list[PieceRest] = []
    target = TABLE
    for piece in pieces:
        face = FACES[model.catalogue.piece(piece).shape]
        outcome = rule(model, tower, Placement(piece, face, 0.0, (0.0, 0.0), target))
        if outcome.result != "stood":
            raise RuntimeError(f"the centred bench tower fell at {piece}")
        tower, target = list(outcome.tower()), piece
    return tower


def timed_placements(
    model: TowerModel, heights: Iterable[int]
) -> Iterator[tuple[int, list[PieceRest], Placement]]:
    """For each height of ``heights``: the height, the centred tower of the pieces below it
    and the centred placement of the piece that makes that height, the one to be timed."""
    catalogue = model.catalogue
    order = [f"{colour}-{shape}" for colour in catalogue.colours for shape in catalogue.shapes]
    for height in heights:
        tower = centred_tower(model, order[: height - 1])
        piece = order[height - 1]
        face = FACES[catalogue.piece(piece).shape]
        yield height, tower, Placement(piece, face, 0.0, (0.0, 0.0), tower[-1].piece)
