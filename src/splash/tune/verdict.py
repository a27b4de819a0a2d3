"""What a tuning run concludes, in words a designer can act on.

"Met" has one meaning (:func:`met`): on the fresh seeds, the 95 % interval of the first-seat
advantage lies inside ±:data:`EDGE_TOLERANCE` at *every* level, and the game length at the
length level (:func:`~splash.tune.levels.length_level`: ``greedy``) is within
±:data:`LENGTH_TOLERANCE` of the draft's on the same seeds.  :func:`verdict_sentences` gives
one sentence per finalist, and when none met the targets one more naming the level that
stopped the closest one, with its edge and interval.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from splash.core.i18n import Message, message
from splash.report.estimates import Estimate
from splash.tune.levels import Level, length_level
from splash.tune.measure import Measure, settings_text
from splash.tune.search import TuneResult

EDGE_TOLERANCE = 0.03
"""The first-seat advantage met: its 95 % interval inside ± this, at every level."""
LENGTH_TOLERANCE = 0.15
"""The game length met: within ± this fraction of the draft's, at the length level."""


def points(value: float) -> str:
    """A fraction in signed points: ``+11.0``."""
    return "—" if not math.isfinite(value) else f"{value * 100:+.1f}"


def edge_text(found: Estimate) -> str:
    """``+1.2 [-0.6, +3.0]``: an edge and its interval, in points."""
    return f"{points(found.value)} [{points(found.low)}, {points(found.high)}]"


def reach(found: Estimate) -> float:
    """How far the edge's 95 % interval reaches from 0 (``inf`` without one)."""
    if not (math.isfinite(found.low) and math.isfinite(found.high)):
        return math.inf
    return max(abs(found.low), abs(found.high))


def length_change(found: Measure, draft: Measure, levels: Sequence[Level]) -> float:
    """The finalist's game length at the length level as a change from the draft's (a
    fraction: -0.04 is 4 % shorter)."""
    level = length_level(levels)
    return found.length(level).value / draft.length(level).value - 1


def edges_met(found: Measure) -> bool:
    """Whether every level's edge interval lies inside ±:data:`EDGE_TOLERANCE`."""
    return all(reach(found.edge(i)) <= EDGE_TOLERANCE for i in range(len(found.levels)))


def met(found: Measure, draft: Measure, levels: Sequence[Level]) -> bool:
    """Whether ``found`` meets the fairness targets (see the module)."""
    change = length_change(found, draft, levels)
    return edges_met(found) and abs(change) <= LENGTH_TOLERANCE


def shortfall(found: Measure, draft: Measure, levels: Sequence[Level]) -> float:
    """How far ``found`` is from met: its worst edge interval's reach beyond
    ±:data:`EDGE_TOLERANCE` plus its length change beyond ±:data:`LENGTH_TOLERANCE`, each
    in units of its tolerance (0 when met)."""
    edge = max(0.0, reach(found.edge(worst_level(found))) - EDGE_TOLERANCE) / EDGE_TOLERANCE
    change = abs(length_change(found, draft, levels))
    return edge + max(0.0, change - LENGTH_TOLERANCE) / LENGTH_TOLERANCE


def worst_level(found: Measure) -> int:
    """The level whose edge interval reaches furthest from 0."""
    return max(range(len(found.levels)), key=lambda i: reach(found.edge(i)))


def change_text(change: float, level: str) -> Message:
    """``games 4 % shorter than the draft's at greedy`` (or longer, or as long)."""
    percent = round(abs(change) * 100)
    if percent == 0:
        return message("games as long as the draft's at {level}", level=level)
    if change < 0:
        return message(
            "games {percent} % shorter than the draft's at {level}", percent=percent, level=level
        )
    return message(
        "games {percent} % longer than the draft's at {level}", percent=percent, level=level
    )


def finalist_sentence(found: Measure, draft: Measure, levels: Sequence[Level]) -> Message:
    """The verdict of one finalist, in one sentence."""
    change = length_change(found, draft, levels)
    length = change_text(change, levels[length_level(levels)].bot)
    parts = [
        message(
            "{level} {edge}, {games} games",
            level=level.bot,
            edge=edge_text(found.edge(i)),
            games=found.edge(i).games,
        )
        for i, level in enumerate(levels)
    ]
    edges = parts[0]
    for part in parts[1:]:
        edges = message("{first}; {then}", first=edges, then=part)
    if met(found, draft, levels):
        if len(levels) == 1:
            return message(
                "{settings}: met: first-team edge within ±3 points at {level} (95 %: {edges}), "
                "{length}.",
                settings=settings_text(found),
                level=levels[0].bot,
                edges=edges,
                length=length,
            )
        return message(
            "{settings}: met: first-team edge within ±3 points at all {count} levels "
            "(95 %: {edges}), {length}.",
            settings=settings_text(found),
            count=len(levels),
            edges=edges,
            length=length,
        )
    worst = worst_level(found)
    if not edges_met(found):
        return message(
            "{settings}: not met: the first-team edge at {level} is {edge}, not within ±3 "
            "points (95 %: {edges}); {length}.",
            settings=settings_text(found),
            level=levels[worst].bot,
            edge=edge_text(found.edge(worst)),
            edges=edges,
            length=length,
        )
    return message(
        "{settings}: not met: first-team edge within ±3 points at every level (95 %: {edges}), "
        "but {length}, not within ±15 %.",
        settings=settings_text(found),
        edges=edges,
        length=length,
    )


def closest_sentence(
    finalists: Sequence[Measure], draft: Measure, levels: Sequence[Level]
) -> Message | None:
    """When no finalist met the targets: the level that stopped the closest one, with its
    edge (``None`` when one met them, or without finalists)."""
    if not finalists or any(met(f, draft, levels) for f in finalists):
        return None
    closest = min(finalists, key=lambda f: shortfall(f, draft, levels))
    worst = worst_level(closest)
    if not edges_met(closest):
        return message(
            "No candidate met the targets at level {level}; the closest ({settings}) left {edge}.",
            level=levels[worst].bot,
            settings=settings_text(closest),
            edge=edge_text(closest.edge(worst)),
        )
    return message(
        "No candidate met the game length; the closest ({settings}) has {length}.",
        settings=settings_text(closest),
        length=change_text(length_change(closest, draft, levels), levels[length_level(levels)].bot),
    )


def verdict_sentences(result: TuneResult) -> list[Message]:
    """One sentence per finalist (best first), then the closest's when none met the
    targets; empty without finalists or a measured draft."""
    draft, levels = result.draft, result.plan.levels
    if draft is None or not result.finalists or not draft.levels:
        return []
    found = [finalist_sentence(f, draft, levels) for f in result.finalists]
    closest = closest_sentence(result.finalists, draft, levels)
    return found if closest is None else [*found, closest]
