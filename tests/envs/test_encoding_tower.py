"""The Splash! encoding: the placement grid, hand-checked observations, masks and indices."""

from __future__ import annotations

import numpy as np
import pytest

from splash.core import RandomOutcomes
from splash.core.actions import Action
from splash.core.errors import IllegalActionError, MalformedActionError
from splash.core.i18n import Message, message
from splash.core.outcomes import RoutedOutcomes
from splash.core.protocol import State
from splash.envs.encoding import encoding_for, observation_space
from splash.envs.tower_grid import tower_encoding
from splash.games.tower import TowerGame, TowerState
from splash.games.tower.encoding import PHASES, PLACES, TowerEncoding
from splash.games.tower.game import PoseCheck
from splash.games.tower.scenario import position
from splash.physics.provider import PhysicsOutcomes, physics_game


def two_players(pose_check: PoseCheck | None = None) -> TowerGame:
    return TowerGame.from_settings([("options.players", 2)], pose_check=pose_check)


def block(encoding: TowerEncoding, obs: np.ndarray, name: str) -> np.ndarray:
    return obs[encoding.layout[name].slice]


def slot(encoding: TowerEncoding, obs: np.ndarray, piece: str) -> np.ndarray:
    start = encoding.layout["slots"].start + encoding.pieces.index(piece) * encoding.slot_size
    return obs[start : start + encoding.slot_size]


def location(encoding: TowerEncoding, obs: np.ndarray, piece: str) -> list[float]:
    width = encoding.players + len(PLACES)
    start = encoding.layout["location"].start + encoding.pieces.index(piece) * width
    values: list[float] = obs[start : start + width].tolist()
    return values


def test_sizes() -> None:
    encoding = encoding_for(two_players())
    assert isinstance(encoding, TowerEncoding)
    # 5 per-piece kinds x 30 pieces, place, result; then 3 face slots x 8 turns x 3 x 3.
    assert encoding.num_actions == 152 + 216
    assert encoding.fallback_index == 150
    assert encoding.grid.face_slots == 3


def test_grid_cells_map_to_hand_computed_poses() -> None:
    game = two_players()
    encoding = TowerEncoding(game)
    state = position(game, reserves={0: "green-beam", 1: "blue-cube"}, tower="green-cube")
    state.apply({"kind": "give", "piece": "green-beam"})
    grid = encoding.grid
    # The cube's top: 25 x 25 mm around the centre, so offsets are +-6.25 mm.
    index = encoding.base_size + grid.cell(1, 3, 1, -1)
    assert encoding.action_of(state, index).to_json() == {
        "kind": "place",
        "face": "end",
        "rotation_deg": 67.5,
        "x_mm": 6.25,
        "y_mm": -6.25,
    }
    index = encoding.base_size + grid.cell(0, 7, 0, 1)
    assert encoding.action_of(state, index).to_json() == {
        "kind": "place",
        "face": "flat",
        "rotation_deg": 157.5,
        "x_mm": 0.0,
        "y_mm": 6.25,
    }
    # A beam has two faces: the third face slot is never legal.
    mask = encoding.legal_mask(state)
    assert mask[encoding.base_size : encoding.base_size + 144].all()
    assert not mask[encoding.base_size + 144 :].any()
    assert not mask[: encoding.base_size].any()
    with pytest.raises(IllegalActionError, match="no such face"):
        encoding.action_of(state, encoding.base_size + grid.cell(2, 0, 0, 0))
    with pytest.raises(IllegalActionError, match="a piece is to be placed"):
        encoding.action_of(state, 0)


def test_on_the_table_offsets_span_a_fixed_square() -> None:
    game = two_players()
    encoding = TowerEncoding(game)
    state = position(game, reserves={0: "red-cube", 1: "blue-cube"})
    state.apply({"kind": "give", "piece": "red-cube"})
    action = encoding.action_of(state, encoding.base_size + encoding.grid.cell(0, 2, -1, 1))
    assert action.to_json() == {
        "kind": "place",
        "face": "bottom",
        "rotation_deg": 45.0,
        "x_mm": -12.5,
        "y_mm": 12.5,
    }


