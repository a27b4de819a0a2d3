"""The check before resuming stored games: the games of a results file
(:mod:`splash.sim.store`) or of a sweep's folder (:mod:`splash.sim.sweep`) are resumed only
with the game, the options, the bots and the engine they were played with (the same seed
gives another game on another engine).

Both keep a document naming them (``{"game": ..., "options": ..., "bots": [...],
"engine": ...}``);
:func:`check_same_run` compares the stored one with the run's own.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from splash.core.errors import OptionError
from splash.core.i18n import Message

RUN_KEYS: tuple[tuple[str, str], ...] = (
    ("game", "GAME"),
    ("options", "--set"),
    ("bots", "--bots"),
    ("engine", "--engine"),
)
"""The keys of a run's document that must match to resume it, with the option that sets each."""

Refusal = Callable[[str, str], Message]
"""Why a resume is refused, from the key that differs and its stored value (JSON text)."""


def check_same_run(stored: Mapping[str, Any], mine: Mapping[str, Any], refusal: Refusal) -> None:
    """Refuse to resume when ``stored`` (the document found) names another game, other
    options, other bots or another engine than ``mine``: an :class:`OptionError` naming the option of the
    first key that differs, carrying this run's value, with the ``refusal`` message."""
    for key, option in RUN_KEYS:
        if stored.get(key) != mine[key]:
            raise OptionError(option, mine[key], refusal(key, json.dumps(stored.get(key))))
