"""How often one client address may create rooms: a moving one-minute window (``limits``).

The counts live in the memory of the process, like the rooms themselves (one process per
database); a restart starts every address afresh.
"""

from __future__ import annotations

import math
import time

from limits import RateLimitItemPerMinute
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter


class CreationThrottle:
    """At most ``per_minute`` room creations per client address in any 60 seconds."""

    def __init__(self, per_minute: int) -> None:
        self.per_minute = per_minute
        self._item = RateLimitItemPerMinute(per_minute)
        self._limiter = MovingWindowRateLimiter(MemoryStorage())

    def hit(self, address: str) -> int | None:
        """Count one creation by ``address``: ``None`` when allowed, else the seconds to
        wait before the next one is (at least 1), and nothing is counted."""
        if self._limiter.hit(self._item, "rooms", address):
            return None
        return self.retry_after(address)

    def retry_after(self, address: str) -> int:
        """Seconds until ``address`` may create a room again (0: it may now)."""
        stats = self._limiter.get_window_stats(self._item, "rooms", address)
        if stats.remaining > 0:
            return 0
        return max(1, math.ceil(stats.reset_time - time.time()))


__all__ = ["CreationThrottle"]
