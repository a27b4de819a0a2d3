"""The placement map (T06, TD13): its regions against the server's T06 check, pose by pose.

Every sampled pose inside a face and turn's safe region must pass the check that a
placement gets before any simulation (:meth:`PoseProbe.check`); every pose outside its T06
region grown by :data:`SAFE_MM` must fail it; poses in the band between may go either way
(their count is printed).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
import shapely

from splash.bots.tower_random import RandomTowerBot
from splash.core import RandomOutcomes
from splash.core.outcomes import RoutedOutcomes
from splash.games.tower.rules import forced, target_of
from splash.physics.errors import PlacementRefusedError
from splash.physics.model import TowerModel
from splash.physics.placement import Placement, PoseProbe, Tremor, placed_pose
from splash.physics.placement_map import (
    SAFE_MM,
    PlacementMap,
    PlacementMapError,
    as_geometry,
    placement_map,
)
from splash.physics.poses import TABLE, PieceRest
from splash.physics.provider import PhysicsOutcomes, physics_game, rests_of
from splash.physics.static_ruling import rule_with_margin
from tests.physics.builders import shared_model

GIFTS = ("orange-cube", "orange-beam", "orange-prism", "orange-arch", "orange-cylinder")
"""One piece of each shape, none of them in the constructed towers."""
LIMIT_MM = 60.0


@pytest.fixture(scope="module")
def model() -> TowerModel:
    return shared_model()


def stack(model: TowerModel, placements: Sequence[Placement]) -> list[PieceRest]:
    """The poses of pieces put exactly where ``placements`` say (each on its target)."""
    rests: dict[str, PieceRest] = {}
    for placement in placements:
        pose = placed_pose(model.catalogue, rests, placement)
        support = None if placement.target == TABLE else placement.target
        rests[placement.piece] = PieceRest(placement.piece, placement.face, support, pose)
    return list(rests.values())


def pair(model: TowerModel) -> list[PieceRest]:
    """A beam on the table and two cubes side by side on it, 0.2 mm apart: branching
    targets, each the same height as its neighbour."""
    return stack(
        model,
        [
            Placement("red-beam", "flat", 0.0, (0.0, 0.0), TABLE),
            Placement("red-cube", "bottom", 0.0, (-0.0126, 0.0), "red-beam"),
            Placement("blue-cube", "bottom", 0.0, (0.0126, 0.0), "red-beam"),
        ],
    )


def bridge(model: TowerModel) -> list[PieceRest]:
    """A cube and, beside it, a lower beam on the table; an arch on the cube reaches over
    the beam, one foot 10 mm above it; a prism lies on its long face on the arch."""
    return stack(
        model,
        [
            Placement("red-cube", "bottom", 0.0, (0.0, 0.0), TABLE),
            Placement("blue-beam", "flat", 90.0, (0.030, 0.0), TABLE),
            Placement("red-arch", "feet", 0.0, (0.005, 0.0), "red-cube"),
            Placement("red-prism", "rect", 0.0, (-0.014, 0.0), "red-arch"),
        ],
    )


def crowded(model: TowerModel) -> list[PieceRest]:
    """A lying cylinder and a standing one beside a cube on an upturned arch (two tops), a
    beam across the cylinders' neighbour, on a turned base."""
    return stack(
        model,
        [
            Placement("green-arch", "top", 30.0, (0.0, 0.0), TABLE),
            Placement("green-cube", "bottom", 0.0, (0.012, 0.0), "green-arch"),
            Placement("green-cylinder", "side", 90.0, (-0.011, 0.0), "green-arch"),
            Placement("green-beam", "flat", 45.0, (0.002, 0.003), "green-cube"),
            Placement("yellow-cylinder", "round", 0.0, (0.0, 0.014), "green-cube"),
        ],
    )


@dataclass(frozen=True)
class Case:
    """One map to check: a tower, a gift and its target."""

    name: str
    tower: list[PieceRest]
    piece: str
    target: str


def constructed(model: TowerModel) -> Iterator[Case]:
    towers = {"pair": pair(model), "bridge": bridge(model), "crowded": crowded(model)}
    targets = {
        "pair": ("red-cube", "blue-cube"),
        "bridge": ("blue-beam", "red-arch"),
        "crowded": ("green-arch", "green-beam", "yellow-cylinder"),
    }
    for name, tower in towers.items():
        for target in targets[name]:
            for piece in GIFTS:
                yield Case(name, tower, piece, target)