def test_hand_checked_observation() -> None:
    game = two_players()
    encoding = TowerEncoding(game)
    state = position(
        game,
        reserves={0: "red-cube blue-cube", 1: "blue-beam"},
        tower="green-cube yellow-cube",
        covered="green-cube",
        drops=[1, 0],
    )
    state.apply({"kind": "give", "piece": "red-cube"})
    obs = encoding.observation(state, 1)
    assert obs.shape == encoding.observation_shape
    assert block(encoding, obs, "seat").tolist() == [0, 1]
    assert block(encoding, obs, "to_act").tolist() == [0, 1]
    assert block(encoding, obs, "phase")[PHASES.index("place")] == 1
    assert block(encoding, obs, "giver").tolist() == [1, 0]
    assert block(encoding, obs, "placer").tolist() == [0, 1]
    assert block(encoding, obs, "gift_from").tolist() == [1, 0]
    supply, cap = game.options.drop_supply, game.options.turn_cap
    # drops over the supply
    assert block(encoding, obs, "drops").tolist() == pytest.approx([1 / supply, 0])
    # columns: reserve 0, reserve 1, pile, gift, tower, table, box
    assert location(encoding, obs, "red-cube") == [0, 0, 0, 1, 0, 0, 0]
    assert location(encoding, obs, "blue-cube") == [1, 0, 0, 0, 0, 0, 0]
    assert location(encoding, obs, "blue-beam") == [0, 1, 0, 0, 0, 0, 0]
    assert location(encoding, obs, "yellow-cube") == [0, 0, 0, 0, 1, 0, 0]
    assert location(encoding, obs, "purple-arch") == [0, 0, 0, 0, 0, 0, 1]
    target = block(encoding, obs, "target")
    assert np.flatnonzero(target).tolist() == [encoding.pieces.index("yellow-cube")]
    # in_tower, on_table, x, y, z, quaternion (no recorded pose: zeros), height, uncovered,
    # order, base candidate, face slots
    # heights over 1000 mm, the order of placing over the turn cap
    assert slot(encoding, obs, "green-cube").tolist() == pytest.approx(
        [1, 0, 0, 0, 0, 0, 0, 0, 0, 25 / 1000, 0, 0, 0, 1, 0, 0]
    )
    assert slot(encoding, obs, "yellow-cube").tolist() == pytest.approx(
        [1, 0, 0, 0, 0, 0, 0, 0, 0, 50 / 1000, 1, 1 / cap, 0, 1, 0, 0]
    )
    assert not slot(encoding, obs, "red-cube").any()
    assert block(encoding, obs, "terminal").tolist() == [0]
    assert not block(encoding, obs, "won").any()


def refuse_every_pose(state: State, action: Action) -> Message | None:
    return message("refused") if action.params else None


def test_fallback_when_no_cell_is_accepted() -> None:
    game = two_players(pose_check=refuse_every_pose)
    encoding = TowerEncoding(game)
    state = position(game, reserves={0: "green-beam", 1: "blue-cube"}, tower="green-cube")
    state.apply({"kind": "give", "piece": "green-beam"})
    assert encoding.legal_indices(state) == [encoding.fallback_index]
    action = encoding.action_of(state, encoding.fallback_index)
    assert action.to_json() == {"kind": "place"}
    assert encoding.index_of(state, action) == encoding.fallback_index
    with pytest.raises(IllegalActionError, match="refused"):
        encoding.action_of(state, encoding.base_size)


def test_fallback_is_illegal_while_a_cell_is() -> None:
    game = two_players()
    encoding = TowerEncoding(game)
    state = position(game, reserves={0: "green-beam", 1: "blue-cube"}, tower="green-cube")
    state.apply({"kind": "give", "piece": "green-beam"})
    with pytest.raises(IllegalActionError, match="fallback"):
        encoding.action_of(state, encoding.fallback_index)
    off_grid = game.parse_action(
        {"kind": "place", "face": "flat", "rotation_deg": 10, "x_mm": 0, "y_mm": 0}
    )
    with pytest.raises(MalformedActionError, match="grid"):
        encoding.index_of(state, off_grid)


