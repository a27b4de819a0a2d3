"""The planner bot of Splash! (TD13, TD14): simulated placements and gifts."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pytest

from splash.bots import make_bot
from splash.bots.tower_planner import TowerPlannerBot
from splash.bots.tower_random import RandomTowerBot
from splash.core.actions import Action
from splash.core.errors import OptionError
from splash.core.outcomes import RandomOutcomes, RoutedOutcomes
from splash.core.play import Agent, play
from splash.core.protocol import State
from splash.games.tower import TowerState, rules
from splash.games.tower.scenario import position
from splash.physics.placement import Steadiness
from splash.physics.provider import (
    PhysicsOutcomes,
    physics_game,
    placement_of,
    rests_of,
    shared_model,
)
from splash.physics.ruling import rule

Pose = dict[str, object]


def pose(face: str, x_mm: float = 0.0) -> Pose:
    """A placement pose, unturned, ``x_mm`` along the target's forward direction."""
    return {"kind": "place", "face": face, "rotation_deg": 0.0, "x_mm": x_mm, "y_mm": 0.0}


def tipped() -> TowerState:
    """red-beam flat on the table, red-cube on its left end, purple-beam standing on end on
    its right end (65 mm high); seat 1 is to give: blue-cube would go on red-cube (easy),
    purple-cylinder on the tip of purple-beam (hard)."""
    game = physics_game([("options.players", 2)])
    state = position(
        game,
        reserves={
            0: "red-beam purple-beam yellow-cube",
            1: "red-cube blue-cube purple-cylinder orange-arch",
        },
    )
    physics = PhysicsOutcomes(0)
    for gift, where in (
        ("red-beam", pose("flat")),
        ("red-cube", pose("bottom", -12.5)),
        ("purple-beam", pose("end", 12.5)),
    ):
        state.apply({"kind": "give", "piece": gift})
        state.apply(where)
        state.apply(physics.outcome(state))
    assert state.tower.ids() == ("red-beam", "red-cube", "purple-beam")
    assert state.giver == 1 and rules.legal_gifts(state) == ["blue-cube", "purple-cylinder"]
    return state


def stand_rate(state: TowerState, chosen: Mapping[str, object], count: int = 8) -> float:
    """The share of ``count`` rulings (default hand, an independent generator) that stood."""
    model = shared_model(state.tower_game.catalogue)
    rng = np.random.default_rng(1234)
    hand = Steadiness(0.5, 1.0, 0.5)
    placement = placement_of(state, state.game.parse_action(chosen))
    assert state.gift is not None
    stood = [
        rule(
            model,
            rests_of(state),
            placement,
            hand.sample(rng),
            forced=rules.forced(state, state.gift),
        ).result
        == "stood"
        for _ in range(count)
    ]
    return sum(stood) / count


@pytest.mark.rule("TD13", "T06")
def test_a_standing_pose_is_chosen_where_off_centre_falls() -> None:
    state = tipped()
    state.apply({"kind": "give", "piece": "purple-cylinder"})
    assert stand_rate(state, pose("round")) >= 0.9
    assert stand_rate(state, pose("round", 8.0)) <= 0.5
    assert stand_rate(state, pose("side")) <= 0.5
    for seed in range(2):
        chosen = TowerPlannerBot(seed).placement(state)
        assert state.why_illegal(chosen) is None
        assert stand_rate(state, chosen) >= 0.9


@pytest.mark.rule("TD13", "T06")
def test_the_candidates_are_the_steadiest_poses_of_the_map_ranked_by_margin() -> None:
    state = tipped()
    state.apply({"kind": "give", "piece": "blue-cube"})
    planner = TowerPlannerBot(3, candidates=4)
    steadiest = planner.steadiest_poses(state, "blue-cube")
    margins = [margin for margin, _ in steadiest]
    assert len(steadiest) == 6  # a cube: one face, turns of 0 to 75 degrees
    assert margins == sorted(margins, reverse=True) and margins[-1] > 0.0
    # The least margin on the path is the red beam's, 15 mm wide under the whole load.
    assert 7.0 < margins[0] <= 7.5
    chosen = planner.placement(state)
    assert chosen in [found for _, found in steadiest[:4]]
    assert {str(pose["face"]) for pose, _ in planner.last} <= {"bottom"}
    assert stand_rate(state, chosen) >= 0.9
    unplanned = TowerPlannerBot(3, candidates=4, from_map=False).placement(state)
    assert state.why_illegal(unplanned) is None