def settled(seed: int = 2, placements: int = 10) -> Iterator[Case]:
    """Positions of a seeded random game ruled by the physics, gifts not forced."""
    game = physics_game([("options.players", 3)])
    children = np.random.SeedSequence(seed).spawn(2 + game.num_seats)
    outcomes = RoutedOutcomes(
        {"placement": PhysicsOutcomes(children[0])}, RandomOutcomes(children[1])
    )
    bots = [RandomTowerBot(children[2 + seat]) for seat in range(game.num_seats)]
    state = game.new_initial_state()
    while not state.is_terminal() and state.placements < placements:
        if state.phase == "place" and state.gift is not None and not forced(state, state.gift):
            found = target_of(state, state.gift)
            target = TABLE if found is None else found.piece
            yield Case(f"game-{state.placements}", rests_of(state), state.gift, target)
        state.apply(
            outcomes.outcome(state) if state.is_chance() else bots[state.to_act()].act(state)
        )


def passes(probe: PoseProbe, placement: Placement) -> bool:
    try:
        probe.check(placement)
    except PlacementRefusedError:
        return False
    return True


@dataclass
class Tally:
    agree: int = 0
    decisive: int = 0
    band: int = 0
    inside: int = 0
    outside: int = 0


def sample(
    model: TowerModel,
    case: Case,
    rng: np.random.Generator,
    count: int,
    tally: Tally,
    *,
    near: bool = False,
) -> list[str]:
    """Check ``count`` poses of the map of ``case`` (uniform over the limits, or over the
    region's box grown by 3 mm when ``near``) and return the disagreements."""
    found = placement_map(model, case.tower, case.piece, case.target)
    cells = [(f, t, c) for f, turns in found.faces.items() for t, c in turns.items()]
    shapes = {(f, t): (as_geometry(c.safe), as_geometry(c.region)) for f, t, c in cells}
    probe = PoseProbe(model, case.tower)
    wrong = []
    for _ in range(count):
        face, turn, _cell = cells[int(rng.integers(len(cells)))]
        safe, region = shapes[(face, turn)]
        low, high = np.full(2, -LIMIT_MM), np.full(2, LIMIT_MM)
        if near and not region.is_empty:
            bounds = np.array(region.bounds)
            low = np.maximum(low, bounds[:2] - 3.0)
            high = np.minimum(high, bounds[2:] + 3.0)
        x, y = (float(v) for v in rng.uniform(low, high))
        inside = bool(shapely.contains_xy(safe, x, y))
        outside = region.is_empty or shapely.distance(region, shapely.Point(x, y)) > SAFE_MM
        if not inside and not outside:
            tally.band += 1
            continue
        tally.decisive += 1
        tally.inside += inside
        tally.outside += outside
        placement = Placement(case.piece, face, float(turn), (x / 1000, y / 1000), case.target)
        if passes(probe, placement) == inside:
            tally.agree += 1
        else:
            wrong.append(f"{case.name}: {placement} ({'inside' if inside else 'outside'})")
    return wrong


@pytest.mark.rule("T06", "TD13")
def test_T06_poses_in_the_safe_region_pass_and_poses_outside_the_region_fail(
    model: TowerModel,
) -> None:
    rng = np.random.default_rng(2026)
    uniform, near = Tally(), Tally()
    wrong: list[str] = []
    cases = [*constructed(model), *settled()]
    assert {c.name for c in cases} >= {"pair", "bridge", "crowded"}
    assert sum(c.name.startswith("game") for c in cases) >= 3
    for case in cases:
        wrong += sample(model, case, rng, 60, uniform)
        wrong += sample(model, case, rng, 60, near, near=True)
    print(
        f"\nplacement map vs T06 check, {len(cases)} maps: uniform {uniform.agree}/"
        f"{uniform.decisive} agree, band {uniform.band}; near the regions {near.agree}/"
        f"{near.decisive} agree, band {near.band}"
    )
    assert not wrong, "\n".join(wrong[:20])
    assert uniform.decisive + uniform.band >= 2000
    assert uniform.inside >= 100 and near.inside >= 1000 and near.outside >= 500


