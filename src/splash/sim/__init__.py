"""The simulation runner: bot games as pure functions of (spec, seed), run on a backend
(sequential, local processes, Dask) and stored as Parquet, one row per game; the statistics
of bot matches (:mod:`splash.sim.stats`) that its summaries, its ladder and the reports
of :mod:`splash.report` share."""

from splash.sim.runner import SIMULATED, GameSpec, Record, run_one

__all__ = ["SIMULATED", "GameSpec", "Record", "run_one"]
