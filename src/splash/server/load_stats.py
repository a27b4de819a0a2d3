"""What the server's process spends its time waiting on: event-loop lag and GC pauses.

:class:`LoopLag` is a task that sleeps 10 ms again and again and records how late each
sleep wakes (a late wake is time a room's ``ack`` also waited for); :class:`GcPauses` times
every garbage collection through :data:`gc.callbacks`.  Both keep a bounded recent history,
so that ``/api/health/load`` can say where a latency tail comes from.  :func:`freeze_heap`
keeps the full collections short.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Final

import numpy as np

LAG_PERIOD_S: Final = 0.010
"""How long the lag monitor sleeps each time."""

HISTORY: Final = 20_000
"""How many recent samples each monitor keeps."""


def _quantile_ms(values: deque[float], q: float) -> float:
    return float(np.percentile(np.fromiter(values, float), q)) * 1000 if values else 0.0


FULL_COLLECTION_EVERY: Final = 100
"""Generation-1 collections between two full ones (Python's default is 10)."""


def freeze_heap() -> None:
    """Move every object alive now (the modules, the server's start-up) out of the
    collector's sight: later full collections scan only what came after, instead of
    pausing the event loop for the whole heap (hundreds of milliseconds with 200 rooms).

    A full collection also waits ten times as long as Python's default
    (:data:`FULL_COLLECTION_EVERY`): the games' logs and states are long-lived, and each
    full pass over them stops every room at once.

    Call once, after start-up and before games are resumed: what is frozen is never
    collected, so it must be what lives as long as the process anyway.
    """
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_COLLECTION_EVERY)


@dataclass
class LoopLag:
    """How late a 10-ms sleep on the event loop wakes; :meth:`start` in the running loop."""

    lateness: deque[float] = field(default_factory=lambda: deque(maxlen=HISTORY))
    _task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start measuring (in the running event loop)."""
        self._task = asyncio.create_task(self._run(), name="loop-lag")

    async def stop(self) -> None:
        """Stop measuring."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        while True:
            asked = time.perf_counter()
            await asyncio.sleep(LAG_PERIOD_S)
            self.lateness.append(max(0.0, time.perf_counter() - asked - LAG_PERIOD_S))

    def reset(self) -> None:
        """Forget the samples so far."""
        self.lateness.clear()


@dataclass
class GcPauses:
    """The duration of every garbage collection, by generation; :meth:`install` it."""

    pauses: dict[int, deque[float]] = field(
        default_factory=lambda: {g: deque(maxlen=HISTORY) for g in range(3)}
    )
    _started: float = 0.0

    def install(self) -> None:
        """Time every collection from now on."""
        gc.callbacks.append(self._callback)

    def uninstall(self) -> None:
        """Stop timing collections."""
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._callback)

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.pauses[info["generation"]].append(time.perf_counter() - self._started)

    def reset(self) -> None:
        """Forget the pauses so far."""
        for values in self.pauses.values():
            values.clear()


@dataclass
class LoadStats:
    """The process's monitors together."""

    lag: LoopLag = field(default_factory=LoopLag)
    gc: GcPauses = field(default_factory=GcPauses)

    def start(self) -> None:
        """Start both monitors (in the running event loop)."""
        self.lag.start()
        self.gc.install()

    async def stop(self) -> None:
        """Stop both monitors."""
        self.gc.uninstall()
        await self.lag.stop()

    def reset(self) -> None:
        """Forget every sample so far."""
        self.lag.reset()
        self.gc.reset()

    def lag_ms(self, q: float) -> float:
        """The ``q`` percentile of the loop's lateness, in milliseconds."""
        return _quantile_ms(self.lag.lateness, q)

    def gc_count(self, generation: int) -> int:
        """How many collections of ``generation`` were timed."""
        return len(self.gc.pauses[generation])

    def gc_max_ms(self, generation: int) -> float:
        """The longest collection of ``generation``, in milliseconds."""
        values = self.gc.pauses[generation]
        return max(values) * 1000 if values else 0.0

    def gc_total_ms(self) -> float:
        """The time spent collecting, every generation, in milliseconds."""
        return sum(sum(values) for values in self.gc.pauses.values()) * 1000


__all__ = [
    "FULL_COLLECTION_EVERY",
    "HISTORY",
    "LAG_PERIOD_S",
    "GcPauses",
    "LoadStats",
    "LoopLag",
    "freeze_heap",
]
