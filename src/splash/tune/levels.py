"""The skill levels a tuning run judges a design at: ``--skills random,greedy,strong``.

A :class:`Level` is one bot spec that plays every seat, with the engine that plays its games
(the compiled core for ``random`` and ``greedy``, the reference engine for the search bots).
``strong`` stands for :data:`STRONG`, the cheapest bot measured to beat ``greedy``
significantly; the plan records the spec it stands for, so a later change of the alias does
not change a stored run.

A target may name a level (``duration_turns@greedy=130..170``): by its bot's name when one
level only has that bot, or by its number from 1 (:func:`level_indices`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from splash.bots import parse_spec, split_specs
from splash.core.errors import OptionError
from splash.core.i18n import message
from splash.sim.runner import REFERENCE

STRONG_ALIAS = "strong"
"""What ``--skills`` takes for :data:`STRONG`."""

STRONG = "td:ply=2"
"""The strong level: the cheapest bot measured to beat ``greedy`` at p < 0.01 over 600
games, seats swapped (docs/tune.md, *The strong level*): the shipped learned agent at ply 2,
three to four times cheaper a game than ``expectimax``, which it beats too."""

LENGTH_LEVEL = "greedy"
"""The level at which a design's game length is compared with the draft's (the last level
when no level plays ``greedy``)."""


@dataclass(frozen=True)
class Level:
    """A skill level: the bot of each seat (one spec for all with ``--skills``), and the
    engine of its games."""

    bots: tuple[str, ...]
    engine: str = REFERENCE

    @property
    def bot(self) -> str:
        """Its spec: the one bot of every seat, else the seats' bots joined by commas."""
        return self.bots[0] if len(set(self.bots)) == 1 else ",".join(self.bots)

    @property
    def name(self) -> str:
        """Its bot's name (``ismcts`` for ``ismcts:engine=fast,iterations=400``), or its
        spec when the seats play different bots."""
        return parse_spec(self.bots[0])[0] if len(set(self.bots)) == 1 else self.bot


def parse_skills(values: Sequence[str]) -> tuple[str, ...]:
    """The bot spec of each level of ``--skills`` values (``strong`` resolved to
    :data:`STRONG`); an :class:`OptionError` for no level or a level given twice."""
    specs = [STRONG if s.strip().lower() == STRONG_ALIAS else s for s in split_specs(list(values))]
    if not specs:
        raise OptionError("--skills", ",".join(values), message("give at least one level"))
    seen: set[str] = set()
    for spec in specs:
        if spec in seen:
            raise OptionError(
                "--skills", ",".join(specs), message("the level {level} is given twice", level=spec)
            )
        seen.add(spec)
    return tuple(specs)


def level_indices(levels: Sequence[Level], name: str | None, text: str) -> tuple[int, ...]:
    """The levels a target of ``text`` applies to: every level without ``name``, else the
    level of that bot name or number (from 1); an :class:`OptionError` of ``--target``
    naming the levels otherwise."""
    if name is None:
        return tuple(range(len(levels)))
    if name.isdigit() and 1 <= int(name) <= len(levels):
        return (int(name) - 1,)
    found = tuple(i for i, level in enumerate(levels) if name in (level.name, level.bot))
    if len(found) == 1:
        return found
    known = ", ".join(f"{i + 1} ({level.bot})" for i, level in enumerate(levels))
    if found:
        problem = message(
            "several levels play {name}: name the level by its number, one of {levels}",
            name=name,
            levels=known,
        )
    else:
        problem = message("no level plays {name}: the levels are {levels}", name=name, levels=known)
    raise OptionError("--target", text, problem)


def length_level(levels: Sequence[Level]) -> int:
    """The level at which game lengths are compared (:data:`LENGTH_LEVEL`)."""
    return next((i for i, lv in enumerate(levels) if lv.bot == LENGTH_LEVEL), len(levels) - 1)
