"""The side view of a tower (PNG, matplotlib's Agg canvas)."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
from matplotlib.image import imread

from splash.physics.render import save_side_view, side_view_png
from tests.physics.builders import Step, build, shared_model


def test_side_view_draws_each_piece_in_its_colour(tmp_path: Path) -> None:
    model = shared_model()
    tower, _ = build(
        model,
        [Step("red-cube", "bottom"), Step("blue-arch", "feet", 15.0), Step("green-beam", "end")],
    )
    png = side_view_png(model.catalogue, tower, title="three pieces")
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    image = imread(io.BytesIO(png))[:, :, :3]
    assert image.shape[0] > image.shape[1]
    for piece in ("red-cube", "blue-arch", "green-beam"):
        colour = np.array(model.catalogue.rgb(piece))
        close = np.abs(image - colour).max(axis=2) < 0.02
        assert close.sum() > 200, piece
    path = tmp_path / "tower.png"
    save_side_view(path, model.catalogue, tower, azimuth_deg=90.0)
    assert path.read_bytes().startswith(b"\x89PNG")
