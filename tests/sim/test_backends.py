"""The results do not depend on the backend: this process, local processes, Dask."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from distributed import LocalCluster

from splash.core.errors import OptionError
from splash.sim import GameSpec, Record, run_one
from splash.sim.backends import DaskBackend, LocalProcesses, Sequential

SEEDS = [3, 1, 4, 15, 9, 2]


def by_seed(records: Iterator[Record]) -> list[Record]:
    return sorted(records, key=lambda r: int(str(r["seed"])))


@pytest.fixture(scope="module")
def sequential(bash_spec: GameSpec) -> list[Record]:
    return by_seed(Sequential().map(bash_spec, SEEDS))


def test_a_game_is_a_function_of_its_seed(bash_spec: GameSpec) -> None:
    assert run_one(bash_spec, 7) == run_one(bash_spec, 7)
    assert run_one(bash_spec, 7) != run_one(bash_spec, 8)


def test_local_processes_give_the_sequential_results(
    bash_spec: GameSpec, sequential: list[Record]
) -> None:
    backend = LocalProcesses(2)
    try:
        assert by_seed(backend.map(bash_spec, SEEDS)) == sequential
    finally:
        backend.close()


def test_dask_gives_the_local_results(bash_spec: GameSpec, sequential: list[Record]) -> None:
    cluster = LocalCluster(
        n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address=None
    )
    with cluster:
        backend = DaskBackend(address=cluster.scheduler_address)
        try:
            assert by_seed(backend.map(bash_spec, SEEDS)) == sequential
        finally:
            backend.close()


def test_workers_must_be_a_positive_number() -> None:
    with pytest.raises(OptionError, match="--workers"):
        LocalProcesses(0)


def test_dask_needs_one_way_to_a_cluster() -> None:
    with pytest.raises(OptionError, match="--scheduler"):
        DaskBackend()
    with pytest.raises(OptionError, match="--scheduler"):
        DaskBackend(address="tcp://127.0.0.1:1", local=2)
