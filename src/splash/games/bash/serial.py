"""The JSON document of a Splash & Bash state (``splash/bash/1``): every hand included.

:func:`state_from_json` reads a document field by field: a bad one is refused with a
:class:`~splash.core.errors.DocumentError` naming the field's path (``board.pieces[1][2].s``)
and the value found there.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from splash.core.actions import Action, Json
from splash.core.documents import Field, check_format, format_tag
from splash.core.errors import MalformedActionError
from splash.core.i18n import message
from splash.core.protocol import State
from splash.games.bash.board import Board
from splash.games.bash.config import HAND_DECK, LANES
from splash.games.bash.events import event_from_json
from splash.games.bash.records import (
    EffectRef,
    PendingMove,
    awaited_from_json,
    operation_from_json,
)
from splash.games.bash.resolver import QUESTION_KINDS, Question
from splash.games.bash.state import PROGRAM, BashState

if TYPE_CHECKING:
    from splash.games.bash.game import BashGame

STATE_KIND = "bash"


def state_to_json(state: BashState) -> dict[str, Json]:
    """The whole state (every hand included), format ``splash/bash/1``."""
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
        "awaiting": None if state.awaiting is None else state.awaiting.to_json(),
        "pending": None if state.pending is None else state.pending.to_json(),
        "effects": [e.to_json() for e in state.effects],
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
    root = Field.root(doc)
    teams = game.num_seats
    state = cls.__new__(cls)
    State.__init__(state, game)
    state._bash = game
    state.board = board_from_json(root["board"], game)
    state.team = root["team"].int_in(0, teams - 1)
    state.active = root["active"].int_in(0, 3)
    state.step = root["step"].int_in(0, len(PROGRAM) - 1)
    state.turns = root["turns"].int_in(0, game.settings.options.turn_cap)
    state.next_pawn = [f.int_in(0, 2) for f in _sized(root["next_pawn"], teams)]
    state.setup_placed = root["setup_placed"].int_in(0, 2)
    state.over = root["over"].as_bool()
    awaiting = root["awaiting"]
    state.awaiting = None if awaiting.is_null() else awaited_from_json(awaiting)
    state.effects = [EffectRef.from_json(e) for e in root["effects"].as_list()]
    turn = root["turn"]
    state.dice = [f.as_int() for f in turn["dice"].as_list()]
    state.rerolled = [f.as_int() for f in turn["rerolled"].as_list()]
    state.extra_dice = turn["extra_dice"].as_int()
    state.modifiers = [[m.as_int() for m in _sized(f, 2)] for f in turn["modifiers"].as_list()]
    state.free_lane = turn["free_lane"].as_bool()
    state.skip_move = turn["skip_move"].as_bool()
    state.lane_cost = turn["lane_cost"].as_int()
    state.movement_over = turn["movement_over"].as_bool()
    pending = root["pending"]
    state.pending = None
    if not pending.is_null():
        question = pending["question"]
        state.pending = PendingMove(
            op=operation_from_json(pending["op"]),
            answers=tuple(f.as_str() for f in pending["answers"].as_list()),
            snapshot=board_from_json(pending["snapshot"], game),
            question=Question(
                question["kind"].one_of(QUESTION_KINDS),
                question["team"].int_in(0, teams - 1),
                tuple(f.as_str() for f in question["options"].as_list()),
                (
                    question["piece"][0].int_in(0, teams - 1),
                    question["piece"][1].int_in(0, 3),
                ),
            ),
        )
    state._history = [_action(game, f) for f in root["history"].as_list()]
    return state


def board_from_json(doc: Field, game: BashGame) -> Board:
    """The board a :meth:`Board.to_json` document describes, checked against ``game``."""
    teams = game.num_seats
    course = game.course
    lanes = len(LANES)
    pieces = []
    for team in _sized(doc["pieces"], teams):
        row = []
        for i, p in enumerate(_sized(team, 4)):
            lane = p["lane"]
            lane_index = None if lane.is_null() else lane.int_in(0, lanes - 1)
            s = p["s"].as_int()
            if lane_index is not None:
                s = p["s"].int_in(0, course.total(lane_index, i == 3) - 1)
            row.append((lane_index, s, p["finished"].as_bool()))
        pieces.append(row)
    board = Board.empty(teams, {})
    for t, row in enumerate(pieces):
        for i, (lane_index, s, finished) in enumerate(row):
            piece = board.pieces[t][i]
            piece.lane, piece.s, piece.finished = lane_index, s, finished
    board.obstacles = set()
    for obstacle in doc["obstacles"].as_list():
        pair = _sized(obstacle, 2)
        lane_index = pair[0].int_in(0, lanes - 1)
        board.obstacles.add((lane_index, pair[1].int_in(0, course.length(lane_index) - 1)))
    decks = game.settings.decks
    hand_cards = tuple(decks[HAND_DECK].cards)
    board.hands = [
        sorted(c.one_of(hand_cards) for c in h.as_list()) for h in _sized(doc["hands"], teams)
    ]
    board.decks = _deck_counts(doc["decks"], game)
    board.discards = _deck_counts(doc["discards"], game)
    for deck, spec in decks.items():
        held = Counter(c for hand in board.hands for c in hand) if deck == HAND_DECK else Counter()
        for card, card_spec in spec.cards.items():
            found = board.decks[deck][card] + board.discards[deck][card] + held[card]
            if found != card_spec.count:
                doc.fail(
                    message(
                        "the deck {deck} has {count} of {card} in all, not {expected}",
                        deck=deck,
                        count=found,
                        card=card,
                        expected=card_spec.count,
                    )
                )
    board.played = {f.int_in(0, teams - 1) for f in doc["played"].as_list()}
    board.events = [event_from_json(e) for e in doc["events"].as_list()]
    winner = doc["winner"]
    board.winner = None if winner.is_null() else winner.int_in(0, teams - 1)
    return board


def _sized(doc: Field, size: int) -> list[Field]:
    items = doc.as_list()
    if len(items) != size:
        doc.fail(message("{count} entries, expected {expected}", count=len(items), expected=size))
    return items


def _deck_counts(doc: Field, game: BashGame) -> dict[str, dict[str, int]]:
    decks = game.settings.decks
    found = dict(doc.members())
    counts: dict[str, dict[str, int]] = {}
    for deck, spec in decks.items():
        if deck not in found:
            doc[deck]
        cards = dict(found.pop(deck).members())
        counts[deck] = {}
        for card in spec.cards:
            count = doc[deck][card].as_int() if card in cards else 0
            if count < 0:
                doc[deck][card].fail(message("a count cannot be negative"))
            counts[deck][card] = count
        for card in cards:
            if card not in spec.cards:
                doc[deck][card].fail(
                    message("{card} is not a card of the deck {deck}", card=card, deck=deck)
                )
    for deck in found:
        doc[deck].fail(message("{deck} is not a deck of this game", deck=deck))
    return counts


def _action(game: BashGame, doc: Field) -> Action:
    try:
        return game.parse_action(doc.value)
    except MalformedActionError as error:
        doc.fail(error.problem)
