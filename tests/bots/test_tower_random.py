"""The random bot of Splash! (TD13, TD14): legal choices, placements the physics accepts."""

from __future__ import annotations

import numpy as np
import pytest

from splash.bots import RandomBot, make_bot, tower_random
from splash.bots.tower_random import RandomTowerBot, random_point
from splash.core.outcomes import RandomOutcomes, RoutedOutcomes
from splash.core.play import play
from splash.games.tower import TowerGame, TowerState, rules
from splash.games.tower.geometry import inside_distance
from splash.physics.provider import PhysicsOutcomes, physics_game
from tests.bots.tower_positions import branched, drafted


def test_random_points_lie_inside_their_polygons() -> None:
    rng = np.random.default_rng(3)
    square = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    far = square + np.array([10.0, 0.0])
    points = [random_point((square, far), rng) for _ in range(400)]
    assert all(inside_distance(p, square) >= 0 or inside_distance(p, far) >= 0 for p in points)
    left = sum(1 for x, _ in points if x < 5)
    assert 150 < left < 250
    assert random_point((), rng) == (0.0, 0.0)


@pytest.mark.rule("TD13", "T06")
def test_placements_are_legal_and_over_the_target() -> None:
    state = branched()
    bot = RandomTowerBot(11)
    target = rules.target_of(state, "orange-beam")
    assert target is not None and target.piece == "red-beam"
    tops = state.tower_game.catalogue.shape_of("red-beam").resting(target.face).top_surfaces
    poses = [bot.placement(state) for _ in range(8)]
    for pose in poses:
        assert state.why_illegal(pose) is None
        assert pose["face"] in ("flat", "end")
        assert -180.0 <= float(str(pose["rotation_deg"])) < 180.0
        point = (float(str(pose["x_mm"])) / 1000, float(str(pose["y_mm"])) / 1000)
        assert any(inside_distance(point, top) >= -1e-6 for top in tops)
    assert bot.fallbacks == 0
    # A centred pose on the beam would touch the cube (T06): the bot never offers it.
    centred = {"kind": "place", "face": "flat", "rotation_deg": 0.0, "x_mm": 0.0, "y_mm": 0.0}
    assert state.why_illegal(centred) is not None


def test_choices_are_deterministic_for_a_seed() -> None:
    state = branched()
    first = [RandomTowerBot(5).placement(state) for _ in range(2)]
    assert first[0] == first[1]
    assert RandomTowerBot(5).placement(state) != RandomTowerBot(6).placement(state)
    state.apply(RandomTowerBot(5).act(state))
    assert state.phase == "result"
    give = drafted(TowerGame.from_settings([("options.players", 2)]))
    assert RandomTowerBot(9).act(give) == RandomTowerBot(9).act(give)
    assert RandomTowerBot(9).act(give).kind == "give"


def test_a_table_placement_is_centred() -> None:
    state = drafted(physics_game([("options.players", 2)]))
    state.apply({"kind": "give", "piece": "red-beam"})
    pose = RandomTowerBot(1).placement(state)
    assert (pose["x_mm"], pose["y_mm"]) == (0.0, 0.0)
    assert state.why_illegal(pose) is None


def test_the_spread_scales_the_offsets() -> None:
    state = branched()
    poses = [RandomTowerBot(seed, offset_spread=0.0).candidate(state) for seed in range(5)]
    assert all((p["x_mm"], p["y_mm"]) == (0.0, 0.0) for p in poses)
    with pytest.raises(Exception, match="must be a finite number"):
        RandomTowerBot(1, offset_spread=-1.0)


def test_the_random_bot_delegates_placements() -> None:
    state = branched()
    bot = make_bot("random", 4)
    assert isinstance(bot, RandomBot)
    action = bot.act(state)
    assert action.kind == "place"
    assert set(dict(action.params)) == {"face", "rotation_deg", "x_mm", "y_mm"}
    assert state.why_illegal(action) is None


@pytest.mark.rule("TD14", "TD15", "T14", "T15")
def test_a_whole_two_player_game_with_the_physics_finishes() -> None:
    def game_history(seed: int) -> list[object]:
        game = physics_game([("options.players", 2), ("options.deal", "random")])
        children = np.random.SeedSequence(seed).spawn(4)
        outcomes = RoutedOutcomes(
            {"placement": PhysicsOutcomes(children[0])}, RandomOutcomes(children[1])
        )
        bots = [RandomTowerBot(children[2]), RandomTowerBot(children[3])]
        state = play(game.new_initial_state(), bots, outcomes)
        assert isinstance(state, TowerState)
        assert state.is_terminal() and state.winner is not None
        assert state.placements >= 1
        return [a.to_json() for a in state.history]

    assert game_history(2) == game_history(2)


def test_a_grid_search_follows_refused_random_poses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tower_random, "TRIES", 0)
    state = branched()
    bot = RandomTowerBot(8)
    pose = bot.placement(state)
    assert bot.searches == 1 and bot.fallbacks == 0
    assert "face" in pose and state.why_illegal(pose) is None
    assert len(bot.grid(state)) == tower_random.SEARCH_LIMIT
