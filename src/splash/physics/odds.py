"""The ``odds`` request of a Splash! page: the chance that a pose stands under the placer's
tremor (TD14), for rooms whose ``options.placement_aid`` is ``odds``.

The physics rules the pose :data:`RULINGS` times, each with a tremor sample of the placer's
steadiness, as the outcome provider rules a placement, and counts the rulings that stood.
The samples come from a random stream of their own, seeded by the placement's number and
the pose (:func:`odds_seed`), never from the outcome provider's: asking the odds changes
nothing of the game, and the same pose at the same point of the game gets the same odds.
Only the seat that must place may ask, only while it must, and only for a pose the rules
accept (T06).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from splash.core.actions import Json
from splash.core.errors import MalformedActionError, SplashError
from splash.core.i18n import message
from splash.core.protocol import State
from splash.games.tower import TowerState
from splash.games.tower.rules import forced
from splash.physics.judge import Thresholds
from splash.physics.map_request import MapRequestError
from splash.physics.placement import Steadiness
from splash.physics.provider import placement_of, rests_of, shared_model
from splash.physics.ruling import RulingSettings, rule

KIND = "odds"
"""The request's kind."""
RULINGS = 16
"""How many tremor samples of a pose are ruled."""
AID = "odds"
"""The value of ``options.placement_aid`` that opens the request."""
_POSE_FIELDS = ("face", "rotation_deg", "x_mm", "y_mm")


@dataclass(frozen=True)
class Odds:
    """The odds of one pose: ``stood`` of ``rulings`` rulings stood; ``elapsed_ms`` is the
    time the rulings took."""

    stood: int
    rulings: int
    elapsed_ms: float

    def to_json(self) -> dict[str, Json]:
        """``{"stood", "rulings", "odds", "elapsed_ms"}`` (``odds``: the share that stood)."""
        return {
            "stood": self.stood,
            "rulings": self.rulings,
            "odds": self.stood / self.rulings,
            "elapsed_ms": round(self.elapsed_ms, 1),
        }


def odds_seed(placements: int, pose: Mapping[str, Any]) -> np.random.SeedSequence:
    """The seed of the odds of ``pose`` at placement number ``placements``: a stream of
    its own, the same for the same pose at the same point of a game."""
    text = "|".join(str(pose[name]) for name in _POSE_FIELDS)
    digest = hashlib.sha256(f"splash-odds|{placements}|{text}".encode()).digest()
    return np.random.SeedSequence(int.from_bytes(digest[:16], "big"))


def standing_odds(state: TowerState, pose: Mapping[str, Any], rulings: int = RULINGS) -> Odds:
    """The odds that ``pose`` (a ``place`` action's fields) stands in ``state``, from
    ``rulings`` rulings with the placer's tremor."""
    action = state.game.parse_action({"kind": "place", **pose})
    problem = state.why_illegal(action)
    if problem is not None:
        raise MapRequestError(state.placer, problem)
    options = state.tower_game.options
    hand = options.steadiness_of(state.placer)
    steadiness = Steadiness(hand.position_mm, hand.angle_deg, hand.height_mm)
    rng = np.random.default_rng(odds_seed(state.placements, pose))
    settings = RulingSettings(
        thresholds=Thresholds(options.fall_distance_mm, options.fall_angle_deg)
    )
    model = shared_model(state.tower_game.catalogue)
    tower, placement = rests_of(state), placement_of(state, action)
    assert state.gift is not None
    is_forced = forced(state, state.gift)
    started = time.perf_counter()
    stood = sum(
        rule(model, tower, placement, steadiness.sample(rng), settings, forced=is_forced).result
        == "stood"
        for _ in range(rulings)
    )
    return Odds(stood, rulings, (time.perf_counter() - started) * 1000.0)


def odds(state: State, seat: int | None, body: Mapping[str, Any]) -> Json:
    """The ``odds`` request: ``body`` is the pose (``face``, ``rotation_deg``, ``x_mm``,
    ``y_mm``, as a ``place`` action has them); the answer is ``{"index", "pose", "stood",
    "rulings", "odds", "elapsed_ms"}``."""
    if not isinstance(state, TowerState) or state.phase != "place" or state.gift is None:
        raise MapRequestError(seat, message("no piece is waiting to be placed"))
    if seat is None or seat != state.placer:
        raise MapRequestError(
            seat, message("only the seat that must place the piece may ask for its odds")
        )
    aid = state.tower_game.options.placement_aid
    if aid != AID:
        raise MapRequestError(
            seat, message("this room shows no odds (options.placement_aid={aid})", aid=aid)
        )
    missing = [name for name in _POSE_FIELDS if name not in body]
    if missing:
        raise MapRequestError(seat, message("the pose lacks {fields}", fields=", ".join(missing)))
    pose = {name: body[name] for name in _POSE_FIELDS}
    try:
        found = standing_odds(state, pose)
    except MalformedActionError as error:
        raise MapRequestError(seat, error.problem) from None
    except SplashError as error:
        raise MapRequestError(seat, error.text) from None
    doc: dict[str, Json] = {"index": len(state.history), "pose": dict(pose)}
    doc.update(found.to_json())
    return doc
