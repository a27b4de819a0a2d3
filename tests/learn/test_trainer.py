"""A training run in worker processes depends on its seed, workers and games alone, and a
run stopped by the clock goes on, on the same file, to the same agent."""

from __future__ import annotations

import pickle
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from splash.core.errors import OptionError
from splash.fast import kernel as k
from splash.fast.errors import FastLimitError
from splash.learn.td import TDSettings
from splash.learn.trainer import RunSpec, run


def test_a_run_depends_on_its_seed_workers_and_games_and_goes_on_where_it_stopped(
    tmp_path: Path,
) -> None:
    settings = TDSettings(hidden=4, games_at_once=2)
    whole = RunSpec(tmp_path / "whole.npz", 6, 9, 2, evaluation_games=2, settings=settings)
    first = run(whole)
    assert first.training.played == 6 and first.training.positions > 100
    # stopped after its first round (4 games), then gone on with to 6 games
    part = replace(whole, out=tmp_path / "part.npz", minutes=1e-9)
    stopped = run(part)
    assert stopped.training.played == 4
    resumed = run(replace(part, minutes=None))
    assert resumed.training.played == 6
    assert np.array_equal(resumed.net.params, first.net.params)
    with pytest.raises(OptionError, match="holds an agent trained with seed 9"):
        run(replace(whole, seed=10))


def test_a_limit_broken_in_a_worker_reaches_the_run_as_itself() -> None:
    error = FastLimitError(7, k.ERR_EVENTS)
    again = pickle.loads(pickle.dumps(error))
    assert isinstance(again, FastLimitError)
    assert (again.seed, again.code, str(again)) == (7, k.ERR_EVENTS, str(error))
