"""Places at the end of a game, from each seat's standing."""

from __future__ import annotations

from collections.abc import Sequence


def places(standings: Sequence[tuple[float, ...]]) -> list[int]:
    """The place of each seat (1 for the first), the greatest standing first; equal
    standings share a place and the next one is skipped (1, 2, 2, 4)."""
    return [1 + sum(other > mine for other in standings) for mine in standings]
