"""Where the compiled encoder (:func:`splash.fast.vec_kernel.encode`) writes each block of
:class:`~splash.games.bash.encoding.BashEncoding`'s observation: the table ``Q`` of
:func:`encoding_table`, shared by the vector environment and the batched after-states."""

from __future__ import annotations

import numpy as np

from splash.fast import kernel as k
from splash.fast import vec_kernel as vk
from splash.fast.convert import WINDOW_CODES
from splash.fast.tables import IntArray, Tables
from splash.games.bash.config import DECKS
from splash.games.bash.encoding import AWAITED, PIECE_FEATURES, BashEncoding

AWAITED_KINDS = {
    k.AW_START: "start_lane",
    k.AW_DRAW: "draw",
    k.AW_ROLL: "roll",
    k.AW_STEAL: "steal",
    k.AW_LANE: "lane",
    k.AW_DISCARD: "discard",
    k.AW_OBST: "obstacle",
    k.AW_TARGET: "target",
    k.AW_VICTIM: "victim",
    k.AW_KEEP: "keep",
}
"""The awaited kinds of the state array by the names of :data:`AWAITED`."""


def encoding_table(encoding: BashEncoding, tables: Tables) -> IntArray:
    """The compiled encoder's ``Q``: where each block of ``encoding``'s layout starts, and
    how the encoding orders decks, lanes and awaited kinds."""
    Q = np.full(vk.Q_LEN, -1, np.int64)
    names = [
        "seat",
        "to_act",
        "turn_team",
        "active",
        "turn",
        "pieces",
        "obstacles",
        "dice",
        "rerolled",
        "roll",
        "free_lane",
        "skip_move",
        "awaiting",
        "hand",
        "hand_sizes",
        "deck_sizes",
        "discards",
        "played",
        "winner",
        "terminal",
    ]
    for offset, name in enumerate(names):
        Q[offset] = encoding.layout[name].start
    Q[vk.Q_SIZE] = encoding.layout.size
    Q[vk.Q_PSIZE] = encoding.piece_size
    Q[vk.Q_PFEAT] = len(PIECE_FEATURES)
    Q[vk.Q_NHAND] = len(encoding.hand_cards)
    Q[vk.Q_NDECK] = len(encoding.decks)
    offset = 0
    for i, (deck, cards) in enumerate(encoding.decks.items()):
        Q[vk.Q_DECK + i] = DECKS.index(deck)
        Q[vk.Q_DISCOFF + i] = offset
        offset += len(cards)
    starts = np.cumsum((0, *encoding.course.lengths))
    Q[vk.Q_LANESTART : vk.Q_LANESTART + 3] = starts[:3]
    for kind, name in AWAITED_KINDS.items():
        Q[vk.Q_AWIDX + kind] = AWAITED.index(name)
    for window, code in WINDOW_CODES.items():
        Q[vk.Q_WINIDX + code] = AWAITED.index(f"window:{window}")
    Q[vk.Q_REACT] = AWAITED.index("reaction:lifebuoy")
    Q[vk.Q_REACT + 1] = AWAITED.index("reaction:discard")
    return Q
