"""Where the games of a run are played: in this process, in local processes, or on Dask.

Every backend maps :func:`~splash.sim.runner.run_one` over a list of seeds and yields the
records as the games finish (in any order), or :func:`~splash.sim.store.play_batch` over
batches of seeds and yields Arrow tables (:meth:`Backend.tables`: one game per batch on the
reference engine, thousands on the compiled core).  A game is a pure function of its spec
and seed, so the records do not depend on the backend, nor on the batches, only their order
does.

- :class:`Sequential`: one game after the other, in this process.
- :class:`LocalProcesses`: a ``concurrent.futures.ProcessPoolExecutor`` of ``workers``
  processes (started with ``spawn``: no state is inherited from this process).
- :class:`DaskBackend`: a ``distributed.Client``, connected to a scheduler at an address or
  to a ``LocalCluster`` started on 127.0.0.1 (dashboard off) and closed at the end.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, Protocol, TypeVar

from splash.core.errors import OptionError
from splash.core.i18n import message
from splash.sim.runner import FAST, GameSpec, Record, run_one

IN_FLIGHT_PER_WORKER = 4
"""Tasks (games, or batches of games) submitted ahead per worker process (the rest wait in
this process)."""

Item = TypeVar("Item")
Result = TypeVar("Result")


def batches(spec: GameSpec, seeds: Sequence[int]) -> list[list[int]]:
    """``seeds`` cut into the batches one task plays (:func:`splash.sim.store.batch_size`)."""
    from splash.sim.store import batch_size

    size = batch_size(spec)
    return [list(seeds[start : start + size]) for start in range(0, len(seeds), size)]


def _play_batch(spec: GameSpec, seeds: Sequence[int]) -> Any:
    from splash.sim.store import play_batch

    return play_batch(spec, seeds)


def _rows(tables: Iterator[Any]) -> Iterator[Record]:
    for table in tables:
        rows: list[Record] = table.to_pylist()
        yield from rows


def cpu_count() -> int:
    """The CPUs this process may run on (at least 1)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


class Backend(Protocol):
    """Plays the games of a spec for a list of seeds."""

    def map(self, spec: GameSpec, seeds: Sequence[int]) -> Iterator[Record]:
        """The record of each seed's game, as the games finish."""
        ...

    def tables(self, spec: GameSpec, seeds: Sequence[int]) -> Iterator[Any]:
        """The records of the games of ``seeds`` as Arrow tables, a batch each, as the
        batches finish."""
        ...

    def close(self) -> None:
        """Release what the backend holds (processes, connections)."""
        ...


class Sequential:
    """Every game in this process, one after the other, in seed order."""

    def map(self, spec: GameSpec, seeds: Sequence[int]) -> Iterator[Record]:
        """The records in seed order."""
        if spec.engine == FAST:
            yield from _rows(self.tables(spec, seeds))
            return
        for seed in seeds:
            yield run_one(spec, seed)

    def tables(self, spec: GameSpec, seeds: Sequence[int]) -> Iterator[Any]:
        """The batches in seed order."""
        for batch in batches(spec, seeds):
            yield _play_batch(spec, batch)

    def close(self) -> None:
        """Nothing to release."""


def _check_workers(workers: int) -> int:
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise OptionError("--workers", workers, message("must be a whole number >= 1"))
    return workers


class LocalProcesses:
    """Games in ``workers`` local processes (default: the CPU count)."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = _check_workers(workers if workers is not None else cpu_count())
        self._executor: ProcessPoolExecutor | None = None

    def map(self, spec: GameSpec, seeds: Sequence[int]) -> Iterator[Record]:
        """The records as the processes finish them; at most a few games per process are
        submitted ahead, and an interruption cancels those not started."""
        if spec.engine == FAST:
            return _rows(self.tables(spec, seeds))
        return self._results(run_one, spec, seeds)

    def tables(self, spec: GameSpec, seeds: Sequence[int]) -> Iterator[Any]:
        """The batches as the processes finish them, a few per process submitted ahead."""
        return self._results(_play_batch, spec, batches(spec, seeds))

    def _results(
        self, work: Callable[[GameSpec, Item], Result], spec: GameSpec, items: Sequence[Item]
    ) -> Iterator[Result]:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=multiprocessing.get_context("spawn")
            )
        executor = self._executor
        pending: set[Future[Result]] = set()
        todo = iter(items)
        limit = self.workers * IN_FLIGHT_PER_WORKER
        try:
            while True:
                for item in todo:
                    pending.add(executor.submit(work, spec, item))
                    if len(pending) >= limit:
                        break
                if not pending:
                    return
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()
        finally:
            for future in pending:
                future.cancel()

    def close(self) -> None:
        """Stop the processes (games not yet started are cancelled)."""
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None


class DaskBackend:
    """Games on a Dask cluster: the scheduler at ``address``, or, with ``local`` workers, a
    ``LocalCluster`` on 127.0.0.1 (one thread per worker, no dashboard)."""

    def __init__(self, *, address: str | None = None, local: int | None = None) -> None:
        if (address is None) == (local is None):
            raise OptionError(
                "--scheduler", address, message("give either --scheduler or --dask local")
            )
        from distributed import Client, LocalCluster

        self._cluster: Any = None
        if local is not None:
            self._cluster = LocalCluster(
                n_workers=_check_workers(local),
                threads_per_worker=1,
                host="127.0.0.1",
                dashboard_address=None,
            )
            self._client: Any = Client(self._cluster)
        else:
            try:
                self._client = Client(address)
            except (OSError, ValueError, TypeError) as error:
                raise OptionError(
                    "--scheduler",
                    address,
                    message("cannot connect: {error}", error=str(error)),
                ) from None

    def map(self, spec: GameSpec, seeds: Sequence[int]) -> Iterator[Record]:
        """The records as the workers finish them; an interruption cancels the rest."""
        if spec.engine == FAST:
            return _rows(self.tables(spec, seeds))
        return self._results(run_one, spec, list(seeds))

    def tables(self, spec: GameSpec, seeds: Sequence[int]) -> Iterator[Any]:
        """The batches as the workers finish them; an interruption cancels the rest."""
        return self._results(_play_batch, spec, batches(spec, seeds))

    def _results(
        self, work: Callable[[GameSpec, Item], Result], spec: GameSpec, items: list[Item]
    ) -> Iterator[Result]:
        from distributed import as_completed

        futures = self._client.map(work, [spec] * len(items), items, pure=False)
        try:
            for future in as_completed(futures):
                yield future.result()
        finally:
            self._client.cancel(futures)

    def close(self) -> None:
        """Close the client (and the local cluster, when this backend started one)."""
        self._client.close()
        if self._cluster is not None:
            self._cluster.close()
