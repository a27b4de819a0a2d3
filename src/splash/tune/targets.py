"""What ``splash tune`` aims at and what it may change: targets and searched parameters.

A :class:`Target` is a metric of :mod:`splash.report.metric_ids` with a bound or a range:
``first_seat_advantage<=0.02``, ``duration_turns=150..220``, ``balance>=0.9``;
``|first_seat_advantage|<=0.02`` bounds the metric's size whatever its sign, and
``duration_turns@greedy=130..170`` holds at one skill level only (every level otherwise).  Its
:meth:`~Target.miss` is how far a value is from it, in units of the target's own scale (the
half-width of a range, the bound's size otherwise), so that targets on different metrics add
up.

A :class:`Parameter` is a setting searched over: ``board.lanes.outer=30..48`` (an inclusive
range of whole numbers), ``options.fall_angle_deg=8.0..20.0`` (of floats, as soon as one end
is written as a float) or ``decks.high_tide.undertow=0,2,4`` (a list of values, as
``splash sweep --vary`` takes them).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Literal

from splash.core.errors import OptionError
from splash.core.i18n import message
from splash.core.settings import parse_value
from splash.report.metric_ids import Metric, metric
from splash.sim.sweep import split_values, value_text

Bound = Literal["<=", ">=", "="]

_TARGET = re.compile(
    r"\s*(\|?)\s*([A-Za-z_][A-Za-z0-9_]*)\s*(\|?)\s*(?:@\s*([A-Za-z0-9_]+)\s*)?(<=|>=|=)\s*(.+?)\s*$"
)
_RANGE = re.compile(r"(.+?)\.\.(.+)")


def _number(text: str, option: str, whole: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise OptionError(option, whole, message("{text} is not a number", text=text)) from None
    if not math.isfinite(value):
        raise OptionError(option, whole, message("{text} is not a number", text=text))
    return value


@dataclass(frozen=True)
class Target:
    """A metric's value wanted at most ``high``, at least ``low``, or between the two."""

    text: str
    """As given, for the report."""
    metric: Metric
    low: float
    """The least value wanted (``-inf``: no lower bound)."""
    high: float
    """The largest value wanted (``inf``: no upper bound)."""
    absolute: bool = False
    """Whether the bound is on the metric's size (``|metric|<=x``)."""
    level: str | None = None
    """The skill level it applies to (``metric@greedy<=x``: a bot's name or a level's
    number from 1); ``None``: every level (:mod:`splash.tune.levels`)."""

    @property
    def scale(self) -> float:
        """The unit of :meth:`miss`: a range's half-width, else the bound's size (0.01 at
        least, so that a bound of 0 still has a unit)."""
        if math.isfinite(self.low) and math.isfinite(self.high) and self.high > self.low:
            return (self.high - self.low) / 2
        bound = self.high if math.isfinite(self.high) else self.low
        return max(abs(bound), 0.01)

    def value_of(self, value: float) -> float:
        """What the target bounds: the metric's value, or its size."""
        return abs(value) if self.absolute else value

    def miss(self, value: float) -> float:
        """How far ``value`` is outside the target, in :attr:`scale` units (0 inside; a
        missing value is infinitely far)."""
        if not math.isfinite(value):
            return math.inf
        seen = self.value_of(value)
        return max(0.0, self.low - seen, seen - self.high) / self.scale

    def met(self, value: float) -> bool:
        """Whether ``value`` is inside the target."""
        return self.miss(value) == 0.0

    def met_by_interval(self, low: float, high: float) -> bool:
        """Whether the whole 95 % interval ``[low, high]`` is inside the target."""
        if not (math.isfinite(low) and math.isfinite(high)):
            return False
        if self.absolute:
            low, high = (
                (0.0 if low <= 0 <= high else min(abs(low), abs(high))),
                max(abs(low), abs(high)),
            )
        return self.low <= low and high <= self.high


def parse_target(text: str) -> Target:
    """The target of ``--target TEXT``; an :class:`OptionError` naming what is wrong (an
    unknown metric lists the known ones)."""
    found = _TARGET.fullmatch(text)
    if found is None:
        raise OptionError("--target", text, message("expected METRIC<=X, METRIC>=X or METRIC=A..B"))
    left, name, right, level, bound, rest = found.groups()
    if left != right:
        raise OptionError("--target", text, message("a size is written |METRIC|"))
    chosen = metric(name)
    if bound == "=":
        pair = _RANGE.fullmatch(rest)
        low_text, high_text = pair.groups() if pair else (rest, rest)
        low = _number(low_text.strip(), "--target", text)
        high = _number(high_text.strip(), "--target", text)
        if low > high:
            raise OptionError(
                "--target", text, message("the range's low end is above its high end")
            )
    elif bound == "<=":
        low, high = -math.inf, _number(rest, "--target", text)
    else:
        low, high = _number(rest, "--target", text), math.inf
    return Target(text.strip(), chosen, low, high, absolute=bool(left), level=level)


@dataclass(frozen=True)
class Parameter:
    """A setting the search may change: a range of whole numbers or of floats, or a list."""

    key: str
    kind: Literal["int", "float", "list"]
    low: float = 0.0
    high: float = 0.0
    choices: tuple[str, ...] = ()
    """The values of a list, as typed (TOML)."""

    @property
    def text(self) -> str:
        """As ``--vary`` takes it."""
        if self.kind == "list":
            return f"{self.key}={','.join(self.choices)}"
        shown = (int(self.low), int(self.high)) if self.kind == "int" else (self.low, self.high)
        return f"{self.key}={shown[0]}..{shown[1]}"

    def ends(self) -> list[Any]:
        """The values a check of the setting tries: both ends of a range, every listed one."""
        if self.kind == "list":
            return [parse_value(text) for text in self.choices]
        if self.kind == "int":
            return [int(self.low), int(self.high)]
        return [self.low, self.high]

    def assignment(self, value: Any) -> str:
        """``KEY=VALUE`` for ``--set``."""
        return f"{self.key}={value_text(value)}"


def parse_parameter(text: str) -> Parameter:
    """The parameter of ``--vary TEXT``; an :class:`OptionError` naming what is wrong."""
    key, sep, raw = text.partition("=")
    key = key.strip()
    if not sep or not key or any(not part for part in key.split(".")):
        raise OptionError("--vary", text, message("expected KEY=A..B or KEY=V1,V2,..."))
    raw = raw.strip()
    pair = _RANGE.fullmatch(raw) if "," not in raw and "[" not in raw else None
    if pair is not None:
        low_text, high_text = (part.strip() for part in pair.groups())
        low = _number(low_text, "--vary", text)
        high = _number(high_text, "--vary", text)
        if low >= high:
            raise OptionError(
                "--vary", text, message("the range's low end is not below its high end")
            )
        whole = all(re.fullmatch(r"[+-]?\d+", part) for part in (low_text, high_text))
        return Parameter(key, "int" if whole else "float", low, high)
    choices = tuple(split_values(raw)) if raw else ()
    if not choices or any(not choice for choice in choices):
        raise OptionError("--vary", text, message("no values to try for {key}", key=key))
    return Parameter(key, "list", choices=choices)
