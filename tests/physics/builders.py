"""Towers for the physics tests: built piece by piece with rulings, or planned on paper."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np

from splash.games.tower.catalogue import Catalogue, load_catalogue
from splash.games.tower.geometry import (
    Array,
    convex_hull_2d,
    convex_intersection,
    inside_distance,
    rotation_angle,
)
from splash.physics.model import TowerModel
from splash.physics.outcome import RulingOutcome
from splash.physics.placement import Placement, Tremor, placed_pose
from splash.physics.poses import TABLE, PieceRest
from splash.physics.ruling import RulingSettings, rule

STACKABLE: dict[str, tuple[str, ...]] = {
    "cube": ("bottom",),
    "beam": ("flat", "end"),
    "prism": ("triangle",),
    "arch": ("feet", "side", "top"),
    "cylinder": ("round",),
}
"""The faces with a flat top that another piece can rest on."""


@cache
def shared_model() -> TowerModel:
    """One model of the shipped catalogue per test process."""
    return TowerModel(load_catalogue())


def catalogue_with_colours(tmp: Path, extra: dict[str, str]) -> Catalogue:
    """The shipped catalogue with more colours (hence more pieces of every shape)."""
    text = (resources.files("splash.games.tower") / "data" / "pieces.toml").read_text()
    lines = "".join(f'{name} = "{code}"\n' for name, code in extra.items())
    path = tmp / "pieces.toml"
    path.write_text(text.replace('purple = "#7b2cbf"\n', 'purple = "#7b2cbf"\n' + lines))
    return load_catalogue(path)


@dataclass(frozen=True)
class Step:
    """One placement of a column: on the piece placed just before (the table first)."""

    piece: str
    face: str
    rotation_deg: float = 0.0
    offset: tuple[float, float] = (0.0, 0.0)


def placements(steps: Sequence[Step]) -> list[Placement]:
    """The placements of a column: each step on the previous piece."""
    targets = [TABLE] + [step.piece for step in steps[:-1]]
    return [
        Placement(s.piece, s.face, s.rotation_deg, s.offset, target)
        for s, target in zip(steps, targets, strict=True)
    ]


def build(
    model: TowerModel,
    steps: Sequence[Step],
    tremors: Sequence[Tremor] | None = None,
    settings: RulingSettings | None = None,
) -> tuple[list[PieceRest], list[RulingOutcome]]:
    """Build a column piece by piece; stops after the first placement that does not stand."""
    tower: list[PieceRest] = []
    outcomes: list[RulingOutcome] = []
    for i, placement in enumerate(placements(steps)):
        tremor = tremors[i] if tremors is not None else None
        outcome = rule(model, tower, placement, tremor, settings)
        outcomes.append(outcome)
        if outcome.result != "stood":
            break
        tower = list(outcome.tower())
    return tower, outcomes


def plan(catalogue: Catalogue, steps: Sequence[Step]) -> list[PieceRest]:
    """The poses a column would have if every piece stayed exactly where it was put."""
    rests: dict[str, PieceRest] = {}
    for placement in placements(steps):
        pose = placed_pose(catalogue, rests, placement)
        support = None if placement.target == TABLE else placement.target
        rests[placement.piece] = PieceRest(placement.piece, placement.face, support, pose)
    return list(rests.values())


def _world_polygons(
    catalogue: Catalogue, rest: PieceRest, polygons: Sequence[Array], height: float
) -> list[Array]:
    shape = catalogue.shape_of(rest.piece)
    frame = shape.resting_frame(rest.face, rest.pose.position, rest.pose.quaternion)
    return [frame.apply(np.column_stack([p, np.full(len(p), height)]))[:, :2] for p in polygons]


def static_margins(catalogue: Catalogue, tower: Sequence[PieceRest]) -> Array:
    """For each piece, how far (metres) the centre of mass of it and its load lies inside
    the polygon where it rests on its support (the table for the base), on paper."""
    index = {rest.piece: i for i, rest in enumerate(tower)}
    masses = np.array([catalogue.shape_of(r.piece).mass for r in tower])
    com = np.array(
        [r.pose.transform().apply(catalogue.shape_of(r.piece).centre_of_mass) for r in tower]
    )
    load_mass, load_moment = masses.copy(), com * masses[:, None]
    for i in range(len(tower) - 1, -1, -1):
        support = tower[i].support
        if support is not None:
            load_mass[index[support]] += load_mass[i]
            load_moment[index[support]] += load_moment[i]
    centres = load_moment / load_mass[:, None]
    margins = np.zeros(len(tower))
    for i, rest in enumerate(tower):
        pose = catalogue.shape_of(rest.piece).resting(rest.face)
        feet = _world_polygons(catalogue, rest, pose.footprint, 0.0)
        if rest.support is None:
            region = convex_hull_2d(np.concatenate(feet))
        else:
            below = tower[index[rest.support]]
            below_pose = catalogue.shape_of(below.piece).resting(below.face)
            tops = _world_polygons(catalogue, below, below_pose.top_surfaces, below_pose.height)
            parts = [convex_intersection(f, t) for f in feet for t in tops]
            parts = [p for p in parts if len(p)]
            if not parts:
                margins[i] = -np.inf
                continue
            region = convex_hull_2d(np.concatenate(parts))
        margins[i] = inside_distance(centres[i, :2], region)
    return margins


def drift(before: Sequence[PieceRest], after: Sequence[PieceRest]) -> tuple[float, float]:
    """The largest displacement (mm) and rotation (degrees) of any piece between two
    recordings of the same tower."""
    distance, angle = 0.0, 0.0
    for a, b in zip(before, after, strict=True):
        ta, tb = a.pose.transform(), b.pose.transform()
        distance = max(distance, float(np.linalg.norm(ta.translation - tb.translation)))
        angle = max(angle, rotation_angle(ta.rotation.T @ tb.rotation))
    return distance * 1000, float(np.degrees(angle))


def random_column(
    catalogue: Catalogue,
    rng: np.random.Generator,
    *,
    pieces: int,
    offset_mm: float,
    twist_deg: float,
) -> list[Step]:
    """A column of ``pieces`` random pieces on random flat-topped faces, each turned and
    shifted at random within the given bounds relative to the piece below."""
    ids = [catalogue.piece_ids[i] for i in rng.permutation(len(catalogue.piece_ids))]
    steps = []
    for i, piece in enumerate(ids[:pieces]):
        faces = STACKABLE[catalogue.piece(piece).shape]
        face = faces[int(rng.integers(len(faces)))]
        turn = float(rng.uniform(-twist_deg, twist_deg))
        shift = rng.uniform(-offset_mm, offset_mm, 2) / 1000 if i else np.zeros(2)
        steps.append(Step(piece, face, turn, (float(shift[0]), float(shift[1]))))
    return steps
