"""Which engine plays a run: ``--engine auto|fast|reference`` and what it does to a run."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from rich.console import Console

from splash.cli.simulate_all import run_simulation
from splash.core.errors import OptionError
from splash.sim import GameSpec
from splash.sim.engines import EngineChoice, choose_engine, choose_engines
from splash.sim.runner import FAST, REFERENCE
from splash.sim.store import ResultStore
from tests.sim.conftest import CountingBackend


def test_reference_is_taken_as_asked_without_a_note(bash_spec: GameSpec) -> None:
    spec, note = choose_engine(replace(bash_spec, engine=FAST), EngineChoice.REFERENCE)
    assert spec.engine == REFERENCE
    assert note is None


def test_an_unknown_engine_is_refused(bash_spec: GameSpec) -> None:
    with pytest.raises(OptionError) as error:
        choose_engine(bash_spec, "turbo")
    assert (error.value.key, error.value.value) == ("--engine", "turbo")
    assert "auto, fast, reference" in str(error.value)


def test_splash_is_played_by_the_reference_engine_without_a_note() -> None:
    spec = GameSpec.of("tower", ["options.players=2"], ["random"])
    chosen, note = choose_engine(spec, EngineChoice.AUTO)
    assert (chosen.engine, note) == (REFERENCE, None)


def test_fast_on_splash_is_refused_with_the_reason() -> None:
    spec = GameSpec.of("tower", ["options.players=2"], ["random"])
    with pytest.raises(OptionError) as error:
        choose_engine(spec, EngineChoice.FAST)
    assert error.value.key == "--engine"
    assert "only Splash & Bash has a compiled engine" in str(error.value)


def test_every_spec_of_a_run_gets_the_same_engine(bash_spec: GameSpec) -> None:
    tower = GameSpec.of("tower", ["options.players=2"], ["random"])
    decision = choose_engines([bash_spec, tower], EngineChoice.AUTO)
    assert {spec.engine for spec in decision.specs} == {REFERENCE}


def test_a_file_of_another_engine_is_not_resumed(tmp_path: Path) -> None:
    spec = GameSpec.of("bash", ["options.turn_cap=30"], ["random"])
    out = tmp_path / "RESULTS.parquet"
    run_simulation(
        Console(quiet=True), ResultStore(out, spec), games=2, seed=0, backend=CountingBackend()
    )
    with pytest.raises(OptionError) as error:
        ResultStore(out, replace(spec, engine=FAST))
    assert (error.value.key, error.value.value) == ("--engine", FAST)
    assert 'engine "reference"' in str(error.value)
