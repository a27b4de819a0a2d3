"""Checking a finished game's chance from its replay alone (``splash verify``).

The replay's ``meta.fairness`` (:mod:`splash.server.reveal`) names the secret the room
committed to and the seeds its people added.  :func:`verify` checks the commitment, then
walks the line of play and, at each action the server chose itself, derives it again from
the key, the action's index and its stream exactly as the room did
(:mod:`splash.server.rules`): every chance outcome, every Splash! placement re-ruled by the
physics with the method and version its outcome names, every bot's and timer bot's
decision.  The first action that differs is named with the kind of difference
(:data:`DifferenceKind`).
"""

from __future__ import annotations

import json
import platform
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal, cast

from splash.core.actions import Action, Json
from splash.core.documents import Field
from splash.core.errors import DocumentError, SplashError
from splash.core.fairness import Reveal, commitment
from splash.core.i18n import Message, message
from splash.core.protocol import CHANCE, State
from splash.core.record import GameRecord
from splash.server.reveal import software_versions
from splash.server.rules import (
    PHYSICS_STREAM,
    bot_action,
    build_game,
    chance_action,
    draw_seed,
    parse_settings,
    ruled_kinds,
)

DifferenceKind = Literal[
    "commitment",
    "settings",
    "chance",
    "ruling",
    "bot",
    "platform",
    "version unavailable",
    "illegal",
]
"""What differs: the commitment (or its absence), the settings against the recorded game,
a chance outcome (a tremor included), a placement's ruling, a bot's decision, a ruling or a
decision that differs where the recorded software or processor is not this machine's, a
ruling version this install lacks, or an action the rules refuse."""

COMPARED_VERSIONS: Final = ("splash", "numpy", "mujoco")
"""The software whose versions can change a ruling or a decision."""


class VerifyError(SplashError):
    """The replay differs from what its reveal derives: where (``index``, ``None`` for
    the replay as a whole) and ``kind``."""

    def __init__(self, index: int | None, kind: DifferenceKind, why: Message) -> None:
        self.index = index
        self.kind = kind
        self.why = why
        where = (
            message("action {index}", index=index) if index is not None else message("the replay")
        )
        super().__init__(
            message("{kind} differs at {where}: {why}", kind=kind, where=where, why=why)
        )


@dataclass(frozen=True)
class Verified:
    """What a replay that verifies holds: its actions, and how many the check derived
    again — chance outcomes (placements included), placements re-ruled, bot and timer
    decisions."""

    actions: int
    chance: int
    rulings: int
    bots: int

    def line(self) -> str:
        """``verify: ok actions=N chance=C rulings=R bots=B``."""
        return (
            f"verify: ok actions={self.actions} chance={self.chance} "
            f"rulings={self.rulings} bots={self.bots}"
        )


def _plain(value: object) -> Json:
    """``value`` as JSON reads it back (tuples as lists)."""
    return cast(Json, json.loads(json.dumps(value)))


def _short(value: object, most: int = 160) -> str:
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= most else text[: most - 3] + "..."


def first_difference(recorded: Json, derived: Json, path: str = "") -> tuple[str, Json, Json]:
    """Where two JSON values first differ: the path to it (``""`` for the values
    themselves, else like ``outcome.tower[3].support``) and the two values there."""
    if isinstance(recorded, dict) and isinstance(derived, dict):
        for key in sorted(set(recorded) | set(derived)):
            if recorded.get(key) != derived.get(key):
                where = f"{path}.{key}" if path else key
                return first_difference(recorded.get(key), derived.get(key), where)
    if isinstance(recorded, list) and isinstance(derived, list) and len(recorded) == len(derived):
        for i, (a, b) in enumerate(zip(recorded, derived, strict=True)):
            if a != b:
                return first_difference(a, b, f"{path}[{i}]")
    return path, recorded, derived


def _told(recorded: Json, derived: Json) -> dict[str, str]:
    """The message fields of a difference: the whole values when short, else where they
    first differ and what each holds there."""
    whole = _short(recorded), _short(derived)
    if len(whole[0]) < 100 and len(whole[1]) < 100:
        return {"recorded": whole[0], "derived": whole[1]}
    path, a, b = first_difference(recorded, derived)
    return {"recorded": f"{path} = {_short(a)}", "derived": _short(b)}


def _platform_differs(reveal: Reveal) -> str | None:
    """What of the recorded software or processor is not this machine's, or ``None``."""
    here = software_versions()
    for name in COMPARED_VERSIONS:
        recorded = reveal.versions.get(name)
        if recorded is not None and recorded != here[name]:
            return f"{name} {recorded} served the game, {here[name]} is here"
    if reveal.machine and reveal.machine != platform.machine():
        return f"a {reveal.machine} processor served the game, this one is {platform.machine()}"
    return None


