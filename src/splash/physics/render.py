"""A side view of a tower from recorded poses, as a PNG (matplotlib's Agg canvas: no display,
no GPU, no global pyplot state).

Each piece is drawn as its silhouette (the outline of each convex part seen from the side)
in its colour, the farthest first.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Polygon

from splash.games.tower.catalogue import Catalogue
from splash.games.tower.geometry import Array, convex_hull_2d
from splash.physics.poses import PieceRest


def _silhouettes(
    catalogue: Catalogue, rest: PieceRest, across: Array, along: Array
) -> list[tuple[float, Array]]:
    """(depth, outline in view coordinates, millimetres) of each part of one piece."""
    body = rest.pose.transform()
    result = []
    for part in catalogue.shape_of(rest.piece).parts:
        world = body.apply(part.points())
        view = np.stack([world @ across, world[:, 2]], axis=1) * 1000
        result.append((float((world @ along).mean()), convex_hull_2d(view)))
    return result


def side_view_png(
    catalogue: Catalogue,
    pieces: Sequence[PieceRest],
    *,
    azimuth_deg: float = 0.0,
    size_in: tuple[float, float] = (4.0, 6.0),
    dpi: int = 100,
    title: str | None = None,
) -> bytes:
    """The PNG bytes of a side view of ``pieces``: at ``azimuth_deg`` 0 the camera looks
    along +y with x to the right; a positive azimuth turns the camera counter-clockwise."""
    angle = np.radians(azimuth_deg)
    across = np.array([np.cos(angle), np.sin(angle), 0.0])
    along = np.array([-np.sin(angle), np.cos(angle), 0.0])
    figure = Figure(figsize=size_in, dpi=dpi)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    outlines = [
        (depth, outline, catalogue.rgb(rest.piece))
        for rest in pieces
        for depth, outline in _silhouettes(catalogue, rest, across, along)
    ]
    outlines.sort(key=lambda item: -item[0])
    for _, outline, colour in outlines:
        edge = tuple(0.5 * c for c in colour)
        axes.add_patch(Polygon(outline, closed=True, facecolor=colour, edgecolor=edge, lw=0.8))
    points = np.concatenate([o for _, o, _ in outlines]) if outlines else np.zeros((1, 2))
    left, right = float(points[:, 0].min()), float(points[:, 0].max())
    top = max(float(points[:, 1].max()), 10.0)
    pad = 0.1 * max(right - left, top, 50.0)
    axes.set_xlim(left - pad, right + pad)
    axes.set_ylim(-pad / 2, top + pad)
    axes.axhspan(-pad, 0.0, color="#a0764a", zorder=0)
    axes.set_aspect("equal")
    axes.set_xlabel("mm")
    axes.set_ylabel("height (mm)")
    if title:
        axes.set_title(title)
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()


def save_side_view(
    path: Path,
    catalogue: Catalogue,
    pieces: Sequence[PieceRest],
    *,
    azimuth_deg: float = 0.0,
    title: str | None = None,
) -> None:
    """Write :func:`side_view_png` to ``path``."""
    path.write_bytes(side_view_png(catalogue, pieces, azimuth_deg=azimuth_deg, title=title))
