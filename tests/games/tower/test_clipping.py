"""The clipping of convex polygons (the support regions of the statics, TD07) gives exactly,
to the last bit, what the array version it replaced gave: the same arithmetic in the same
order, on random convex polygons, segments and degenerate ones."""

from __future__ import annotations

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from splash.games.tower.geometry import convex_hull_2d, convex_intersection

Array = NDArray[np.float64]


def array_clipping(subject: Array, clip: Array) -> Array:
    """The array version of :func:`convex_intersection`, kept as the oracle."""
    output = subject.reshape(-1, 2)
    c = clip.reshape(-1, 2)
    if len(c) < 3:
        return np.zeros((0, 2))
    if len(c) > len(output) >= 3:
        output, c = c, output
    for a, b in zip(c, np.roll(c, -1, axis=0), strict=True):
        if len(output) == 0:
            return np.zeros((0, 2))
        edge = b - a
        previous = np.roll(output, 1, axis=0)
        s_cur = edge[0] * (output[:, 1] - a[1]) - edge[1] * (output[:, 0] - a[0])
        s_prev = np.roll(s_cur, 1)
        crossing = (s_cur >= 0) != (s_prev >= 0)
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where(crossing, s_prev / (s_prev - s_cur), 0.0)
        meet = previous + (output - previous) * t[:, None]
        candidates = np.stack([meet, output], axis=1).reshape(-1, 2)
        keep = np.stack([crossing, s_cur >= 0], axis=1).reshape(-1)
        output = candidates[keep]
    if len(output) == 0:
        return np.zeros((0, 2))
    return convex_hull_2d(output)


coordinate = st.floats(-0.05, 0.05, allow_nan=False, allow_subnormal=False)
points = st.lists(st.tuples(coordinate, coordinate), min_size=1, max_size=9)


@settings(max_examples=400, deadline=None)
@given(points, points)
@example([(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)], [(0.5, 0.5), (1.5, 0.5), (1.5, 1.5)])
@example([(0.0, 0.0), (0.02, 0.0)], [(0.0, -0.01), (0.01, -0.01), (0.01, 0.01), (0.0, 0.01)])
def test_clipping_gives_the_array_versions_bits(
    first: list[tuple[float, float]], second: list[tuple[float, float]]
) -> None:
    subject, clip = convex_hull_2d(np.array(first)), convex_hull_2d(np.array(second))
    expected = array_clipping(subject, clip)
    found = convex_intersection(subject, clip)
    assert found.shape == expected.shape
    assert np.array_equal(found, expected)
