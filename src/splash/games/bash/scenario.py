"""Explicit positions in a compact notation, for tests, examples and puzzles.

>>> from splash.games.bash import BashGame
>>> state = position(BashGame(), pieces="A1:c5 B1:c8", hands="A:shove")
>>> state.board.pieces[1][0].s
8

Pieces are ``LABEL:WHERE`` with a label such as ``A1``, ``B3`` or ``AH`` (helmsman) and
``WHERE`` a lane letter (``o`` outer, ``c`` centre, ``h`` high tide) followed by the
position ``s`` counted from the start, laps included (``c40`` is centre square 6 of lap 2),
or ``done`` for a finished piece.  Pawns not listed wait on the centre start line; a
helmsman not listed is not on the course.  Obstacles are physical squares (``c14 h7``).
Hands are ``A:shove,lifebuoy B:undertow``; their cards leave the high tide deck.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from splash.core.errors import MalformedActionError
from splash.core.i18n import message
from splash.games.bash.board import PIECE_LABELS, TEAM_LETTERS
from splash.games.bash.game import BashGame
from splash.games.bash.geometry import HELMSMAN
from splash.games.bash.state import BashState

LANE_LETTERS = {"o": 0, "c": 1, "h": 2}
LANE_IDS = ("outer", "centre", "high_tide")


def _team(letter: str) -> int:
    if letter not in TEAM_LETTERS:
        raise ValueError(f"unknown team {letter!r}")
    return TEAM_LETTERS.index(letter)


def _square(text: str) -> tuple[int, int]:
    if not text or text[0] not in LANE_LETTERS or not text[1:].isdigit():
        raise ValueError(f"a square is a lane letter (o, c, h) and a number, not {text!r}")
    return LANE_LETTERS[text[0]], int(text[1:])


def position(
    game: BashGame,
    *,
    pieces: str = "",
    obstacles: str = "",
    hands: str = "",
    team: str = "A",
    active: str | None = None,
    decks: Mapping[str, Mapping[str, int]] | None = None,
    discards: Mapping[str, Mapping[str, int]] | None = None,
    turns: int = 0,
) -> BashState:
    """A state at the start of ``team``'s turn with the given position.

    ``active`` names the pawn whose turn it is (default: the team's first unfinished pawn);
    ``decks`` and ``discards`` replace the composition of the named decks and piles.  The state has
    already run to its first decision or chance event (usually the automatic draw).
    """
    state = game.new_initial_state()
    board = state.board
    for team_pieces in board.pieces:
        for piece in team_pieces:
            piece.lane, piece.s, piece.finished = (
                (None, 0, False) if piece.helmsman else (1, 0, False)
            )
    for token in pieces.split():
        label, _, where = token.partition(":")
        if len(label) != 2 or label[1] not in PIECE_LABELS:
            raise ValueError(f"a piece is a team letter and 1, 2, 3 or H, not {label!r}")
        piece = board.pieces[_team(label[0])][PIECE_LABELS.index(label[1])]
        if where == "done":
            piece.lane, piece.s, piece.finished = None, 0, True
        else:
            piece.lane, piece.s = _square(where)
    board.obstacles = {_square(token) for token in obstacles.split()}
    for token in hands.split():
        letter, _, cards = token.partition(":")
        for card in filter(None, cards.split(",")):
            if board.decks["high_tide"].get(card, 0) <= 0:
                raise ValueError(f"no {card!r} left in the high tide deck")
            board.decks["high_tide"][card] -= 1
            board.add_card(_team(letter), card)
    for deck, counts in (decks or {}).items():
        board.decks[deck] = {card: int(counts.get(card, 0)) for card in board.decks[deck]}
    for deck, counts in (discards or {}).items():
        board.discards[deck] = {card: int(counts.get(card, 0)) for card in board.discards[deck]}
    state.team = _team(team)
    if active is not None:
        index = PIECE_LABELS.index(active[1])
        if index != HELMSMAN:
            state.next_pawn[state.team] = index
    state.turns = turns
    state.setup_placed = 0
    state.step = 0
    state.awaiting = None
    state._advance()
    return state


def parse_move(state: BashState, text: str) -> dict[str, Any]:
    """The JSON form of a move written as people say it.

    ``draw breeze``, ``roll 4``, ``start outer``, ``lane centre``, ``stay``, ``pass``,
    ``play shove``, ``discard undertow``, ``obstacle c12``, ``target B2``, ``victim B``,
    ``keep second``, ``steal shove``.
    """
    words = text.split()
    if not words:
        raise MalformedActionError(text, message("empty move"))
    verb, args = words[0], words[1:]
    try:
        if verb == "draw":
            event = state.chance_event()
            deck = str(event.params["deck"]) if event is not None else "low_tide"
            return {"kind": "draw", "deck": deck, "card": args[0]}
        if verb == "roll":
            return {"kind": "roll", "face": int(args[0])}
        if verb == "start":
            return {"kind": "start_lane", "lane": args[0]}
        if verb == "lane":
            return {"kind": "change_lane", "lane": args[0]}
        if verb in ("stay", "pass"):
            return {"kind": verb}
        if verb in ("play", "discard", "steal"):
            return {"kind": verb, "card": args[0]}
        if verb == "obstacle":
            lane, square = _square(args[0])
            return {"kind": "obstacle", "lane": LANE_IDS[lane], "square": square}
        if verb == "target":
            return {
                "kind": "target",
                "team": _team(args[0][0]),
                "piece": PIECE_LABELS.index(args[0][1]),
            }
        if verb == "victim":
            return {"kind": "victim", "team": _team(args[0])}
        if verb == "keep":
            return {"kind": "keep", "roll": args[0]}
    except (IndexError, ValueError) as error:
        raise MalformedActionError(text, message("{problem}", problem=str(error))) from None
    raise MalformedActionError(text, message("unknown move {verb!r}", verb=verb))


def play_moves(state: BashState, *moves: str) -> BashState:
    """Apply each move of :func:`parse_move`'s notation in turn; returns the state."""
    for move in moves:
        state.apply(parse_move(state, move))
    return state


def where(state: BashState, label: str) -> str:
    """A piece's place in the notation of :func:`position` (``c12``, ``done``, ``off``)."""
    piece = state.board.pieces[_team(label[0])][PIECE_LABELS.index(label[1])]
    if piece.finished:
        return "done"
    if piece.lane is None:
        return "off"
    return "och"[piece.lane] + str(piece.s)
