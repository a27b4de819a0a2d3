"""``physics.ruling``: the physics layer's setting that chooses the simulation or the static
check, given like any other setting to the runner, the ladder and ``splash tower simulate``."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest
from rich.console import Console
from typer.testing import CliRunner

from splash.cli import tower_simulate
from splash.cli.main import app
from splash.core.errors import OptionError
from splash.physics.provider import (
    PhysicsOutcomes,
    PhysicsSettings,
    physics_game,
    physics_settings,
    placement_outcomes,
)
from splash.physics.static_outcomes import StaticOutcomes
from splash.sim.backends import Sequential
from splash.sim.ladder import LadderSpec, play_ladder
from splash.sim.runner import GameSpec, run_one

STATICS = "physics.ruling=statics"


def test_the_setting_is_read_and_checked() -> None:
    assert physics_settings([]) == PhysicsSettings("simulation")
    assert physics_settings([("options.players", 3), ("physics.ruling", "statics")]).ruling == (
        "statics"
    )
    with pytest.raises(OptionError) as error:
        physics_settings([("physics.ruling", "dynamics")])
    assert (error.value.key, error.value.value) == ("physics.ruling", "dynamics")
    assert "simulation, statics" in str(error.value)
    with pytest.raises(OptionError) as error:
        physics_settings([("physics.solver", "fast")])
    assert (error.value.key, error.value.value) == ("physics.solver", "fast")
    with pytest.raises(OptionError):
        physics_settings([("physics.ruling", 3)])


def test_the_provider_is_the_one_the_setting_names() -> None:
    assert type(placement_outcomes([], 1)) is PhysicsOutcomes
    assert type(placement_outcomes([("physics.ruling", "simulation")], 1)) is PhysicsOutcomes
    assert type(placement_outcomes([("physics.ruling", "statics")], 1)) is StaticOutcomes
    with pytest.raises(OptionError):
        placement_outcomes([("physics.ruling", "guess")], 1)


def test_the_rules_engine_never_sees_the_physics_settings() -> None:
    game = physics_game([("options.players", 2), ("physics.ruling", "statics")])
    assert game.options.players == 2
    assert game.fits is not None
    with pytest.raises(OptionError) as error:
        physics_game([("physics.ruling", "wobbly")])
    assert error.value.key == "physics.ruling"
    with pytest.raises(OptionError):
        physics_game([("options.ruling", "statics")])


def test_a_spec_keeps_the_setting_and_refuses_a_bad_one() -> None:
    spec = GameSpec.of("tower", ["options.players=2", STATICS], ["random"])
    assert json.loads(spec.options)["physics.ruling"] == "statics"
    with pytest.raises(OptionError) as error:
        GameSpec.of("tower", ["physics.ruling=fast"], ["random"])
    assert (error.value.key, error.value.value) == ("physics.ruling", "fast")


@pytest.mark.slow
def test_a_statics_game_runs_and_repeats() -> None:
    spec = GameSpec.of("tower", ["options.players=2", STATICS], ["random"])
    first = run_one(spec, 3)
    assert first == run_one(spec, 3)
    assert first["winner"] in (0, 1) and int(str(first["turns"])) > 0


@pytest.mark.slow
def test_splash_tower_simulate_plays_with_the_static_ruling() -> None:
    game, assignments = tower_simulate.load_game([STATICS], 2)
    assert game.options.players == 2
    specs = tower_simulate.seat_specs([], 2)
    console = Console(quiet=True)
    results = tower_simulate.run(console, game, games=2, seed=4, specs=specs, physics=assignments)
    assert [r.seed for r in results] == [4, 5]
    again = tower_simulate.play_game(game, 4, specs, physics=assignments)
    assert replace(results[0], seconds=0.0) == replace(again, seconds=0.0)
    assert all(r.spontaneous == 0 for r in results)  # the static check never says spontaneous
    with pytest.raises(OptionError):
        tower_simulate.load_game(["physics.ruling=maybe"], 2)


def test_splash_simulate_takes_the_setting_from_the_command_line() -> None:
    runner = CliRunner(env={"COLUMNS": "120", "LANG": "en_GB.UTF-8"})
    args = ["simulate", "tower", "--games", "1", "--workers", "1", "--set", "options.players=2"]
    bad = runner.invoke(app, [*args, "--set", "physics.ruling=dice"])
    assert bad.exit_code != 0
    assert "physics.ruling" in bad.output and "dice" in bad.output


@pytest.mark.slow
def test_a_small_tower_ladder_with_the_static_ruling() -> None:
    bots = ["random", "planner:samples=1,candidates=2,ruling=statics"]
    spec = LadderSpec.of("tower", [STATICS], bots, 2, 7)
    assert json.loads(spec.options) == {"options.players": 2, "physics.ruling": "statics"}
    ladder = play_ladder(spec, Sequential())
    assert len(ladder.results) == 2
    assert sorted(f.seats for f in (r.fixture for r in ladder.results)) == [(0, 1), (1, 0)]
    (step,) = ladder.steps()
    assert step.games == 2
    assert [line.games for line in ladder.table()] == [2, 2]
    assert np.isfinite(step.elo_difference)
