"""Explicit Splash! positions in a compact notation, for tests and examples.

>>> from splash.games.tower import TowerGame
>>> state = position(TowerGame(), reserves={0: "red-cube", 1: "blue-beam"}, tower="green-cube")
>>> state.phase
'give'

``tower`` lists pieces base first, separated by spaces; ``piece/support`` rests on
``support`` (the previous piece by default); each piece's height is its support's plus the
height of its first face.  ``covered`` names the pieces whose top is taken; ``heights``
overrides heights (mm).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from splash.games.tower.game import TowerGame
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
    hidden = set(covered.split())
    for order, token in enumerate(tower.split()):
        piece, _, support = token.partition("/")
        below = support or (pieces[-1].piece if pieces else "")
        face = next(iter(game.catalogue.shape_of(piece).faces))
        height = float(game.catalogue.shape_of(piece).resting(face).height) * 1000.0
        if below:
            height += next(p.height_mm for p in pieces if p.piece == below)
        if heights and piece in heights:
            height = heights[piece]
        pieces.append(TowerPiece(piece, below or None, face, height, piece not in hidden, order))
    state.tower = Tower(tuple(pieces))
    used = {p for r in state.reserves for p in r} | {p.piece for p in pieces}
    state.box = [p for p in game.catalogue.piece_ids if p not in used]
    state.drops = list(drops) if drops is not None else [0] * game.options.players
    state.giver = giver
    state.phase = "give"
    return state
