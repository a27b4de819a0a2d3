"""The ``odds`` request (TD14, TD15, T06): the chance that a pose stands under the placer's
tremor, from 16 rulings on a random stream of its own, for a room whose
``options.placement_aid`` is ``odds``; golden values from statics: a 25-mm cube centred on a
cube always stands, and one 20 mm off the cube under it (its centre of mass 7.5 mm beyond
the edge, far beyond a 0.5-mm tremor) never does."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from splash.games.tower import TowerGame, TowerState
from splash.games.tower.scenario import position
from splash.physics.map_request import MapRequestError
from splash.physics.odds import RULINGS, odds, odds_seed
from splash.physics.provider import PhysicsOutcomes, physics_game

CENTRE = {"face": "bottom", "rotation_deg": 0, "x_mm": 0, "y_mm": 0}


def _on_a_cube(aid: str = "odds") -> tuple[TowerState, PhysicsOutcomes]:
    """Seat 1 to place the red cube on the blue cube, which stood centred on the table."""
    game: TowerGame = physics_game([("options.players", 2), ("options.placement_aid", aid)])
    state = position(game, reserves={0: "blue-cube green-beam", 1: "red-cube red-prism"})
    provider = PhysicsOutcomes(3)
    state.apply({"kind": "give", "piece": "blue-cube"})
    state.apply({"kind": "place", **CENTRE})
    state.apply(provider.outcome(state))
    state.apply({"kind": "give", "piece": "red-cube"})
    assert state.phase == "place" and state.placer == 0 and len(state.tower) == 1
    return state, provider


@pytest.mark.rule("TD14", "TD15")
def test_TD14_a_centred_cube_always_stands_and_one_20_mm_off_never() -> None:
    state, _ = _on_a_cube()
    seat = state.placer
    centred = odds(state, seat, CENTRE)
    off = odds(state, seat, {**CENTRE, "x_mm": 20})
    assert isinstance(centred, dict) and isinstance(off, dict)
    assert (centred["stood"], centred["rulings"], centred["odds"]) == (RULINGS, 16, 1.0)
    assert (off["stood"], off["odds"]) == (0, 0.0)
    assert centred["index"] == len(state.history) and centred["pose"] == CENTRE
    elapsed = centred["elapsed_ms"]
    assert isinstance(elapsed, float) and elapsed > 0


@pytest.mark.rule("TD15")
def test_TD15_the_odds_have_a_stream_of_their_own() -> None:
    state, provider = _on_a_cube()
    before = provider.rng.bit_generator.state
    edge = {**CENTRE, "x_mm": 12.5}
    first = odds(state, state.placer, edge)
    again = odds(state, state.placer, edge)
    assert isinstance(first, dict) and isinstance(again, dict)
    assert first["stood"] == again["stood"]
    assert provider.rng.bit_generator.state == before
    seeds = {
        tuple(odds_seed(placements, pose).generate_state(2))
        for placements in (3, 4)
        for pose in (CENTRE, edge)
    }
    assert len(seeds) == 4
    draws = np.random.default_rng(odds_seed(3, CENTRE)).random(3)
    assert list(draws) == list(np.random.default_rng(odds_seed(3, CENTRE)).random(3))


@pytest.mark.parametrize(
    ("aid", "seat", "body", "said"),
    [
        ("region", 0, CENTRE, "this room shows no odds (options.placement_aid=region)"),
        ("odds", 1, CENTRE, "only the seat that must place the piece may ask for its odds"),
        ("odds", None, CENTRE, "only the seat that must place the piece may ask for its odds"),
        ("odds", 0, {"face": "bottom"}, "the pose lacks rotation_deg, x_mm, y_mm"),
        ("odds", 0, {**CENTRE, "face": "sideways"}, "sideways"),
        ("odds", 0, {**CENTRE, "x_mm": 59}, "would not rest on its target"),
    ],
)
@pytest.mark.rule("T06")
def test_T06_odds_are_refused_with_a_reason(
    aid: str, seat: int | None, body: dict[str, Any], said: str
) -> None:
    state, _ = _on_a_cube(aid)
    with pytest.raises(MapRequestError) as refused:
        odds(state, seat, body)
    assert said in str(refused.value)


def test_odds_are_refused_when_no_piece_waits() -> None:
    state, provider = _on_a_cube()
    state.apply({"kind": "place", **CENTRE})
    state.apply(provider.outcome(state))
    with pytest.raises(MapRequestError, match="no piece is waiting"):
        odds(state, state.placer, CENTRE)
