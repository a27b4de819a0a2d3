"""The documents of a Splash! state: the whole state (``splash/tower/1``) and a seat's view
(``splash/tower-view/1``), typed with the keys the server, the environments and the pages
read.  Everything is open in Splash! (reserves included, TD03): a view is the whole state
but its history, with the seat's legal actions and, while a piece is placed, its target.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict, cast

from splash.core.actions import Json
from splash.core.documents import format_tag
from splash.games.tower import rules
from splash.games.tower.records import Phase, PlacementRecord, TowerEvent
from splash.games.tower.tower import TABLE

if TYPE_CHECKING:
    from splash.games.tower.state import TowerState

STATE_KIND = "tower"
VIEW_KIND = "tower-view"


class StateFields(TypedDict):
    """What the state document and every view hold: where every piece is (T01), the drops,
    whose turn it is and what the last action did."""

    format: str
    config: dict[str, Json]
    phase: Phase
    reserves: list[list[str]]
    pile: list[str]
    box: list[str]
    tower: list[dict[str, Json]]
    """The pieces standing, base first (:meth:`~splash.games.tower.tower.TowerPiece.to_json`)."""
    drops: list[int]
    giver: int
    gift: str | None
    gift_from: int | None
    placement: PlacementRecord | None
    placements: int
    chooser: int | None
    table: list[dict[str, Json]]
    """The pieces on the table after a fall, outside the tower."""
    candidates: list[str]
    stacks: dict[str, list[str]]
    keep_left: int
    drafted: int
    winner: int | None
    events: list[TowerEvent]


class TowerDocument(StateFields):
    """The whole state (``splash/tower/1``): with every action since the start."""

    history: list[dict[str, Json]]


class TowerView(StateFields):
    """What ``seat`` sees (``splash/tower-view/1``); while a piece is placed, its JSON form
    (:func:`view_json`) also names the ``target`` the piece goes on (or ``table``)."""

    seat: int
    to_act: int
    legal_actions: list[dict[str, Json]]


def state_fields(state: TowerState, kind: str) -> StateFields:
    """The fields both documents share, with the format tag of ``kind``."""
    return {
        "format": format_tag(kind, 1),
        "config": state.tower_game.config(),
        "phase": state.phase,
        "reserves": [list(r) for r in state.reserves],
        "pile": list(state.pile),
        "box": list(state.box),
        "tower": state.tower.to_json(),
        "drops": list(state.drops),
        "giver": state.giver,
        "gift": state.gift,
        "gift_from": state.gift_from,
        "placement": None if state.placement is None else PlacementRecord(**state.placement),
        "placements": state.placements,
        "chooser": state.chooser,
        "table": [p.to_json() for p in state.table],
        "candidates": list(state.candidates),
        "stacks": {base: list(stack) for base, stack in state.stacks.items()},
        "keep_left": state.keep_left,
        "drafted": state.drafted,
        "winner": state.winner,
        "events": [event.copy() for event in state.events],
    }


def build_document(state: TowerState) -> TowerDocument:
    """The whole state, format ``splash/tower/1``."""
    return {
        **state_fields(state, STATE_KIND),
        "history": [action.to_json() for action in state.history],
    }


def build_view(state: TowerState, seat: int) -> TowerView:
    """What ``seat`` sees: the whole state but its history, with its legal actions."""
    to_act = state.to_act()
    return {
        **state_fields(state, VIEW_KIND),
        "seat": seat,
        "to_act": to_act,
        "legal_actions": [a.to_json() for a in state.legal_actions()] if to_act == seat else [],
    }


def view_json(state: TowerState, seat: int) -> dict[str, Json]:
    """The view of ``seat`` as a JSON object, with the ``target`` of a piece being placed."""
    view = as_json(build_view(state, seat))
    if state.phase in ("place", "result") and state.gift is not None:
        target = rules.target_of(state, state.gift)
        view["target"] = target.piece if target is not None else TABLE
    return view


def state_json(state: TowerState) -> dict[str, Json]:
    """The whole state as a JSON object, format ``splash/tower/1``."""
    return as_json(build_document(state))


def as_json(document: StateFields) -> dict[str, Json]:
    """A state document or a view as the protocol's JSON object (each of their values is
    JSON: strings, numbers, lists and JSON objects)."""
    return cast(dict[str, Json], document)
