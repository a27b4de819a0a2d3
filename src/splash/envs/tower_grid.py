"""The Splash! placement grid as the AI interfaces check it: every cell at once by the
physics' T06 check where the physics rules the game (:func:`accepted`), in the encoding of
:func:`tower_encoding`.

The grid itself is the game's (:class:`~splash.games.tower.placement_grid.PlacementGrid`),
named here too for the callers that take it with :func:`accepted`.
"""

from __future__ import annotations

import numpy as np

from splash.games.tower.encoding import TowerEncoding
from splash.games.tower.game import TowerGame
from splash.games.tower.placement_grid import PlacementGrid, Pose, one_by_one
from splash.games.tower.state import TowerState


def accepted(state: TowerState, poses: tuple[Pose | None, ...]) -> np.ndarray:
    """Which of ``poses`` the game accepts now (``None`` never): what ``state.why_illegal``
    says of each, with the physics' T06 check of all of them made at once
    (:func:`~splash.physics.provider.pose_checks`) when the game uses it."""
    if state.tower_game.pose_check is None or state.gift is None:
        return one_by_one(state, poses)
    # Imported here: the physics (MuJoCo) is loaded only for a game that it rules.
    from splash.physics import provider

    if state.tower_game.pose_check is not provider.pose_check:
        return one_by_one(state, poses)
    cells = [index for index, placement in enumerate(poses) if placement is not None]
    actions = [state.game.parse_action(poses[index]) for index in cells]
    found = np.zeros(len(poses), dtype=np.bool_)
    found[cells] = [verdict is None for verdict in provider.pose_checks(state, actions)]
    return found


def tower_encoding(game: TowerGame) -> TowerEncoding:
    """The encoding of ``game`` whose grid is checked by :func:`accepted`."""
    return TowerEncoding(game, accept=accepted)


__all__ = ["PlacementGrid", "accepted", "tower_encoding"]
