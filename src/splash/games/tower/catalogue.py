"""The piece catalogue of Splash! (TD01): shapes, colours, sizes, density, friction.

The catalogue is data (``splash/games/tower/data/pieces.toml``), validated on load; a bad file
raises :class:`~splash.core.errors.DataFileError` naming the file, the entry (a shape or colour
id, or ``-`` for a top-level key) and the field.  :func:`load_catalogue` also derives the
geometry of every resting face (:class:`RestingPose`): the resting frame, the height, the
footprint and the top surfaces, all in metres.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

import numpy as np
from numpy.typing import ArrayLike
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from splash.core.datafiles import read_toml
from splash.core.errors import ConfigError, DataFileError
from splash.core.i18n import message
from splash.games.tower.geometry import Array, RestingPose, Transform, as_array, resting_poses

CATALOGUE_FORMAT = "splash/tower-pieces/1"
DEFAULT_FILE = "pieces.toml"
_ID = re.compile(r"^[a-z][a-z0-9_]*$")
CYLINDER_SEGMENTS = 32
"""Points on each rim of a cylinder in its point set (footprints, top surfaces, drawings)."""

Vec3 = Annotated[list[float], Field(min_length=3, max_length=3)]
Positive = Annotated[float, Field(gt=0.0)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class BoxPart(_Strict):
    """A box of full side lengths ``size``, centred on ``centre``."""

    kind: Literal["box"]
    size: Annotated[list[Positive], Field(min_length=3, max_length=3)]
    centre: Vec3 = [0.0, 0.0, 0.0]

    def points(self) -> Array:
        """The eight corners (body frame)."""
        half = as_array(self.size) / 2
        signs = np.array([(x, y, z) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)])
        return signs * half + as_array(self.centre)

    def volume(self) -> float:
        """The volume in cubic metres."""
        return float(np.prod(self.size))


class PrismPart(_Strict):
    """An equilateral triangle of ``side`` in the x-z plane, extruded ``depth`` along y."""

    kind: Literal["prism"]
    side: Positive
    depth: Positive
    centre: Vec3 = [0.0, 0.0, 0.0]

    def points(self) -> Array:
        """The six corners (body frame): the bottom edge first, then the apex."""
        s, h = self.side, self.side * np.sqrt(3) / 2
        triangle = [(-s / 2, -h / 3), (s / 2, -h / 3), (0.0, 2 * h / 3)]
        corners = [(x, y, z) for y in (-self.depth / 2, self.depth / 2) for x, z in triangle]
        return np.array(corners) + as_array(self.centre)

    def volume(self) -> float:
        """The volume in cubic metres."""
        return float(np.sqrt(3) / 4 * self.side**2 * self.depth)


class CylinderPart(_Strict):
    """A cylinder of ``radius`` and ``length`` along z, centred on ``centre``."""

    kind: Literal["cylinder"]
    radius: Positive
    length: Positive
    centre: Vec3 = [0.0, 0.0, 0.0]

    def points(self) -> Array:
        """Points on the two rims (body frame), starting on the +x side."""
        angles = np.arange(CYLINDER_SEGMENTS) * (2 * np.pi / CYLINDER_SEGMENTS)
        ring = np.stack([np.cos(angles), np.sin(angles)], axis=1) * self.radius
        rims = [np.column_stack([ring, np.full(len(ring), z)]) for z in (-1, 1)]
        return np.concatenate(rims) * [1, 1, self.length / 2] + as_array(self.centre)

    def volume(self) -> float:
        """The volume in cubic metres."""
        return float(np.pi * self.radius**2 * self.length)


Part = Annotated[BoxPart | PrismPart | CylinderPart, Field(discriminator="kind")]


class FaceSpec(_Strict):
    """One stable resting face: the body directions that point down and forward on it."""

    description: str = ""
    down: Annotated[list[Vec3], Field(min_length=1)]
    forward: Annotated[list[Vec3], Field(min_length=1)]
    axis: Vec3 | None = None

    @model_validator(mode="after")
    def _directions(self) -> FaceSpec:
        if len(self.down) != len(self.forward):
            raise ValueError("down and forward must list as many directions")
        for down, forward in zip(self.down, self.forward, strict=True):
            d, f = as_array(down), as_array(forward)
            if abs(np.linalg.norm(d) - 1) > 1e-6 or abs(np.linalg.norm(f) - 1) > 1e-6:
                raise ValueError("down and forward directions must be unit vectors")
            if abs(float(d @ f)) > 1e-6:
                raise ValueError("each forward direction must be perpendicular to its down")
            if self.axis is not None and abs(float(d @ as_array(self.axis))) > 1e-6:
                raise ValueError("a face with an axis must point down across it")
        if self.axis is not None and abs(np.linalg.norm(as_array(self.axis)) - 1) > 1e-6:
            raise ValueError("the axis must be a unit vector")
        return self


class ShapeSpec(_Strict):
    """One shape: its convex parts and its resting faces."""

    description: str = ""
    parts: Annotated[list[Part], Field(min_length=1)]
    faces: Annotated[dict[str, FaceSpec], Field(min_length=1)]
    density: Positive | None = None
    friction: Positive | None = None


class CatalogueSpec(_Strict):
    """The whole file."""

    format: Literal["splash/tower-pieces/1"]
    density: Positive
    friction: Positive
    colours: Annotated[
        dict[str, Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$")]], Field(min_length=1)
    ]
    shapes: Annotated[dict[str, ShapeSpec], Field(min_length=1)]


class UnknownEntryError(ConfigError):
    """A shape, face, colour or piece id that the catalogue does not have."""

    def __init__(self, kind: str, name: object, known: tuple[str, ...]) -> None:
        self.kind = kind
        self.name = name
        self.known = known
        super().__init__(
            message(
                "unknown {kind} {name!r} (known: {known})",
                kind=kind,
                name=name,
                known=", ".join(known),
            )
        )


@dataclass(frozen=True, eq=False)
class Shape:
    """A shape with its derived geometry (body frame; metres, kilograms)."""

    name: str
    description: str
    parts: tuple[BoxPart | PrismPart | CylinderPart, ...]
    density: float
    friction: float
    volume: float
    centre_of_mass: Array
    faces: Mapping[str, RestingPose]

    @property
    def mass(self) -> float:
        """The mass in kilograms."""
        return self.density * self.volume

    def resting(self, face: str) -> RestingPose:
        """The geometry of the shape resting on ``face``."""
        if face not in self.faces:
            raise UnknownEntryError(f"face of {self.name}", face, tuple(self.faces))
        return self.faces[face]

    def points(self) -> Array:
        """Points of the surface of every part (box corners, prism corners, cylinder rims)."""
        return np.concatenate([part.points() for part in self.parts])

    def identify_face(self, quaternion: ArrayLike) -> str:
        """The face a body with orientation ``quaternion`` (``w, x, y, z``) rests on:
        the one whose down direction is closest to the world's down."""
        best = min(self.faces.values(), key=lambda pose: pose.tilt(quaternion)[0])
        return best.face

    def resting_frame(self, face: str, position: ArrayLike, quaternion: ArrayLike) -> Transform:
        """The world frame of the resting pose of a body at ``position``/``quaternion``
        resting on ``face``: origin on the base plane under the centre of mass, z up the
        piece, x along the face's forward direction (it tilts with the piece)."""
        body = Transform.from_pose(position, quaternion)
        return body.compose(self.resting(face).variant_for(quaternion).inverse())

    def body_in(self, face: str, frame: Transform) -> Transform:
        """The world transform of the body when its resting frame on ``face`` is ``frame``."""
        return frame.compose(self.resting(face).transform)


