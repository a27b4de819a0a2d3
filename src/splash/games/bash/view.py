"""What one team may see of a Splash & Bash state (BD12): its own hand, the others' sizes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Required, TypedDict, cast

from splash.core.actions import Json
from splash.core.documents import format_tag
from splash.core.protocol import TERMINAL
from splash.games.bash.events import BashEvent, visible_event
from splash.games.bash.records import AwaitDraw, AwaitRoll, AwaitSteal, PlayWindow, StartLane

if TYPE_CHECKING:
    from splash.games.bash.state import BashState

VIEW_KIND = "bash-view"


class PieceView(TypedDict):
    """Where a pawn or helmsman is: ``lane`` index (``None`` off the course) and ``s``."""

    lane: int | None
    s: int
    finished: bool


class AwaitingView(TypedDict, total=False):
    """What the state waits for, as every team may know it.

    ``kind`` is that of the awaited record (``start_lane``, ``draw``, ``roll``, ``window``…)
    or ``reaction`` for a question in the middle of a movement (``question``: ``lifebuoy`` or
    ``discard``; its ``options`` only in the view of the team asked).
    """

    kind: Required[str]
    team: int
    window: str
    purpose: str
    deck: str
    dice: int
    question: str
    options: list[str]


class BashView(TypedDict):
    """The view of one team (``splash/bash-view/1``)."""

    format: str
    seat: int
    to_act: int
    terminal: bool
    turn: int
    team: int
    active: str
    pieces: list[list[PieceView]]
    obstacles: list[list[int]]
    hand: list[str]
    hand_sizes: list[int]
    deck_sizes: dict[str, int]
    discards: dict[str, dict[str, int]]
    played: list[int]
    dice: list[int]
    rerolled: list[int]
    roll: int
    free_lane: bool
    skip_move: bool
    awaiting: AwaitingView | None
    legal_actions: list[dict[str, Json]]
    events: list[BashEvent]
    winner: int | None
    returns: list[float] | None


def _awaiting(state: BashState, seat: int) -> AwaitingView | None:
    if state.pending is not None:
        question = state.pending.question
        reaction: AwaitingView = {
            "kind": "reaction",
            "question": question.kind,
            "team": question.team,
        }
        if question.team == seat:
            reaction["options"] = list(question.options)
        return reaction
    match state.awaiting:
        case None:
            return None
        case StartLane(team=team, purpose=purpose):
            return {"kind": "start_lane", "team": team, "purpose": purpose}
        case AwaitDraw(deck=deck):
            return {"kind": "draw", "deck": deck}
        case AwaitRoll(dice=dice, purpose=purpose):
            return {"kind": "roll", "dice": dice, "purpose": purpose}
        case AwaitSteal():
            return {"kind": "steal"}
        case PlayWindow(team=team, window=window):
            return {"kind": "window", "team": team, "window": window}
        case decision:
            # The card just drawn, a card's effect, the obstacles left: not shown.
            return {"kind": decision.kind, "team": decision.team}


def view_json(state: BashState, seat: int) -> dict[str, Json]:
    """The view of team ``seat`` (:func:`build_view`) as a JSON object."""
    return cast(dict[str, Json], build_view(state, seat))


def build_view(state: BashState, seat: int) -> BashView:
    """What team ``seat`` may know of ``state``, and nothing more."""
    board = state.board
    to_act = state.to_act()
    legal = [a.to_json() for a in state.legal_actions()] if to_act == seat else []
    return {
        "format": format_tag(VIEW_KIND, 1),
        "seat": seat,
        "to_act": to_act,
        "terminal": to_act == TERMINAL,
        "turn": state.turns + 1,
        "team": state.team,
        "active": state.active_piece.name,
        "pieces": [
            [{"lane": p.lane, "s": p.s, "finished": p.finished} for p in team]
            for team in board.pieces
        ],
        "obstacles": [list(o) for o in sorted(board.obstacles)],
        "hand": list(board.hands[seat]),
        "hand_sizes": [len(h) for h in board.hands],
        "deck_sizes": {d: sum(c.values()) for d, c in board.decks.items()},
        "discards": {d: dict(c) for d, c in board.discards.items()},
        "played": sorted(board.played),
        "dice": list(state.dice),
        "rerolled": list(state.rerolled),
        "roll": state.roll_value(),
        "free_lane": state.free_lane,
        "skip_move": state.skip_move,
        "awaiting": _awaiting(state, seat),
        "legal_actions": legal,
        "events": [visible_event(e, seat) for e in board.events],
        "winner": board.winner,
        "returns": list(state.returns()) if to_act == TERMINAL else None,
    }
