"""The quick ruling agrees with a fixed 3-second simulation, near the tipping point too."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from splash.physics.errors import PlacementError
from splash.physics.model import TowerModel
from splash.physics.placement import Placement, Steadiness, placed_pose
from splash.physics.poses import PieceRest
from splash.physics.ruling import RulingSettings, rule
from tests.physics.builders import build, plan, random_column, shared_model, static_margins

HAND = Steadiness(position_mm=0.3, angle_deg=2.0, height_mm=1.0)
LONG = RulingSettings(mode="long")
GROUPS = 50
PER_GROUP = 10
NEAR_MM = 1.0


def _margin(model: TowerModel, tower: list[PieceRest], placement: Placement) -> float:
    catalogue = model.catalogue
    pose = placed_pose(catalogue, {r.piece: r for r in tower}, placement)
    new = PieceRest(placement.piece, placement.face, placement.target, pose)
    return float(static_margins(catalogue, [*tower, new]).min())


def _tipping_offset(
    model: TowerModel, tower: list[PieceRest], placement: Placement, direction: np.ndarray
) -> float | None:
    """How far along ``direction`` the piece can go before statics says the tower tips."""

    def at(r: float) -> Placement:
        offset = (float(direction[0] * r), float(direction[1] * r))
        return Placement(
            placement.piece, placement.face, placement.rotation_deg, offset, placement.target
        )

    low, high = 0.0, 0.04
    if _margin(model, tower, at(low)) <= 0 or _margin(model, tower, at(high)) > 0:
        return None
    for _ in range(30):
        middle = (low + high) / 2
        if _margin(model, tower, at(middle)) > 0:
            low = middle
        else:
            high = middle
    return low


def _group(model: TowerModel, group: int) -> tuple[Counter[tuple[str, str]], int, list[str]]:
    """Rule ``PER_GROUP`` random placements on one random small tower both ways."""
    catalogue = model.catalogue
    rng = np.random.default_rng([31, group])
    while True:
        size = int(rng.integers(1, 6))
        steps = random_column(catalogue, rng, pieces=size, offset_mm=1.0, twist_deg=20.0)
        if static_margins(catalogue, plan(catalogue, steps)).min() >= 0.001:
            break
    tower, _ = build(model, steps)
    assert len(tower) == size
    free = [p for p in catalogue.piece_ids if p not in {r.piece for r in tower}]
    results: Counter[tuple[str, str]] = Counter()
    near, disagreements = 0, []
    while sum(results.values()) < PER_GROUP:
        piece = free[int(rng.integers(len(free)))]
        faces = list(catalogue.shape_of(piece).faces)
        face = faces[int(rng.integers(len(faces)))]
        turn, angle = float(rng.uniform(-180, 180)), float(rng.uniform(0, 2 * np.pi))
        direction = np.array([np.cos(angle), np.sin(angle)])
        probe = Placement(piece, face, turn, (0.0, 0.0), tower[-1].piece)
        tipping = _tipping_offset(model, tower, probe, direction)
        if tipping is not None and rng.random() < 0.6:
            r = max(0.0, tipping + float(rng.uniform(-NEAR_MM, NEAR_MM)) / 1000)
        else:
            r = float(rng.uniform(0.0, (tipping or 0.012) + 0.005))
        offset = (float(direction[0] * r), float(direction[1] * r))
        placement = Placement(piece, face, turn, offset, tower[-1].piece)
        tremor = HAND.sample(rng)
        try:
            quick = rule(model, tower, placement, tremor)
        except PlacementError:
            continue
        long = rule(model, tower, placement, tremor, LONG)
        results[quick.result, long.result] += 1
        near += tipping is not None and abs(r - tipping) * 1000 < NEAR_MM
        if quick.result != long.result:
            disagreements.append(f"{placement} {tremor}: {quick.result} vs {long.result}")
    return results, near, disagreements


@pytest.mark.slow
@pytest.mark.rule("TD07")
@pytest.mark.parametrize("half", [0, 1])
def test_quick_ruling_agrees_with_three_seconds_on_99_percent(half: int) -> None:
    model = shared_model()
    total: Counter[tuple[str, str]] = Counter()
    near, disagreements = 0, []
    for group in range(half * GROUPS // 2, (half + 1) * GROUPS // 2):
        results, n, d = _group(model, group)
        total += results
        near += n
        disagreements += d
    count = sum(total.values())
    assert count == GROUPS * PER_GROUP // 2
    assert near >= count // 3, near
    assert total["stood", "stood"] >= count // 5 and total["fell", "fell"] >= count // 5, total
    assert len(disagreements) <= count // 100, disagreements
