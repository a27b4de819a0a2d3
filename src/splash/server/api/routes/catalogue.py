"""The Splash! piece catalogue as JSON, for pages that draw pieces.

``GET /api/catalogue/tower`` — the shipped catalogue; ``GET /api/rooms/{room}/catalogue`` —
the catalogue of a Splash! room (its ``catalogue.*`` settings applied; 404 for another game
or no room).

Each shape carries its convex parts (as in the catalogue file, metres, body frame) and,
for each resting face, the geometry the rules derive from them: the body-to-resting-frame
transform of every side of the face (``variants``, the first canonical; ``rotation`` is
row-major), the body's down direction on each side, the rolling ``axis`` (or ``null``),
the ``height`` of the top, and the ``footprint`` and ``top_surfaces`` polygons in the
resting frame's x-y plane.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from fastapi import APIRouter

from splash.core.i18n import message
from splash.games.tower import TowerGame
from splash.games.tower.catalogue import (
    CATALOGUE_FORMAT,
    Catalogue,
    CatalogueSpec,
    Shape,
    load_catalogue,
    read_catalogue,
)
from splash.games.tower.geometry import Array, RestingPose
from splash.server.api.deps import HubDep, LocaleDep, http_error, room_or_404

router = APIRouter(tags=["catalogue"])


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


@cache
def shipped_catalogue() -> dict[str, Any]:
    """The JSON form of the shipped Splash! catalogue."""
    return catalogue_document(load_catalogue(), read_catalogue()[0])


@router.get("/api/catalogue/tower")
async def read_tower_catalogue() -> dict[str, Any]:
    """The Splash! pieces: colours, shapes as convex parts, resting faces' geometry."""
    return shipped_catalogue()


@router.get("/api/rooms/{room_id}/catalogue")
async def read_room_catalogue(room_id: str, hub: HubDep, lang: LocaleDep) -> dict[str, Any]:
    """The pieces of a Splash! room, as ``/api/catalogue/tower`` gives them."""
    room = await room_or_404(hub, room_id, lang)
    if not isinstance(room.game, TowerGame):
        raise http_error(
            404, "no_catalogue", message("room {room} is not a Splash! room", room=room_id), lang
        )
    return catalogue_document(room.game.catalogue, room.game.catalogue_tree)