@pytest.mark.rule("TD13", "T06")
def test_a_planner_ruling_statically_chooses_a_pose_the_simulation_keeps_up() -> None:
    state = tipped()
    state.apply({"kind": "give", "piece": "purple-cylinder"})
    for seed in range(2):
        bot = TowerPlannerBot(seed, samples=4, candidates=8, ruling="statics")
        chosen = bot.placement(state)
        assert state.why_illegal(chosen) is None
        assert stand_rate(state, chosen) >= 0.9
        assert all(rate == 0.0 for pose, rate in bot.last if pose["face"] == "side")


def test_the_ruling_parameter_is_checked() -> None:
    assert TowerPlannerBot(1).ruling == "simulation"
    bot = make_bot("planner:samples=2,ruling=statics", 1)
    assert isinstance(bot, TowerPlannerBot) and bot.ruling == "statics" and bot.samples == 2
    with pytest.raises(OptionError) as error:
        TowerPlannerBot(1, ruling="guess")
    assert (error.value.key, error.value.value) == ("ruling", "guess")
    with pytest.raises(OptionError):
        make_bot("planner:ruling=guess", 1)


@pytest.mark.rule("T07")
def test_the_giver_gives_the_hard_piece() -> None:
    state = tipped()
    for seed in range(3):
        bot = TowerPlannerBot(seed)
        assert bot.act(state).param("piece") == "purple-cylinder"
        assert bot.gift_values["purple-cylinder"] > bot.gift_values["blue-cube"]


def test_choices_are_deterministic_for_a_seed() -> None:
    state = tipped()
    assert TowerPlannerBot(3).act(state) == TowerPlannerBot(3).act(state)
    state.apply({"kind": "give", "piece": "purple-cylinder"})
    first, second = (TowerPlannerBot(5, samples=4, candidates=6).act(state) for _ in range(2))
    assert first == second and first.kind == "place"
    drafting = physics_game([("options.players", 2)]).new_initial_state()
    assert TowerPlannerBot(9).act(drafting) == TowerPlannerBot(9).act(drafting)


def test_the_draft_takes_varied_pieces() -> None:
    state = physics_game([("options.players", 2)]).new_initial_state()
    bot = TowerPlannerBot(2)
    for _ in range(10):
        state.apply(bot.act(state))
    catalogue = state.tower_game.catalogue
    mine = [catalogue.piece(p) for p in state.reserves[0]]
    assert len({p.shape for p in mine}) == 5
    assert len({p.colour for p in mine}) == 5


def test_parameters_are_checked() -> None:
    with pytest.raises(OptionError):
        TowerPlannerBot(1, samples=0)
    with pytest.raises(OptionError):
        TowerPlannerBot(1, candidates=-2)
    with pytest.raises(OptionError):
        TowerPlannerBot(1, steadiness=(1.0, 2.0))
    assert TowerPlannerBot(1, steadiness=(1.0, 2.0, 0.5)).steadiness == Steadiness(1.0, 2.0, 0.5)


class Checked:
    """An agent that checks that every action of ``bot`` is legal before it is applied."""

    def __init__(self, bot: Agent) -> None:
        self.bot = bot
        self.actions = 0

    def act(self, state: State) -> Action:
        action = self.bot.act(state)
        assert state.why_illegal(action) is None
        self.actions += 1
        return action


def match(seed: int, planner_seat: int) -> tuple[TowerState, Checked]:
    """One two-player physics game of the planner against the random bot."""
    game = physics_game([("options.players", 2)])
    children = np.random.SeedSequence(seed).spawn(4)
    outcomes = RoutedOutcomes(
        {"placement": PhysicsOutcomes(children[0])}, RandomOutcomes(children[1])
    )
    planner = Checked(TowerPlannerBot(children[2]))
    bots: list[Agent] = [RandomTowerBot(children[3]), RandomTowerBot(children[3])]
    bots[planner_seat] = planner
    state = play(game.new_initial_state(), bots, outcomes)
    assert isinstance(state, TowerState) and state.is_terminal()
    return state, planner


@pytest.mark.slow
@pytest.mark.rule("TD14", "T14", "T15")
def test_the_planner_beats_the_random_bot() -> None:
    wins = 0
    for seed in range(10):
        state, planner = match(seed, seed % 2)
        assert planner.actions > 0
        wins += state.winner == seed % 2
    assert wins >= 7