@dataclass(frozen=True)
class Piece:
    """One piece: ``id`` is ``colour-shape``."""

    id: str
    colour: str
    shape: str


@dataclass(frozen=True, eq=False)
class Catalogue:
    """Every shape, colour and piece of one catalogue file."""

    source: str
    colours: Mapping[str, str]
    shapes: Mapping[str, Shape]
    pieces: tuple[Piece, ...]

    @cached_property
    def piece_ids(self) -> tuple[str, ...]:
        """Every piece id, in catalogue order (shapes, then colours)."""
        return tuple(piece.id for piece in self.pieces)

    @cached_property
    def _by_id(self) -> Mapping[str, Piece]:
        return {piece.id: piece for piece in self.pieces}

    def piece(self, piece_id: str) -> Piece:
        """The piece ``piece_id``."""
        found = self._by_id.get(piece_id)
        if found is None:
            raise UnknownEntryError("piece", piece_id, self.piece_ids)
        return found

    def shape_of(self, piece_id: str) -> Shape:
        """The shape of the piece ``piece_id``."""
        return self.shapes[self.piece(piece_id).shape]

    def rgb(self, piece_id: str) -> tuple[float, float, float]:
        """The colour of ``piece_id`` as red, green, blue in [0, 1]."""
        code = self.colours[self.piece(piece_id).colour]
        return (int(code[1:3], 16) / 255, int(code[3:5], 16) / 255, int(code[5:7], 16) / 255)


