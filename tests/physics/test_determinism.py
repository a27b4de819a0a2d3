"""TD15: the same tower, placements and seed give bit-identical outcomes, in any process."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

SCRIPT = """
import json, sys
import numpy as np
from splash.games.tower.catalogue import load_catalogue
from splash.physics.model import TowerModel
from splash.physics.placement import Placement, Steadiness
from splash.physics.ruling import rule

seed = int(sys.argv[1])
model = TowerModel(load_catalogue())
rng = np.random.default_rng(seed)
hand = Steadiness(position_mm=0.5, angle_deg=4.0, height_mm=2.0)
pieces = [model.catalogue.piece_ids[i] for i in rng.permutation(30)[:12]]
faces = {"cube": "bottom", "beam": "flat", "prism": "triangle", "arch": "feet", "cylinder": "round"}
tower, target, outcomes = [], "table", []
for piece in pieces:
    face = faces[model.catalogue.piece(piece).shape]
    offset = tuple(float(v) for v in rng.uniform(-0.002, 0.002, 2))
    placement = Placement(piece, face, float(rng.uniform(-30, 30)), offset, target)
    outcome = rule(model, tower, placement, hand.sample(rng))
    outcomes.append(outcome.to_json())
    tower = list(outcome.tower())
    target = tower[-1].piece if tower else "table"
print(json.dumps(outcomes))
"""


def _run(seed: int) -> str:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(seed)],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    return done.stdout


@pytest.mark.rule("TD15")
def test_TD15_same_seed_same_outcome_in_two_processes() -> None:
    first, second = _run(11), _run(11)
    assert first == second
    outcomes = json.loads(first)
    assert len(outcomes) == 12
    assert all(o["format"] == "splash/tower-ruling/1" for o in outcomes)
    assert _run(12) != first
