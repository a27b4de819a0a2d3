"""Which engine plays a spec's games: the reference rules engine or the compiled core.

The reference engine (:mod:`splash.games`) is the authority and plays every game with every
bot.  Splash & Bash also has a compiled core (:mod:`splash.fast`), checked against the
reference by replaying its games, which plays random and greedy bots (one greedy setting
per game, looking through at most three decisions of its own) on the configurations it can
express.  The two draw their chance outcomes (and the greedy bot its redraws and
tie-breaks) differently, so the same seed gives another game on each: the engine is part of a run (the ``engine`` column, and a results file is
resumed only by the engine that wrote it).

``--engine auto`` (the default) takes the compiled core when it can play the spec and the
reference engine otherwise, with a one-line note saying why; ``--engine fast`` on a spec the
core cannot play is an :class:`~splash.core.errors.OptionError` naming the bot or setting.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, replace

from splash.core.errors import OptionError
from splash.core.i18n import Message, message
from splash.sim.runner import FAST, REFERENCE, GameSpec


class EngineChoice(enum.StrEnum):
    """What ``--engine`` asks for."""

    AUTO = "auto"
    FAST = FAST
    REFERENCE = REFERENCE


FAST_GAMES = ("bash",)
"""The games the compiled core plays."""


@dataclass(frozen=True)
class EngineDecision:
    """The specs with their engine set, and why the reference engine plays them when
    ``auto`` could not take the compiled core (``None`` otherwise)."""

    specs: tuple[GameSpec, ...]
    note: Message | None


def fast_refusal(spec: GameSpec) -> Message | None:
    """Why the compiled core cannot play ``spec`` (the bot or setting it cannot express),
    ``None`` when it can."""
    if spec.game not in FAST_GAMES:
        return message("only Splash & Bash has a compiled engine")
    from splash.sim.fast_engine import fast_refusal as refusal

    return refusal(spec)


def choose_engines(specs: Sequence[GameSpec], choice: EngineChoice | str) -> EngineDecision:
    """Set the engine of every spec of one run (a sweep's combinations, a ladder's pairings)
    by ``choice``: all of them on the compiled core, or all on the reference engine."""
    try:
        wanted = EngineChoice(choice)
    except ValueError:
        raise OptionError(
            "--engine", choice, message("must be one of: auto, fast, reference")
        ) from None
    if wanted is EngineChoice.REFERENCE:
        return EngineDecision(tuple(replace(s, engine=REFERENCE) for s in specs), None)
    refusals = (fast_refusal(spec) for spec in specs)
    refusal = next((r for r in refusals if r is not None), None)
    if refusal is None:
        return EngineDecision(tuple(replace(s, engine=FAST) for s in specs), None)
    if wanted is EngineChoice.FAST:
        raise OptionError("--engine", wanted.value, refusal)
    note = None
    if any(spec.game in FAST_GAMES for spec in specs):
        note = message("The reference engine plays these games: {why}.", why=refusal)
    return EngineDecision(tuple(replace(s, engine=REFERENCE) for s in specs), note)


def choose_engine(spec: GameSpec, choice: EngineChoice | str) -> tuple[GameSpec, Message | None]:
    """:func:`choose_engines` for the one spec of ``splash simulate``."""
    decision = choose_engines([spec], choice)
    return decision.specs[0], decision.note