def _validation_error(name: str, error: ValidationError) -> DataFileError:
    first = error.errors()[0]
    loc = [str(part) for part in first["loc"]]
    entry: str | None
    field: str | None
    if loc[:1] in (["shapes"], ["colours"]) and len(loc) > 1:
        entry, field = loc[1], ".".join(loc[2:]) or loc[0]
    else:
        entry, field = None, ".".join(loc) or None
    return DataFileError(name, entry, field, message("{problem}", problem=first["msg"]))


def _shape(name: str, spec: ShapeSpec, catalogue: CatalogueSpec, file: str) -> Shape:
    volumes = np.array([part.volume() for part in spec.parts])
    centres = np.array([part.centre for part in spec.parts], dtype=np.float64)
    com = (volumes[:, None] * centres).sum(axis=0) / volumes.sum()
    points = [part.points() for part in spec.parts]
    faces: dict[str, RestingPose] = {}
    for face, face_spec in spec.faces.items():
        if not _ID.match(face):
            raise DataFileError(file, name, f"faces.{face}", message("a face id is lower-case"))
        pose, problem = resting_poses(
            face,
            part_points=points,
            centre_of_mass=com,
            downs=face_spec.down,
            forwards=face_spec.forward,
            axis=face_spec.axis,
        )
        if problem is not None:
            key, text = problem
            raise DataFileError(file, name, ".".join(filter(None, ("faces", face, key))), text)
        faces[face] = pose
    return Shape(
        name=name,
        description=spec.description,
        parts=tuple(spec.parts),
        density=spec.density or catalogue.density,
        friction=spec.friction or catalogue.friction,
        volume=float(volumes.sum()),
        centre_of_mass=com,
        faces=faces,
    )


def read_catalogue(path: Path | None = None) -> tuple[dict[str, Any], str]:
    """The unvalidated tree of a catalogue file (default: the shipped one) and its name."""
    source: Path | resources.abc.Traversable
    if path is None:
        source = resources.files("splash.games.tower") / "data" / DEFAULT_FILE
        name = DEFAULT_FILE
    else:
        source, name = path, str(path)
    return read_toml(source, name), name


def load_catalogue(path: Path | None = None) -> Catalogue:
    """The catalogue in ``path`` (default: the file shipped with the package), validated."""
    raw, name = read_catalogue(path)
    return catalogue_from_tree(raw, name)


def catalogue_from_tree(raw: Mapping[str, Any], name: str = DEFAULT_FILE) -> Catalogue:
    """The catalogue a tree such as :func:`read_catalogue` returns describes, validated;
    errors name ``name``, the entry and the field."""
    try:
        spec = CatalogueSpec.model_validate(raw)
    except ValidationError as error:
        raise _validation_error(name, error) from None
    for table in ("colours", "shapes"):
        for entry in getattr(spec, table):
            if not _ID.match(entry):
                raise DataFileError(
                    name, entry, table, message("an id is lower-case letters, digits and _")
                )
    shapes = {shape: _shape(shape, s, spec, name) for shape, s in spec.shapes.items()}
    pieces = tuple(
        Piece(f"{colour}-{shape}", colour, shape) for shape in shapes for colour in spec.colours
    )
    return Catalogue(source=name, colours=dict(spec.colours), shapes=shapes, pieces=pieces)
