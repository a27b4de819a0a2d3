"""Many rulings at once, on a pool of threads: one :class:`~splash.physics.model.TowerModel`
(its own ``MjModel`` and ``MjData``) per thread.

MuJoCo steps with Python's lock released, so rulings of one batch simulate side by side;
their observation (numpy, between chunks) still takes turns.  Each ruling is a pure function
of its inputs (the model's state is restored before it), so a batch gives what the same
rulings give one after another, in the order given.
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from typing import TypeVar

from splash.games.tower.catalogue import Catalogue
from splash.physics.model import TowerModel

Item = TypeVar("Item")
Result = TypeVar("Result")

MAX_THREADS = 8
"""The most threads a pool uses by default."""


def available_cores() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


class ModelPool:
    """Up to ``threads`` models of ``catalogue``, each used by one ruling at a time
    (default: the cores this process may use, at most :data:`MAX_THREADS`)."""

    def __init__(self, catalogue: Catalogue, threads: int | None = None) -> None:
        self.catalogue = catalogue
        self.threads = max(1, threads or min(MAX_THREADS, available_cores()))
        self._free: queue.SimpleQueue[TowerModel] = queue.SimpleQueue()
        self._made = 0
        self._building = threading.Lock()
        self._executor: ThreadPoolExecutor | None = None

    def _model(self) -> TowerModel:
        try:
            return self._free.get_nowait()
        except queue.Empty:
            with self._building:  # one model compiled at a time
                self._made += 1
                return TowerModel(self.catalogue)

    def _run(self, work: Callable[[TowerModel, Item], Result], item: Item) -> Result:
        model = self._model()
        try:
            return work(model, item)
        finally:
            self._free.put(model)

    def map(
        self, work: Callable[[TowerModel, Item], Result], items: Sequence[Item]
    ) -> list[Result]:
        """``work(model, item)`` for each of ``items``, in order, each with a model of its
        own; an exception of ``work`` is raised here (the first in the order of ``items``)."""
        if self.threads == 1 or len(items) <= 1:
            return [self._run(work, item) for item in items]
        if self._executor is None:
            self._executor = ThreadPoolExecutor(self.threads, thread_name_prefix="ruling")
        return list(self._executor.map(lambda item: self._run(work, item), items))

    @property
    def models(self) -> int:
        """How many models the pool has built so far."""
        return self._made


@lru_cache(maxsize=4)
def shared_pool(catalogue: Catalogue) -> ModelPool:
    """One pool per catalogue, with the default number of threads."""
    return ModelPool(catalogue)
