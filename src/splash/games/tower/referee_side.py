"""Splash! at a real table, a referee entering what happens (TD08): the report of a
placement's outcome read into its ``result`` action, which chance outcomes a referee screen
lists, the placement a referee room makes by itself, and the end summary."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from splash.core.actions import Action, Json
from splash.core.errors import ConfigError, OutcomeError
from splash.core.i18n import message
from splash.core.protocol import ChanceEvent, State
from splash.games.tower import referee
from splash.games.tower.game import TowerGame
from splash.games.tower.state import TowerState
from splash.games.tower.summary import tower_summary

PLACEMENT = "placement"
"""The chance event of a placement's physical outcome."""
PLACE = "place"
"""The decision of where a piece goes."""


def reported_outcome(state: State, report: Mapping[str, Any]) -> Action:
    """The ``result`` action of a Splash! placement that people report (referee mode).

    ``report`` is ``{"result": "stood", "room_left": bool}``, ``{"result": "fell",
    "standing": [[base, ...], ...], "on_table": [...]}``, ``{"result": "spontaneous"}`` or
    ``{"result": "knocked", "knocker": seat, "standing": ..., "on_table": ...}``; an
    :class:`OutcomeError` says what is wrong with another.
    """
    if not isinstance(state, TowerState) or state.phase != "result" or state.gift is None:
        raise OutcomeError(message("no placement is waiting for its outcome"))
    try:
        return _reported(state, report)
    except ConfigError as error:
        raise OutcomeError(error.text) from None
    except (KeyError, ValueError, TypeError) as error:
        raise OutcomeError(
            message(
                "this report names something that is not on the table: {problem}",
                problem=str(error),
            )
        ) from None


def _reported(state: TowerState, report: Mapping[str, Any]) -> Action:
    result = report.get("result")
    if result == "stood":
        return referee.stood(state, room_left=bool(report.get("room_left", False)))
    if result == "spontaneous":
        return referee.spontaneous(state)
    standing = report.get("standing", [])
    on_table = report.get("on_table", [])
    if not _stacks(standing) or not _pieces(on_table):
        raise OutcomeError(
            message("'standing' is a list of lists of pieces and 'on_table' a list of pieces")
        )
    if result == "fell":
        return referee.fell(state, standing, on_table)
    knocker = report.get("knocker")
    if result == "knocked" and isinstance(knocker, int) and not isinstance(knocker, bool):
        return referee.knocked(state, knocker, standing, on_table)
    raise OutcomeError(
        message("a report's result is stood, fell, spontaneous or knocked (with a knocker)")
    )


def _pieces(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(p, str) for p in value)


def _stacks(value: object) -> bool:
    return isinstance(value, list) and all(_pieces(s) for s in value)


def listed(event: ChanceEvent) -> bool:
    """Whether a referee screen lists the outcomes of ``event``: not a placement's, which
    are not enumerable (people report what the tower did)."""
    return event.kind != PLACEMENT


def automatic(state: State) -> Action | None:
    """The decision a referee room plays by itself: a placement that has one legal form
    (the referee reports its outcome next)."""
    legal = state.legal_actions()
    if len(legal) == 1 and legal[0].kind == PLACE:
        return legal[0]
    return None


def summary(state: State) -> dict[str, Json]:
    """The end summary of ``state``'s game (places, each player's counts), from its
    history."""
    game = state.game
    if not isinstance(game, TowerGame):
        raise TypeError(f"not a Splash! game: {type(game).__name__}")
    return cast(dict[str, Json], tower_summary(game, state.history))