@pytest.mark.rule("T06")
def test_T06_a_cube_on_a_cube_is_legal_while_it_still_touches_it(model: TowerModel) -> None:
    tower = stack(model, [Placement("red-cube", "bottom", 0.0, (0.0, 0.0), TABLE)])
    found = placement_map(model, tower, "blue-cube", "red-cube")
    assert sorted(found.faces["bottom"]) == [0, 15, 30, 45, 60, 75]
    region = as_geometry(found.faces["bottom"][0].region)
    assert region.bounds == pytest.approx((-25.1, -25.1, 25.1, 25.1), abs=0.05)
    probe = PoseProbe(model, tower)
    for x, ok in ((25.05, True), (25.15, False)):
        assert (
            passes(probe, Placement("blue-cube", "bottom", 0.0, (x / 1000, 0.0), "red-cube")) == ok
        )


@pytest.mark.rule("T06")
def test_T06_a_beam_across_a_cube_is_legal_at_the_centre(model: TowerModel) -> None:
    tower = stack(model, [Placement("red-cube", "bottom", 0.0, (0.0, 0.0), TABLE)])
    found = placement_map(model, tower, "blue-beam", "red-cube")
    assert sorted(found.faces) == ["end", "flat"]
    assert sorted(found.faces["flat"]) == list(range(0, 180, 15))
    assert sorted(found.faces["end"]) == list(range(0, 90, 15))
    cell = found.faces["flat"][0]
    assert as_geometry(cell.safe).contains(shapely.Point(0.0, 0.0))
    assert cell.steadiest is not None and cell.steadiest.margin_mm > 7.0


@pytest.mark.rule("T06")
def test_T06_a_lying_cylinder_may_overhang_a_neighbour_of_the_same_height(
    model: TowerModel,
) -> None:
    tower = pair(model)
    found = placement_map(model, tower, "orange-cylinder", "red-cube")
    region = as_geometry(found.faces["side"][90].region)
    reach = shapely.intersection(region, shapely.box(-60, -1, 60, 1)).bounds[2]
    # The neighbour's edge lies 12.7 mm from the target's centre; the cylinder, 10 mm in
    # radius, comes within 0.1 mm of it once its lowest line is sqrt(2 r d + d^2) away.
    assert reach == pytest.approx(12.7 - np.sqrt(2 * 10 * 0.1 + 0.01), abs=0.1)
    probe = PoseProbe(model, tower)
    for x, ok in ((reach - 0.3, True), (reach + 0.3, False)):
        placement = Placement("orange-cylinder", "side", 90.0, (x / 1000, 0.0), "red-cube")
        assert passes(probe, placement) == ok
    assert sorted(found.faces["round"]) == [0]


@pytest.mark.rule("T06")
def test_T06_a_piece_under_an_overhanging_arch_must_clear_it(model: TowerModel) -> None:
    tower = bridge(model)
    found = placement_map(model, tower, "orange-cube", "blue-beam")
    region = as_geometry(found.faces["bottom"][0].region)
    # The beam (turned a quarter: its frame's x is the world's y) lies across world x = 22.5
    # to 37.5 mm; the arch's foot, 20 mm wide, ends 10 mm above it at world x = 30 mm, the
    # beam's frame y = 0.  A cube clears it beyond 22.6 mm along the beam, or on the far side.
    for x, y in ((0.0, 0.0), (0.0, 5.0), (20.0, 0.0)):
        assert not region.contains(shapely.Point(x, y))
    for x, y in ((24.0, 0.0), (0.0, -13.0), (-30.0, 10.0)):
        assert region.contains(shapely.Point(x, y))


@pytest.mark.rule("T06")
def test_T06_on_the_table_the_region_is_the_square_less_the_pieces_there(
    model: TowerModel,
) -> None:
    empty = placement_map(model, [], "red-arch", TABLE)
    square = as_geometry(empty.faces["feet"][0].region)
    assert square.area == pytest.approx((2 * LIMIT_MM) ** 2)
    tower = stack(model, [Placement("red-cube", "bottom", 0.0, (0.0, 0.0), TABLE)])
    beside = as_geometry(placement_map(model, tower, "blue-cube", TABLE).faces["bottom"][0].region)
    assert not beside.contains(shapely.Point(0.0, 0.0))
    assert beside.contains(shapely.Point(25.3, 0.0)) and not beside.contains(shapely.Point(24.9, 0))


