"""Shared pieces of the simulation tests."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import pyarrow as pa
import pytest

from splash.sim import GameSpec, Record, run_one
from splash.sim.backends import batches
from splash.sim.schema import arrow_schema


@pytest.fixture(scope="session")
def bash_spec() -> GameSpec:
    return GameSpec.of("bash", [], ["random"])


class CountingBackend:
    """Plays in this process and remembers the seeds it played; stops after ``stop_after``
    games with a KeyboardInterrupt, as Ctrl-C would."""

    def __init__(self, stop_after: int | None = None) -> None:
        self.played: list[int] = []
        self.stop_after = stop_after
        self.closed = False

    def map(self, spec: GameSpec, seeds: Sequence[int]) -> Iterator[Record]:
        for seed in seeds:
            if self.stop_after is not None and len(self.played) >= self.stop_after:
                raise KeyboardInterrupt
            self.played.append(seed)
            yield run_one(spec, seed)

    def tables(self, spec: GameSpec, seeds: Sequence[int]) -> Iterator[Any]:
        for batch in batches(spec, seeds):
            records = list(self.map(spec, batch))
            yield pa.Table.from_pylist(records, schema=arrow_schema(spec))

    def close(self) -> None:
        self.closed = True
