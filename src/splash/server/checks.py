"""The ``check`` message: whether the rules would take an action now, asked before it is
sent (a Splash! pose while the piece is moved: T06 refuses one that would touch anything
but its target).

The answer is the rules engine's own: :meth:`~splash.core.protocol.State.why_illegal`, the
test :meth:`~splash.core.protocol.State.apply` makes of every action.  Each connection may
ask at most :data:`CHECKS_PER_SECOND` checks in any second (``limits``, a moving window):
a check of a Splash! pose costs the physics thread about a millisecond (bench/tower_check.py).
"""

from __future__ import annotations

import uuid
from typing import Final

from limits import RateLimitItemPerSecond
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from splash.core.actions import Json
from splash.core.protocol import State
from splash.server.options import Member
from splash.server.protocol import envelope

CHECKS_PER_SECOND: Final = 20
"""How many ``check`` messages one connection may send in any second."""


class CheckThrottle:
    """At most ``per_second`` checks per connection in any second."""

    def __init__(self, per_second: int = CHECKS_PER_SECOND) -> None:
        self.per_second = per_second
        self._item = RateLimitItemPerSecond(per_second)
        self._limiter = MovingWindowRateLimiter(MemoryStorage())

    def hit(self, member: Member) -> bool:
        """Count one check of ``member``: whether it is allowed (a refused one is not
        counted)."""
        key = member.extra.setdefault("check_key", uuid.uuid4().hex)
        return bool(self._limiter.hit(self._item, "checks", str(key)))


THROTTLE: Final = CheckThrottle()
"""The throttle of every connection of the process."""


def check_answer(
    state: State, action: Json, *, index: int, locale: str, ref: Json
) -> dict[str, Json]:
    """The ``check`` answer for ``action`` in ``state`` (the log at ``index``): ``ok``, and
    ``why`` the rules refuse it (in ``locale``) or ``null``."""
    why = state.why_illegal(action)
    return envelope(
        "check",
        ref=ref,
        index=index,
        ok=why is None,
        why=None if why is None else why.render(locale),
    )


__all__ = ["CHECKS_PER_SECOND", "THROTTLE", "CheckThrottle", "check_answer"]
