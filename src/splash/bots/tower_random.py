"""The random bot of Splash!: legal choices at random, placements at random over the target.

Gifts, draft picks, new bases and pieces taken back are chosen uniformly among the legal
actions.  A placement (TD13) takes a random face of the gift, a random turn in [-180, 180)
degrees and a random point of the target's top (uniform over its top surfaces, by area),
scaled by ``offset_spread``; on the table the piece goes at the centre.  A pose that the
game refuses (T06: it would touch something besides its target) is drawn again, up to
:data:`TRIES` times.  When none is accepted (a target whose free part is small), the bot
searches a grid of poses over the target's top (every face, turns in steps of
:data:`GRID_TURN_DEG`, points :data:`GRID_STEP_MM` apart, in a random order, at most
:data:`SEARCH_LIMIT` of them) and only then falls back to the centred pose on the first face.

The bot has no hand of its own: the tremor of the executed pose is the seat's steadiness,
a setting of the game (``options.steadiness``, ``options.seat_steadiness``, TD14).
"""

from __future__ import annotations

import math

import numpy as np

from splash.core.actions import Action
from splash.core.errors import ActionError, OptionError
from splash.core.i18n import message
from splash.core.protocol import State
from splash.games.tower import TowerState, rules
from splash.games.tower.geometry import Array, as_array, inside_distance, polygon_area
from splash.games.tower.tops import GeometricFit

TRIES = 30
"""Random poses tried before the centred pose is taken."""
GRID_STEP_MM = 2.5
"""Spacing of the points of the grid search over a target's top."""
GRID_TURN_DEG = 22.5
"""Spacing of the turns of the grid search."""
SEARCH_LIMIT = 1000
"""Poses of the grid search checked at most (about 0.4 ms each)."""
SAMPLES_PER_POINT = 200
"""Rejection-sampling draws allowed for one point of a top before its centroid is taken."""

Seed = int | np.random.SeedSequence | np.random.Generator


def random_point(polygons: tuple[Array, ...], rng: np.random.Generator) -> tuple[float, float]:
    """A point uniform over the convex ``polygons`` (each chosen in proportion to its area;
    a polygon is sampled by rejection in its bounding box), in the polygons' units."""
    shapes = [as_array(p).reshape(-1, 2) for p in polygons]
    areas = np.array([abs(polygon_area(p)) if len(p) >= 3 else 0.0 for p in shapes])
    if not shapes or areas.sum() <= 0.0:
        return 0.0, 0.0
    index = int(rng.choice(len(shapes), p=areas / areas.sum()))
    polygon = shapes[index]
    low, high = polygon.min(axis=0), polygon.max(axis=0)
    for _ in range(SAMPLES_PER_POINT):
        x, y = rng.uniform(low, high)
        if inside_distance((x, y), polygon) >= 0.0:
            return float(x), float(y)
    centre = polygon.mean(axis=0)
    return float(centre[0]), float(centre[1])


