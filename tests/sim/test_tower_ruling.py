"""``physics.ruling``: the physics layer's setting that chooses the simulation or the static
check, given like any other setting to the runner, the ladder and ``splash tower simulate``."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from splash.cli.main import app
from splash.core.errors import OptionError
from splash.physics.games import placement_outcomes
from splash.physics.provider import PhysicsOutcomes, physics_game
from splash.physics.settings import PhysicsSettings, physics_settings
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
def test_splash_tower_simulate_plays_with_the_static_ruling(tmp_path: Path) -> None:
    runner = CliRunner(env={"COLUMNS": "120", "LANG": "en_GB.UTF-8"})
    out = tmp_path / "r.parquet"
    args = ["tower", "simulate", "--games", "2", "--players", "2", "--seed", "4"]
    result = runner.invoke(app, [*args, "--workers", "1", "--set", STATICS, "--out", str(out)])
    assert result.exit_code == 0, result.output
    frame = pd.read_parquet(out)
    assert sorted(frame["seed"]) == [4, 5]
    assert json.loads(frame["options"][0]) == {"options.players": 2, "physics.ruling": "statics"}
    assert list(frame["spontaneous"]) == [0, 0]  # the static check never says spontaneous
    again = run_one(GameSpec.of("tower", ["options.players=2", STATICS]), 4)
    first = frame[frame["seed"] == 4].iloc[0]
    assert int(first["turns"]) == again["turns"] and first["events"] == again["events"]
    with pytest.raises(OptionError):
        physics_game([("physics.ruling", "maybe")])


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
