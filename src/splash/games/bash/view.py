"""What one team may see of a Splash & Bash state (BD12): its own hand, the others' sizes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from splash.core.actions import Json
from splash.core.documents import format_tag
from splash.core.protocol import TERMINAL

if TYPE_CHECKING:
    from splash.games.bash.state import BashState

VIEW_KIND = "bash-view"
PRIVATE_DECK = "high_tide"


def visible_event(event: dict[str, Json], seat: int) -> dict[str, Json]:
    """``event`` as ``seat`` may see it: another team's high tide draw or steal loses its card."""
    kind = event.get("event")
    if kind == "draw" and event.get("deck") == PRIVATE_DECK and event.get("team") != seat:
        return {k: v for k, v in event.items() if k != "card"}
    if kind == "steal" and seat not in (event.get("team"), event.get("from")):
        return {k: v for k, v in event.items() if k != "card"}
    return event


def build_view(state: BashState, seat: int) -> dict[str, Json]:
    """What team ``seat`` may know of ``state``, and nothing more."""
    board = state.board
    to_act = state.to_act()
    awaiting: dict[str, Json] | None = None
    if state.pending is not None:
        question = state.pending.question
        awaiting = {"kind": "reaction", "question": question.kind, "team": question.team}
        if question.team == seat:
            awaiting["options"] = list(question.options)
    elif state.awaiting is not None:
        awaiting = {
            k: v
            for k, v in state.awaiting.to_json().items()
            if k in ("kind", "team", "window", "purpose", "deck", "dice")
        }
    legal: list[Json] = []
    if to_act == seat:
        legal = [a.to_json() for a in state.legal_actions()]
    return {
        "format": format_tag(VIEW_KIND, 1),
        "seat": seat,
        "to_act": to_act,
        "terminal": to_act == TERMINAL,
        "turn": state.turns + 1,
        "team": state.team,
        "active": state.active_piece.name,
        "pieces": [[p.to_json() for p in team] for team in board.pieces],
        "obstacles": [list(o) for o in sorted(board.obstacles)],
        "hand": list(board.hands[seat]),
        "hand_sizes": [len(h) for h in board.hands],
        "deck_sizes": {d: sum(c.values()) for d, c in board.decks.items()},
        "discards": {d: dict(c) for d, c in board.discards.items()},
        "played": [int(t) for t in sorted(board.played)],
        "dice": list(state.dice),
        "rerolled": list(state.rerolled),
        "roll": state.roll_value(),
        "free_lane": state.free_lane,
        "skip_move": state.skip_move,
        "awaiting": awaiting,
        "legal_actions": legal,
        "events": [visible_event(e, seat) for e in board.events],
        "winner": board.winner,
        "returns": list(state.returns()) if to_act == TERMINAL else None,
    }