class RandomTowerBot:
    """Uniform legal choices, and random placements that the game accepts (TD13).

    >>> from splash.games.tower import TowerGame
    >>> state = TowerGame.from_settings([("options.players", 2)]).new_initial_state()
    >>> RandomTowerBot(7).act(state).kind
    'take'
    """

    name = "random"

    def __init__(self, seed: Seed, *, offset_spread: float = 1.0) -> None:
        if not math.isfinite(offset_spread) or offset_spread < 0.0:
            raise OptionError(
                "offset_spread", offset_spread, message("must be a finite number >= 0")
            )
        self.seed = seed
        self.offset_spread = offset_spread
        self._rng = np.random.default_rng(seed)
        self.searches = 0
        """Placements for which no random pose was accepted (a grid search followed)."""
        self.fallbacks = 0
        """Placements for which no pose at all was accepted (the centred pose was taken)."""

    def act(self, state: State) -> Action:
        """A uniform legal choice, or a random placement the game accepts."""
        if isinstance(state, TowerState) and state.phase == "place":
            return state.game.parse_action(self.placement(state))
        legal = state.legal_actions()
        if not legal:
            raise ActionError(
                message("no legal action to choose in {state}", state=state.describe())
            )
        return legal[int(self._rng.integers(len(legal)))]

    def candidate(self, state: TowerState) -> dict[str, object]:
        """One random pose for the gift (not checked)."""
        gift = state.gift
        if gift is None:
            return {"kind": "place"}
        catalogue = state.tower_game.catalogue
        faces = list(catalogue.shape_of(gift).faces)
        face = faces[int(self._rng.integers(len(faces)))]
        rotation = float(self._rng.uniform(-180.0, 180.0))
        target = rules.target_of(state, gift)
        x = y = 0.0
        if target is not None:
            tops = catalogue.shape_of(target.piece).resting(target.face).top_surfaces
            x, y = random_point(tops, self._rng)
        scale = 1000.0 * self.offset_spread
        limit = rules.MAX_OFFSET_MM
        return {
            "kind": "place",
            "face": face,
            "rotation_deg": rotation,
            "x_mm": min(limit, max(-limit, round(x * scale, 3))),
            "y_mm": min(limit, max(-limit, round(y * scale, 3))),
        }

    def placement(self, state: TowerState) -> dict[str, object]:
        """The first of up to :data:`TRIES` random poses that the game accepts, else the
        first accepted pose of the grid search, else the centred pose on the first face."""
        for _ in range(TRIES):
            pose = self.candidate(state)
            if state.why_illegal(pose) is None:
                return pose
        self.searches += 1
        known = self.known_pose(state)
        if known is not None and state.why_illegal(known) is None:
            return known
        for pose in self.grid(state):
            if state.why_illegal(pose) is None:
                return pose
        self.fallbacks += 1
        return {"kind": "place"}

    @staticmethod
    def known_pose(state: TowerState) -> dict[str, object] | None:
        """The pose the game's fit found for the gift, when it measures fits geometrically."""
        fits = state.tower_game.fits
        if not isinstance(fits, GeometricFit) or state.gift is None:
            return None
        target = rules.target_of(state, state.gift)
        if target is None:
            return None
        pose = fits.pose_for(state.tower, state.gift, target)
        if pose is None:
            return None
        face, turn, x, y = pose
        return {"kind": "place", "face": face, "rotation_deg": turn, "x_mm": x, "y_mm": y}

    def grid(self, state: TowerState) -> list[dict[str, object]]:
        """Poses of the gift over its target's top, in a random order (at most
        :data:`SEARCH_LIMIT`): every face, turn and point of the grid."""
        gift = state.gift
        if gift is None:
            return []
        catalogue = state.tower_game.catalogue
        target = rules.target_of(state, gift)
        points: list[tuple[float, float]] = [(0.0, 0.0)]
        if target is not None:
            points = []
            for top in catalogue.shape_of(target.piece).resting(target.face).top_surfaces:
                polygon = as_array(top).reshape(-1, 2) * 1000.0
                if len(polygon) < 3:
                    continue
                low, high = polygon.min(axis=0), polygon.max(axis=0)
                xs = np.arange(low[0], high[0] + 1e-9, GRID_STEP_MM)
                ys = np.arange(low[1], high[1] + 1e-9, GRID_STEP_MM)
                points += [
                    (float(x), float(y))
                    for x in xs
                    for y in ys
                    if inside_distance((x, y), polygon) >= 0.0
                ]
        turns = np.arange(-180.0, 180.0, GRID_TURN_DEG)
        poses = [
            {"kind": "place", "face": face, "rotation_deg": float(turn), "x_mm": x, "y_mm": y}
            for face in catalogue.shape_of(gift).faces
            for turn in turns
            for x, y in points
        ]
        order = self._rng.permutation(len(poses))[:SEARCH_LIMIT]
        return [poses[int(i)] for i in order]
