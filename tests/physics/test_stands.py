"""Towers of all 30 pieces, built piece by piece, stand still for 5 simulated seconds."""

from __future__ import annotations

import numpy as np
import pytest

from splash.games.tower.catalogue import Catalogue
from splash.physics.model import TowerModel
from splash.physics.ruling import hold
from tests.physics.builders import (
    STACKABLE,
    Step,
    build,
    drift,
    plan,
    random_column,
    shared_model,
    static_margins,
)

HOLD_S = 5.0
MAX_DRIFT_MM = 1.0
MAX_TURN_DEG = 1.0


def _by_colour(catalogue: Catalogue) -> list[Step]:
    faces = {"cube": "bottom", "beam": "flat", "prism": "triangle", "arch": "feet"}
    return [
        Step(f"{colour}-{shape}", faces.get(shape, "round"))
        for colour in catalogue.colours
        for shape in catalogue.shapes
    ]


def _by_shape(catalogue: Catalogue) -> list[Step]:
    faces = [("beam", "end"), ("cube", "bottom"), ("arch", "top"), ("prism", "triangle")]
    faces.append(("cylinder", "round"))
    return [
        Step(f"{colour}-{shape}", face, 15.0 * i)
        for shape, face in faces
        for i, colour in enumerate(catalogue.colours)
    ]


def _turned(catalogue: Catalogue) -> list[Step]:
    faces = {
        "cube": "bottom",
        "beam": "end",
        "prism": "triangle",
        "arch": "side",
        "cylinder": "round",
    }
    shapes = ["arch", "beam", "cube", "cylinder", "prism"]
    return [
        Step(f"{colour}-{shape}", faces[shape], 90.0 * ((i + j) % 2) + 7.5 * j)
        for i, colour in enumerate(catalogue.colours)
        for j, shape in enumerate(shapes)
    ]


def _random_faces(catalogue: Catalogue) -> list[Step]:
    for seed in range(100):
        rng = np.random.default_rng(seed)
        steps = random_column(catalogue, rng, pieces=30, offset_mm=0.0, twist_deg=45.0)
        if static_margins(catalogue, plan(catalogue, steps)).min() >= 0.003:
            return steps
    raise AssertionError("no centred random column is statically stable")


MIXES = {"by_colour": _by_colour, "by_shape": _by_shape, "turned": _turned, "random": _random_faces}


def _stands(model: TowerModel, steps: list[Step]) -> tuple[bool, str]:
    tower, outcomes = build(model, steps)
    if len(tower) != len(steps) or outcomes[-1].result != "stood":
        return False, f"fell while building, at {outcomes[-1].placement}"
    distance, turn = drift(tower, hold(model, tower, HOLD_S))
    return distance <= MAX_DRIFT_MM and turn <= MAX_TURN_DEG, f"{distance:.4f} mm {turn:.4f} deg"


@pytest.mark.slow
@pytest.mark.rule("TD07", "TD12")
@pytest.mark.parametrize("mix", sorted(MIXES))
def test_centred_tower_of_thirty_stands_five_seconds(mix: str) -> None:
    model = shared_model()
    steps = MIXES[mix](model.catalogue)
    assert len({s.piece for s in steps}) == 30
    ok, detail = _stands(model, steps)
    assert ok, detail


@pytest.mark.slow
@pytest.mark.rule("TD07", "TD12")
def test_random_statically_stable_towers_stand_in_49_of_50_seeds() -> None:
    model = shared_model()
    catalogue = model.catalogue
    columns: list[list[Step]] = []
    seed = 0
    while len(columns) < 50:
        rng = np.random.default_rng([2026, seed])
        seed += 1
        steps = random_column(catalogue, rng, pieces=30, offset_mm=1.5, twist_deg=20.0)
        assert {s.face for s in steps} <= {f for faces in STACKABLE.values() for f in faces}
        if static_margins(catalogue, plan(catalogue, steps)).min() >= 0.003:
            columns.append(steps)
    results = [_stands(model, steps) for steps in columns]
    failures = [detail for ok, detail in results if not ok]
    assert len(failures) <= 1, failures
