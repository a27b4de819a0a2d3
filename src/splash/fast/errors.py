"""The error of a game that broke one of the compiled core's fixed limits, naming the limit."""

from __future__ import annotations

from dataclasses import dataclass

from splash.core.errors import SplashError
from splash.core.i18n import N_, Message, message
from splash.fast import kernel as k


@dataclass(frozen=True)
class Limit:
    """One fixed limit of the core: its code in ``G[S_ERR]``, its value, and what it bounds."""

    code: int
    most: int
    """The largest count the core holds (0 where the limit has no count)."""
    msgid: str


LIMITS: dict[int, Limit] = {
    limit.code: limit
    for limit in (
        Limit(k.ERR_EVENTS, k.MAXEV, N_("at most {most} events in one action")),
        Limit(k.ERR_FRAMES, k.MAXFR - 1, N_("fewer than {most} nested resolution frames")),
        Limit(k.ERR_LIST, 0, N_("at least one legal action at every question")),
        Limit(k.ERR_ANSWERS, k.MAXANS, N_("at most {most} answers within one movement")),
    )
}
"""The core's limits by their code."""


def limit_text(limit: Limit) -> Message:
    """What ``limit`` bounds, with its value, as a sentence part."""
    return message(limit.msgid, most=limit.most)


class FastLimitError(SplashError):
    """A game broke a fixed limit of the compiled core; ``limit`` says which (``None``: a code
    the core does not document)."""

    def __init__(self, seed: int, code: int) -> None:
        self.seed = seed
        self.code = code
        self.limit = LIMITS.get(code)
        if self.limit is None:
            text = message(
                "the fast core hit one of its limits in the game of seed {seed}", seed=seed
            )
        else:
            text = message(
                "the game of seed {seed} broke a limit of the fast core, which needs {limit}",
                seed=seed,
                limit=limit_text(self.limit),
            )
        super().__init__(text)

    def __reduce__(self) -> tuple[type[FastLimitError], tuple[int, int]]:
        """Pickled by its seed and code, so that a worker process can raise it."""
        return (FastLimitError, (self.seed, self.code))