@pytest.mark.rule("TD13")
def test_TD13_the_steadiest_pose_is_safe_and_its_margin_is_the_static_rulings(
    model: TowerModel,
) -> None:
    tower = bridge(model)
    found = placement_map(model, tower, "orange-arch", "red-arch")
    assert sorted(found.faces["side"]) == list(range(0, 360, 15))
    checked = 0
    for face, turns in found.faces.items():
        for turn, cell in turns.items():
            if cell.steadiest is None:
                assert not cell.safe
                continue
            best = cell.steadiest
            assert as_geometry(cell.safe).contains(shapely.Point(best.x_mm, best.y_mm))
            placement = Placement(
                "orange-arch", face, float(turn), (best.x_mm / 1000, best.y_mm / 1000), "red-arch"
            )
            _, margin = rule_with_margin(model, tower, placement, Tremor(), forced=False)
            assert best.margin_mm == pytest.approx(margin * 1000, abs=1e-3)
            checked += 1
    assert checked >= 12
    # Without asking the ruling, the search's own margins are the ruling's.
    unconfirmed = placement_map(model, tower, "orange-arch", "red-arch", confirm=False)
    for face, turns in found.faces.items():
        for turn, cell in turns.items():
            mine = unconfirmed.faces[face][turn].steadiest
            if cell.steadiest is None:
                assert mine is None
                continue
            assert mine is not None and (mine.x_mm, mine.y_mm) == (
                cell.steadiest.x_mm,
                cell.steadiest.y_mm,
            )
            assert mine.margin_mm == pytest.approx(cell.steadiest.margin_mm, abs=2e-3)


@pytest.mark.rule("TD13")
def test_TD13_the_map_as_json(model: TowerModel) -> None:
    tower = pair(model)
    found = placement_map(model, tower, "orange-prism", "blue-cube")
    doc = found.to_json()
    assert set(doc) == {"target", "forced", "faces"} and doc["target"] == "blue-cube"
    assert sorted(doc["faces"]) == ["rect", "triangle"]
    assert sorted(doc["faces"]["triangle"], key=int) == [str(t) for t in range(0, 120, 15)]
    cell: dict[str, Any] = doc["faces"]["rect"]["0"]
    assert set(cell) == {"regions", "safe", "steadiest"}
    ring = cell["regions"][0][0]
    assert all(len(point) == 2 and round(point[0], 1) == point[0] for point in ring)
    assert shapely.Polygon(ring).exterior.is_ccw
    assert set(cell["steadiest"]) == {"x_mm", "y_mm", "margin_mm"}
    numbered = PlacementMap(found.target, found.forced, found.faces, index=7).to_json()
    assert numbered["index"] == 7


@pytest.mark.rule("T06")
def test_T06_a_forced_gift_has_no_regions(model: TowerModel) -> None:
    tower = pair(model)
    found = placement_map(model, tower, "orange-cube", "red-cube", forced=True)
    assert found.forced and not found.faces
    assert found.to_json() == {"target": "red-cube", "forced": True, "faces": {}}


def test_bad_requests_name_the_piece_and_the_target(model: TowerModel) -> None:
    tower = pair(model)
    for piece, target in (("nope", "red-cube"), ("red-cube", "blue-cube"), ("red-arch", "x")):
        with pytest.raises(PlacementMapError) as error:
            placement_map(model, tower, piece, target)
        assert piece in str(error.value) and target in str(error.value)


@pytest.mark.rule("T06")
def test_T06_regions_that_all_vanish_on_the_grid_are_empty_not_an_error() -> None:
    """Found by a 600-game ladder: when every region of a face is thinner than the grid
    (its safe region shrunk to slivers), the rounding met no ring at all and failed."""
    from splash.physics.placement_map import _rounded

    sliver = shapely.box(0.0, 0.0, 0.01, 0.01)
    polygons, geometries = _rounded([sliver, shapely.Polygon()])
    assert polygons == [(), ()] and list(geometries) == [None, None]
    polygons, _ = _rounded([shapely.box(0.0, 0.0, 1.0, 1.0), sliver])
    assert polygons[1] == () and len(polygons[0]) == 1
