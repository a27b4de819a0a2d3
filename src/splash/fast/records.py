"""The results table of games the core played, built column by column from a :class:`RecordPlan`.

A plan holds all a batch needs besides its seeds: the core's tables as arrays, the Arrow
schema of the simulator's results, the values every row shares and where each count column
lies in the core's counts.  It is made once per spec where a run starts
(:func:`splash.sim.fast_engine.record_plan`) and pickles small, so a worker process plays a
batch and builds its records importing numpy, numba, pyarrow and the core only: not the
simulator, the bots, nor the reference rules (about a second less to start a worker).  The
Arrow arrays are made from the numpy buffers themselves (``pyarrow.Array.from_buffers``):
``pyarrow.array`` would import pandas, most of another second in a fresh worker.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from splash.fast import kernel as k
from splash.fast.batch import FloatArray, Games, IntArray, play_games


@dataclass(frozen=True)
class RecordPlan:
    """What the records of one spec's games need besides the games themselves."""

    T: IntArray
    """The core's tables (:attr:`splash.fast.tables.Tables.T`)."""
    initial: IntArray
    """The initial state as the core's array."""
    schema: Any
    """The ``pyarrow.Schema`` of the results (:func:`splash.sim.store.arrow_schema`)."""
    constants: tuple[tuple[str, str | None], ...]
    """The string columns every row shares (game, options, data, bots, engine)."""
    seats: int
    counts: tuple[tuple[str, int], ...]
    """Each plain count column and its index in :attr:`Games.counts`."""
    events: tuple[tuple[str, int], ...]
    """The event kinds in the order of the ``events`` JSON text, with their count index."""
    policies: IntArray | None = None
    """Each team's policy (:func:`splash.fast.batch.play_games`); ``None``: all random."""
    weights: FloatArray | None = None
    """The greedy teams' weights (:func:`splash.fast.greedy.weight_array`); ``None``
    without a greedy team."""

    @property
    def teams(self) -> int:
        """The number of teams."""
        return int(self.T[k.T_TEAMS])


def _numbers(
    kind: Any, values: npt.NDArray[Any], valid: npt.NDArray[np.bool_] | None = None
) -> Any:
    """An Arrow array of ``kind`` over ``values`` (copied only when not contiguous); null
    where ``valid`` is false."""
    data = np.ascontiguousarray(values)
    if valid is None:
        return pa.Array.from_buffers(kind, data.shape[0], [None, pa.py_buffer(data)], 0)
    bitmap = pa.py_buffer(np.packbits(valid, bitorder="little"))
    nulls = int(data.shape[0] - np.count_nonzero(valid))
    return pa.Array.from_buffers(kind, data.shape[0], [bitmap, pa.py_buffer(data)], nulls)


def _booleans(values: npt.NDArray[np.bool_]) -> Any:
    bits = pa.py_buffer(np.packbits(values, bitorder="little"))
    return pa.Array.from_buffers(pa.bool_(), values.shape[0], [None, bits], 0)


def _strings(texts: Sequence[str]) -> Any:
    encoded = [text.encode() for text in texts]
    offsets = np.zeros(len(encoded) + 1, np.int32)
    np.cumsum([len(b) for b in encoded], out=offsets[1:])
    data = pa.py_buffer(b"".join(encoded))
    return pa.Array.from_buffers(pa.string(), len(encoded), [None, pa.py_buffer(offsets), data], 0)


def _constant(value: str | None, n: int) -> Any:
    if value is None:
        return pa.nulls(n, pa.string())
    return _strings([value] * n)


def _events_json(plan: RecordPlan, counts: npt.NDArray[np.int64]) -> list[str]:
    names = [name for name, _ in plan.events]
    rows: list[list[int]] = counts[:, [index for _, index in plan.events]].tolist()
    return [
        "{" + ", ".join(f'"{names[j]}": {v}' for j, v in enumerate(row) if v) + "}" for row in rows
    ]


def _trace_array(games: Games, teams: int) -> Any:
    values = _numbers(pa.float32(), games.trace.astype(np.float32, copy=False))
    rows = games.trace.shape[0] // teams
    inner = pa.ListArray.from_arrays(
        _numbers(pa.int32(), np.arange(rows + 1, dtype=np.int32) * teams), values
    )
    outer_offsets = (games.trace_offsets // teams).astype(np.int32)
    return pa.ListArray.from_arrays(_numbers(pa.int32(), outer_offsets), inner)


def _column(plan: RecordPlan, games: Games, name: str) -> Any:
    n = games.seeds.shape[0]
    counts = games.counts
    winner = counts[:, k.C_SIZE]
    no_winner = winner < 0
    if name == "seed":
        return _numbers(pa.int64(), games.seeds.astype(np.int64, copy=False))
    if name == "seats":
        return _numbers(pa.int64(), np.full(n, plan.seats, np.int64))
    if name in ("winner", "winner_team"):
        return _numbers(pa.int64(), winner, ~no_winner)
    if name == "turns":
        return _numbers(pa.int64(), counts[:, k.C_SIZE + 1] + (~no_winner).astype(np.int64))
    if name == "turn_cap":
        return _booleans(no_winner)
    if name == "events":
        return _strings(_events_json(plan, counts))
    if name == "trace":
        return _trace_array(games, plan.teams)
    raise KeyError(f"the fast core has no column {name!r}")


def games_table(plan: RecordPlan, games: Games) -> Any:
    """The results table of ``games`` (played by the core from ``plan``), in the plan's
    schema."""
    n = games.seeds.shape[0]
    constants = dict(plan.constants)
    count_at = dict(plan.counts)
    arrays = []
    for name in plan.schema.names:
        if name in constants:
            arrays.append(_constant(constants[name], n))
        elif name in count_at:
            arrays.append(_numbers(pa.int64(), games.counts[:, count_at[name]]))
        else:
            arrays.append(_column(plan, games, name))
    return pa.Table.from_arrays(arrays, schema=plan.schema)


def plan_table(plan: RecordPlan, seeds: Sequence[int]) -> Any:
    """Play one game per seed from ``plan`` (its teams by its policies) and return their
    results table."""
    games = play_games(plan, list(seeds), policies=plan.policies, weights=plan.weights)
    return games_table(plan, games)
