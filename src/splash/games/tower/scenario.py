"""Explicit Splash! positions in a compact notation, for tests and examples.

>>> from splash.games.tower import TowerGame
>>> state = position(TowerGame(), reserves={0: "red-cube", 1: "blue-beam"}, tower="green-cube")
>>> state.phase
'give'

``tower`` lists pieces base first, separated by spaces; ``piece/support`` rests on
``support`` (the previous piece by default); each piece's height is its support's plus the
height of its first face.  ``covered`` names the pieces whose top is taken; ``heights``
overrides heights (mm).  A position that names a piece the game does not have, puts a
piece in two places (T01), or rests a piece on one that is not below it, is refused with a
:class:`~splash.core.errors.ConfigError` naming the piece.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from splash.core.errors import ConfigError
from splash.core.i18n import message
from splash.games.tower.game import TowerGame
from splash.games.tower.places import piece_places, places_problem
from splash.games.tower.state import TowerState
from splash.games.tower.tower import Tower, TowerPiece


def position(
    game: TowerGame,
    *,
    reserves: Mapping[int, str],
    tower: str = "",
    covered: str = "",
    heights: Mapping[str, float] | None = None,
    giver: int = 0,
    drops: Sequence[int] | None = None,
) -> TowerState:
    """A state where ``giver`` is to give, with these reserves and this tower."""
    state = game.new_initial_state()
    state.pile, state.box = [], []
    state.drafted = len(game.catalogue.piece_ids)
    state.reserves = [reserves.get(seat, "").split() for seat in range(game.options.players)]
    pieces: list[TowerPiece] = []
    tokens = [token.partition("/") for token in tower.split()]
    _check_places(game, state.reserves, [piece for piece, _, _ in tokens])
    hidden = set(covered.split())
    for order, (piece, _, support) in enumerate(tokens):
        below = support or (pieces[-1].piece if pieces else "")
        face = next(iter(game.catalogue.shape_of(piece).faces))
        height = float(game.catalogue.shape_of(piece).resting(face).height) * 1000.0
        if below:
            height += _height_of(pieces, piece, below)
        if heights and piece in heights:
            height = heights[piece]
        pieces.append(TowerPiece(piece, below or None, face, height, piece not in hidden, order))
    state.tower = Tower(tuple(pieces))
    for piece in (*hidden, *(heights or {})):
        if piece not in state.tower:
            raise ConfigError(
                message(
                    "{piece} is not in the tower; name pieces among: {pieces}",
                    piece=piece,
                    pieces=", ".join(state.tower.ids()),
                )
            )
    used = {p for r in state.reserves for p in r} | {p.piece for p in pieces}
    state.box = [p for p in game.catalogue.piece_ids if p not in used]
    state.drops = list(drops) if drops is not None else [0] * game.options.players
    state.giver = giver
    state.phase = "give"
    return state


def _check_places(game: TowerGame, reserves: Sequence[Sequence[str]], tower: Sequence[str]) -> None:
    """Every piece named is a piece of the game, in one place only (T01)."""
    places = piece_places(pile=(), reserves=reserves, gift=None, tower=tower, table=(), box=())
    problem = places_problem(game.catalogue.piece_ids, places, all_named=False)
    if problem is not None:
        raise ConfigError(problem)


def _height_of(pieces: Sequence[TowerPiece], piece: str, below: str) -> float:
    for placed in pieces:
        if placed.piece == below:
            return placed.height_mm
    raise ConfigError(
        message(
            "{piece} rests on {support}, which is not in the tower",
            piece=piece,
            support=below,
        )
    )