def check_position(encoding: TowerEncoding, state: TowerState) -> None:
    """Mask = legality; every legal index round-trips; observations lie in their space."""
    space = observation_space(encoding)
    for seat in range(encoding.players):
        assert space.contains(encoding.observation(state, seat))
    mask = encoding.legal_mask(state)
    if state.to_act() < 0:
        assert not mask.any()
        return
    assert mask.any()
    for index in range(encoding.num_actions):
        if mask[index]:
            action = encoding.action_of(state, index)
            assert state.why_illegal(action) is None
            assert encoding.index_of(state, action) == index
        else:
            with pytest.raises(IllegalActionError):
                encoding.action_of(state, index)
            cell = index - encoding.base_size
            if cell >= 0 and state.phase == "place":
                placement = encoding.grid.choices(state).poses[cell]
                assert placement is None or state.why_illegal(placement) is not None


@pytest.mark.slow
def test_random_game_with_the_physics_masks_and_round_trips() -> None:
    game = physics_game([("options.players", 2)])
    encoding = tower_encoding(game)
    rng = np.random.default_rng(3)
    outcomes = RoutedOutcomes({"placement": PhysicsOutcomes(3)}, RandomOutcomes(3))
    state = game.new_initial_state()
    phases: set[str] = set()
    while not state.is_terminal() and state.placements < 12:
        check_position(encoding, state)
        phases.add(state.phase)
        if state.is_chance():
            state.apply(outcomes.outcome(state))
            continue
        legal = np.flatnonzero(encoding.legal_mask(state))
        state.apply(encoding.action_of(state, int(rng.choice(legal))))
    check_position(encoding, state)
    assert {"draft", "give", "place", "result"} <= phases


def test_referee_game_masks_equal_legal_actions_outside_placements() -> None:
    game = two_players()
    encoding = TowerEncoding(game)
    state = game.new_initial_state()
    rng = np.random.default_rng(1)
    while state.phase == "draft":
        assert encoding.legal_indices(state) == state.legal_action_ids()
        check_position(encoding, state)
        state.apply(encoding.action_of(state, int(rng.choice(encoding.legal_indices(state)))))
    assert encoding.legal_indices(state) == state.legal_action_ids()


def test_a_cube_ruled_on_the_table_has_its_resting_pose_in_its_slot() -> None:
    game = physics_game([("options.players", 2)])
    encoding = tower_encoding(game)
    state = position(game, reserves={0: "red-cube blue-cube", 1: "green-beam"})
    state.apply({"kind": "give", "piece": "red-cube"})
    centred = encoding.base_size + encoding.grid.cell(0, 0, 0, 0)
    assert encoding.legal_mask(state)[centred]
    state.apply(encoding.action_of(state, centred))
    state.apply(PhysicsOutcomes(2).outcome(state))
    assert state.tower.ids() == ("red-cube",)
    features = slot(encoding, encoding.observation(state, 0), "red-cube")
    in_tower, on_table, x, y, z, qw, qx, qy, qz, height, uncovered, order, base = features[:13]
    # positions and heights are divided by 1000 mm
    x, y, z, height = (float(v) * 1000 for v in (x, y, z, height))
    # A 25 mm cube at rest on the table, placed at the centre with a tremor of 0.5 mm.
    assert (in_tower, on_table, uncovered, order, base) == (1, 0, 1, 0, 0)
    assert abs(x) < 3 and abs(y) < 3
    assert z == pytest.approx(12.5, abs=0.2)
    assert height == pytest.approx(25.0, abs=0.5)
    assert qw**2 + qx**2 + qy**2 + qz**2 == pytest.approx(1.0, abs=1e-5)
    assert abs(qw) == pytest.approx(1.0, abs=0.01)
    assert features[13:].tolist() == [1, 0, 0]
