"""What the Splash! page draws with: the piece catalogue as JSON.

Each shape carries its convex parts (as in the catalogue file, metres, body frame) and,
for each resting face, the geometry the rules derive from them: the body-to-resting-frame
transform of every side of the face (``variants``, the first canonical; ``rotation`` is
row-major), the body's down direction on each side, the rolling ``axis`` (or ``null``),
the ``height`` of the top, and the ``footprint`` and ``top_surfaces`` polygons in the
resting frame's x-y plane.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from splash.core.actions import Json
from splash.core.protocol import Game
from splash.games.tower.catalogue import CATALOGUE_FORMAT, Catalogue, CatalogueSpec, Shape
from splash.games.tower.game import TowerGame
from splash.games.tower.geometry import Array, RestingPose

CATALOGUE = "catalogue"
"""The name of the one asset: the pieces."""


def _polygons(polygons: tuple[Array, ...]) -> list[list[list[float]]]:
    return [[[float(x), float(y)] for x, y in polygon[:, :2]] for polygon in polygons]


def _face(pose: RestingPose, description: str) -> dict[str, Any]:
    return {
        "description": description,
        "variants": [
            {
                "rotation": [[float(v) for v in row] for row in variant.rotation],
                "translation": [float(v) for v in variant.translation],
            }
            for variant in pose.variants
        ],
        "downs": [[float(v) for v in down] for down in pose.downs],
        "axis": None if pose.axis is None else [float(v) for v in pose.axis],
        "height": pose.height,
        "footprint": _polygons(pose.footprint),
        "top_surfaces": _polygons(pose.top_surfaces),
    }


def _shape(shape: Shape, face_descriptions: Mapping[str, str]) -> dict[str, Any]:
    return {
        "description": shape.description,
        "parts": [part.model_dump() for part in shape.parts],
        "centre_of_mass": [float(v) for v in shape.centre_of_mass],
        "faces": {
            name: _face(pose, face_descriptions.get(name, "")) for name, pose in shape.faces.items()
        },
    }


def catalogue_document(catalogue: Catalogue, tree: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON form of ``catalogue`` (validated from ``tree``, which gives the faces'
    descriptions)."""
    spec = CatalogueSpec.model_validate(tree)
    return {
        "format": CATALOGUE_FORMAT,
        "colours": dict(catalogue.colours),
        "pieces": [{"id": p.id, "colour": p.colour, "shape": p.shape} for p in catalogue.pieces],
        "shapes": {
            name: _shape(
                shape, {face: f.description for face, f in spec.shapes[name].faces.items()}
            )
            for name, shape in catalogue.shapes.items()
        },
    }


def assets(game: Game, locale: str) -> dict[str, Json]:
    """The assets of a Splash! page: ``{"catalogue": ...}`` (the game's pieces, its
    ``catalogue.*`` settings applied: :func:`catalogue_document`); nothing to translate."""
    if not isinstance(game, TowerGame):
        raise TypeError(f"not a Splash! game: {type(game).__name__}")
    return {CATALOGUE: cast(Json, catalogue_document(game.catalogue, game.catalogue_tree))}
