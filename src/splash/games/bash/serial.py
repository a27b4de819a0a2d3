"""The JSON document of a Splash & Bash state (``splash/bash/1``): every hand included."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from splash.core.actions import Json
from splash.core.documents import check_format, format_tag
from splash.core.protocol import State
from splash.games.bash.board import Board
from splash.games.bash.resolver import Question

if TYPE_CHECKING:
    from splash.games.bash.game import BashGame
    from splash.games.bash.state import BashState

STATE_KIND = "bash"


def state_to_json(state: BashState) -> dict[str, Json]:
    """The whole state (every hand included), format ``splash/bash/1``."""
    pending: Json = None
    if state.pending is not None:
        pending = {
            "op": state.pending["op"],
            "answers": list(state.pending["answers"]),
            "snapshot": state.pending["snapshot"].to_json(),
            "question": cast(Question, state.pending["question"]).to_json(),
        }
    return {
        "format": format_tag(STATE_KIND, 1),
        "config": state._bash.config(),
        "board": state.board.to_json(),
        "team": state.team,
        "active": state.active,
        "step": state.step,
        "turns": state.turns,
        "next_pawn": list(state.next_pawn),
        "setup_placed": state.setup_placed,
        "over": state.over,
        "awaiting": state.awaiting,
        "pending": pending,
        "effects": list(state.effects),
        "turn": {
            "dice": list(state.dice),
            "rerolled": list(state.rerolled),
            "extra_dice": state.extra_dice,
            "modifiers": [list(m) for m in state.modifiers],
            "free_lane": state.free_lane,
            "skip_move": state.skip_move,
            "lane_cost": state.lane_cost,
            "movement_over": state.movement_over,
        },
        "history": [a.to_json() for a in state._history],
    }


def state_from_json(cls: type[BashState], game: BashGame, doc: Mapping[str, Any]) -> BashState:
    """The state a :meth:`to_json` document describes (for this game's configuration)."""
    check_format(doc, STATE_KIND)
    state = cls.__new__(cls)
    State.__init__(state, game)
    state._bash = game
    state.board = Board.from_json(doc["board"])
    state.team, state.active, state.step = (
        int(doc["team"]),
        int(doc["active"]),
        int(doc["step"]),
    )
    state.turns = int(doc["turns"])
    state.next_pawn = [int(x) for x in doc["next_pawn"]]
    state.setup_placed = int(doc["setup_placed"])
    state.over = bool(doc["over"])
    state.awaiting = doc["awaiting"]
    state.effects = [list(e) for e in doc["effects"]]
    turn = doc["turn"]
    state.dice = [int(x) for x in turn["dice"]]
    state.rerolled = [int(x) for x in turn["rerolled"]]
    state.extra_dice = int(turn["extra_dice"])
    state.modifiers = [[int(a), int(b)] for a, b in turn["modifiers"]]
    state.free_lane = bool(turn["free_lane"])
    state.skip_move = bool(turn["skip_move"])
    state.lane_cost = int(turn["lane_cost"])
    state.movement_over = bool(turn["movement_over"])
    pending = doc["pending"]
    state.pending = None
    if pending is not None:
        q = pending["question"]
        state.pending = {
            "op": pending["op"],
            "answers": list(pending["answers"]),
            "snapshot": Board.from_json(pending["snapshot"]),
            "question": Question(q["kind"], int(q["team"]), tuple(q["options"]), tuple(q["piece"])),
        }
    state._history = [game.parse_action(a) for a in doc["history"]]
    return state