@dataclass
class _Walk:
    """The check of one replay, action after action."""

    record: GameRecord
    reveal: Reveal
    key: int
    ruled: frozenset[str]
    """The kinds of chance event the physics rules in this game (Splash!'s placements)."""
    chance: int = 0
    rulings: int = 0
    bots: int = 0

    def differs(self, index: int, kind: DifferenceKind, recorded: Json, derived: Json) -> None:
        if kind in ("ruling", "bot"):
            cause = _platform_differs(self.reveal)
            if cause is not None:
                margin = self._margin(recorded)
                raise VerifyError(
                    index,
                    "platform",
                    message(
                        "{cause}; recorded {recorded}, derived here {derived}{margin}",
                        cause=cause,
                        **_told(recorded, derived),
                        margin=f" (the placement's static margin: {margin} mm)"
                        if margin is not None
                        else "",
                    ),
                )
        raise VerifyError(
            index,
            kind,
            message("recorded {recorded}, derived {derived}", **_told(recorded, derived)),
        )

    @staticmethod
    def _margin(recorded: Json) -> object:
        try:
            return Field.root(recorded)["outcome"]["details"]["margin_mm"].value
        except DocumentError:
            return None

    def check(self, state: State, index: int, source: str, recorded: Json) -> None:
        """Derive the action at ``index`` again where the server chose it, and compare."""
        if source == "chance" and state.to_act() == CHANCE:
            event = state.chance_event()
            if event is not None and event.kind in self.ruled:
                self._placement(state, index, recorded)
            else:
                derived = _plain(self._chance(state, index).to_json())
                if derived != recorded:
                    self.differs(index, "chance", recorded, derived)
            self.chance += 1
        elif source in ("bot", "timer") and state.to_act() >= 0:
            seat = state.to_act()
            spec = self.reveal.timer_bot if source == "timer" else self._bot_of(seat, index)
            derived = _plain(bot_action(spec, state, seed=self.key, index=index).to_json())
            if derived != recorded:
                self.differs(index, "bot", recorded, derived)
            self.bots += 1

    def _bot_of(self, seat: int, index: int) -> str:
        seats = {s.seat: s for s in self.reveal.seats}
        found = seats.get(seat)
        if found is None or found.bot is None:
            raise VerifyError(
                index, "bot", message("seat {seat} has no bot in the reveal", seat=seat)
            )
        return found.bot

    def _chance(self, state: State, index: int) -> Action:
        return chance_action(state, seed=self.key, index=index, settings=self.reveal.settings)

    def _placement(self, state: State, index: int, recorded: Json) -> None:
        from splash.physics.provider import PhysicsOutcomes
        from splash.physics.ruling import RulingSettings, settings_for_method
        from splash.physics.settings import physics_settings
        from splash.physics.static_ruling import METHOD

        try:
            details = Field.root(recorded)["outcome"]["details"]
            method = details["method"].as_str()
            tremor = details["tremor"].as_json()
        except DocumentError as error:
            raise VerifyError(index, "chance", error.text) from None
        statics = physics_settings(parse_settings(self.reveal.settings)).ruling == "statics"
        ruling = None if statics else settings_for_method(method)
        if (statics and method != METHOD) or (not statics and ruling is None):
            raise VerifyError(
                index,
                "version unavailable",
                message("this install cannot rule with {method}", method=method),
            )
        if ruling is None or ruling.method == RulingSettings().method:
            action = self._chance(state, index)
        else:
            provider = PhysicsOutcomes(draw_seed(self.key, index, PHYSICS_STREAM), settings=ruling)
            action = provider.outcome(state)
        derived: Any = _plain(action.to_json())
        if derived["outcome"]["details"]["tremor"] != tremor:
            self.differs(index, "chance", tremor, derived["outcome"]["details"]["tremor"])
        if derived != recorded:
            self.differs(index, "ruling", recorded, derived)
        self.rulings += 1


def reveal_of(record: GameRecord) -> Reveal:
    """The reveal of ``record`` (its ``meta.fairness``); :class:`DocumentError` when it has
    none or it is not one."""
    if "fairness" not in record.meta:
        raise DocumentError(
            message(
                "this replay reveals nothing of its chance (no meta.fairness): "
                "its game was not served by a server that reveals it"
            ),
            path="meta.fairness",
        )
    return Reveal.parse(record.meta["fairness"])


def _sources(meta: Mapping[str, Json], length: int) -> list[str]:
    field = Field.root(meta)["sources"]
    sources = [f.as_str() for f in field.as_list()]
    if len(sources) != length:
        field.fail(
            message("{found} sources for {length} actions", found=len(sources), length=length)
        )
    return sources


def verify(record: GameRecord, progress: Callable[[int], None] | None = None) -> Verified:
    """Check ``record``'s commitment and derive again every action its server chose
    (module docs); ``progress`` is told each action's index as it is checked.  Raises
    :class:`VerifyError` at the first difference, :class:`DocumentError` for a replay that
    is not one."""
    reveal = reveal_of(record)
    if reveal.secret is None or reveal.commitment is None:
        raise VerifyError(
            None,
            "commitment",
            message(
                "this room committed to nothing: its draws came from a seed its server chose "
                "alone (seed {seed})",
                seed=reveal.seed,
            ),
        )
    shown = commitment(bytes.fromhex(reveal.secret))
    if shown != reveal.commitment:
        raise VerifyError(
            None,
            "commitment",
            message(
                "the secret's commitment is {derived}, the room showed {shown}",
                derived=shown,
                shown=reveal.commitment,
            ),
        )
    game = build_game(record.game, reveal.settings, reveal.mode)
    if _plain(game.config()) != _plain(record.config):
        raise VerifyError(
            None,
            "settings",
            message("the revealed settings do not build the game the replay records"),
        )
    sources = _sources(record.meta, len(record.actions))
    walk = _Walk(record, reveal, reveal.key(), ruled_kinds(record.game, reveal.mode))
    state = game.new_initial_state()
    for index, (recorded, source) in enumerate(zip(record.actions, sources, strict=True)):
        walk.check(state, index, source, recorded)
        try:
            state.apply(recorded)
        except SplashError as error:
            raise VerifyError(index, "illegal", error.text) from None
        if progress is not None:
            progress(index)
    return Verified(len(record.actions), walk.chance, walk.rulings, walk.bots)


__all__ = ["DifferenceKind", "Verified", "VerifyError", "first_difference", "reveal_of", "verify"]
