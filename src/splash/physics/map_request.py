"""The ``placements`` request of a Splash! page: the placement map
(:mod:`splash.physics.placement_map`) of the gift the asking seat must place now.

The physics layer adds it to Splash! in play rooms (:data:`splash.physics.games.PHYSICAL_GAMES`);
the server answers it by its kind and never names the game.  Only the seat that must place
may ask, and only while it must: any other seat, a public screen or another moment gets a
:class:`MapRequestError`.  The map is a pure function of the recorded tower, the gift and
its target, kept per tower (:func:`~splash.physics.placement_map.placement_map`), so asking
again at the same point of the game costs nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from splash.core.actions import Json
from splash.core.errors import SplashError
from splash.core.i18n import Message, message
from splash.core.protocol import State
from splash.games.tower import TowerState
from splash.games.tower.rules import forced, target_of
from splash.games.tower.tower import TABLE
from splash.physics.placement_map import placement_map
from splash.physics.provider import rests_of, shared_model

KIND = "placements"
"""The request's kind."""


class MapRequestError(SplashError):
    """A ``placements`` request that cannot be answered now, with the seat that asked."""

    def __init__(self, seat: int | None, problem: Message) -> None:
        super().__init__(problem)
        self.seat = seat
        self.problem = problem


def placements(state: State, seat: int | None, body: Mapping[str, Any]) -> Json:
    """The placement map of the gift ``seat`` must place in ``state``, as JSON
    (``{index, target, forced, faces}``, :meth:`PlacementMap.to_json`; ``index`` is the
    log's length it answers for).  The body is ignored."""
    if not isinstance(state, TowerState) or state.phase != "place" or state.gift is None:
        raise MapRequestError(seat, message("no piece is waiting to be placed"))
    if seat is None or seat != state.placer:
        raise MapRequestError(
            seat, message("only the seat that must place the piece may ask for its map")
        )
    target = target_of(state, state.gift)
    found = placement_map(
        shared_model(state.tower_game.catalogue),
        rests_of(state),
        state.gift,
        TABLE if target is None else target.piece,
        forced=forced(state, state.gift),
    )
    doc: dict[str, Json] = {"index": len(state.history)}
    doc.update(found.to_json())
    return doc
