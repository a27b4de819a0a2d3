"""Where pieces tip over, against the static centre-of-mass prediction."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from splash.physics.model import TowerModel
from splash.physics.placement import Placement
from splash.physics.ruling import rule
from tests.physics.builders import (
    Step,
    build,
    catalogue_with_colours,
    plan,
    shared_model,
    static_margins,
)

TOLERANCE_MM = 0.5


def _threshold(stands: Callable[[float], bool], low: float, high: float, steps: int) -> float:
    """The offset where ``stands`` turns false, by bisection (``stands(low)`` is true)."""
    assert stands(low) and not stands(high)
    for _ in range(steps):
        middle = (low + high) / 2
        if stands(middle):
            low = middle
        else:
            high = middle
    return (low + high) / 2


@pytest.mark.slow
def test_beam_on_cube_tips_where_statics_says() -> None:
    model = shared_model()
    catalogue = model.catalogue
    base, _ = build(model, [Step("red-cube", "bottom")])

    def beam_at(offset: float) -> list[Step]:
        return [Step("red-cube", "bottom"), Step("red-beam", "flat", 0.0, (offset, 0.0))]

    def on_paper(offset: float) -> bool:
        return bool(static_margins(catalogue, plan(catalogue, beam_at(offset))).min() > 0)

    def simulated(offset: float) -> bool:
        placement = Placement("red-beam", "flat", 0.0, (offset, 0.0), "red-cube")
        return rule(model, base, placement).result == "stood"

    predicted = _threshold(on_paper, 0.0, 0.025, 40)
    assert predicted == pytest.approx(0.0125, abs=1e-9)
    measured = _threshold(simulated, 0.010, 0.015, 12)
    assert abs(measured - predicted) * 1000 <= TOLERANCE_MM, measured


@pytest.mark.slow
def test_leaning_stack_of_eight_cubes_tips_where_statics_says(tmp_path: Path) -> None:
    catalogue = catalogue_with_colours(tmp_path, {"pink": "#ff66cc", "brown": "#8b5a2b"})
    model = TowerModel(catalogue)
    cubes = [piece for piece in catalogue.piece_ids if piece.endswith("-cube")]
    assert len(cubes) == 8

    def leaning(step: float) -> list[Step]:
        return [
            Step(cube, "bottom", 0.0, (step if i else 0.0, 0.0)) for i, cube in enumerate(cubes)
        ]

    def on_paper(step: float) -> bool:
        return bool(static_margins(catalogue, plan(catalogue, leaning(step))).min() > 0)

    def simulated(step: float) -> bool:
        tower, _ = build(model, leaning(step))
        return len(tower) == 8

    predicted = _threshold(on_paper, 0.0, 0.006, 40)
    assert predicted == pytest.approx(0.025 / 8, abs=1e-9)
    measured = _threshold(simulated, 0.0025, 0.0035, 10)
    assert abs(measured - predicted) * 1000 <= TOLERANCE_MM, measured
