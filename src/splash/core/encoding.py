"""The fixed-size encoding of a game for the AI interfaces: action indices, observation
vectors and their layout.

An :class:`Encoding` maps a game's actions to integer indices ``0 .. num_actions - 1`` (one
mask entry each) and a seat's view of a state to a float32 vector of a fixed length, laid
out in the named blocks of a :class:`Layout`.  Each game defines its own
(:mod:`splash.games.bash.encoding`, :mod:`splash.games.tower.encoding`); the PettingZoo,
Gymnasium and OpenSpiel adapters of :mod:`splash.envs` share them.

An encoder writes each entry's raw value (a count, a position in squares or millimetres);
:meth:`Layout.normalise` divides every entry by its block's scale, so that every entry lies in
its block's bounds, ``[0, 1]`` or ``[-1, 1]``.  A scale is a proven maximum taken from the
game's configuration; a block whose raw values have no proven maximum is ``clipped`` to its
bounds, and its documentation says so.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from splash.core.actions import Action
from splash.core.errors import IllegalActionError, MalformedActionError
from splash.core.i18n import Message, message
from splash.core.protocol import Game, State

Vector = NDArray[np.float32]

BOUNDS = ((0.0, 1.0), (-1.0, 1.0))
"""The bounds a block may have."""


@dataclass(frozen=True, slots=True)
class Block:
    """``size`` consecutive entries of an observation, starting at ``start``: raw values
    divided by ``scales`` (one per entry), within ``low`` .. ``high``."""

    name: str
    start: int
    size: int
    low: float
    high: float
    doc: str
    scales: tuple[float, ...]
    scale_doc: str
    clipped: bool

    @property
    def slice(self) -> slice:
        """Where the block lies in the vector."""
        return slice(self.start, self.start + self.size)

    @property
    def range_text(self) -> str:
        """The bounds as the tables write them: ``[0, 1]`` or ``[-1, 1]``."""
        return f"[{self.low:g}, {self.high:g}]"


class Layout:
    """The blocks of an observation, in order; fixed once built."""

    def __init__(self) -> None:
        self._blocks: dict[str, Block] = {}
        self._size = 0
        self._scales: Vector | None = None

    def add(
        self,
        name: str,
        size: int,
        low: float,
        high: float,
        doc: str,
        *,
        scale: float | Sequence[float] = 1.0,
        scale_doc: str = "",
        clipped: bool = False,
    ) -> Block:
        """Append a block of ``size`` entries bounded by ``low`` and ``high`` (``[0, 1]`` or
        ``[-1, 1]``) once divided by ``scale`` (one number, or one per entry);
        ``scale_doc`` says where the scale comes from, ``clipped`` that it is no proven
        maximum and the entries are clipped to the bounds."""
        if name in self._blocks:
            raise ValueError(f"block {name!r} already exists")
        if (low, high) not in BOUNDS:
            raise ValueError(f"block {name!r}: bounds {(low, high)} are not [0, 1] or [-1, 1]")
        scales = (
            (float(scale),) * size if isinstance(scale, int | float) else tuple(map(float, scale))
        )
        if len(scales) != size or not all(s > 0 for s in scales):
            raise ValueError(f"block {name!r}: {len(scales)} scales for {size} entries")
        block = Block(name, self._size, size, low, high, doc, scales, scale_doc, clipped)
        self._blocks[name] = block
        self._size += size
        self._scales = None
        return block

    @property
    def size(self) -> int:
        """The length of the observation vector."""
        return self._size

    @property
    def blocks(self) -> tuple[Block, ...]:
        """Every block, in order."""
        return tuple(self._blocks.values())

    def __getitem__(self, name: str) -> Block:
        return self._blocks[name]

    def zeros(self) -> Vector:
        """An observation vector of zeros."""
        return np.zeros(self._size, dtype=np.float32)

    def bounds(self) -> tuple[Vector, Vector]:
        """The lower and upper bound of every entry (of a normalised vector)."""
        low, high = self.zeros(), self.zeros()
        for block in self._blocks.values():
            low[block.slice] = block.low
            high[block.slice] = block.high
        return low, high

    def scales(self) -> Vector:
        """The divisor of every entry."""
        if self._scales is None:
            scales = self.zeros()
            for block in self._blocks.values():
                scales[block.slice] = block.scales
            self._scales = scales
        return self._scales

    def normalise(self, raw: Vector) -> Vector:
        """Raw values (one vector, or a batch of them in the last axis) divided by their
        scales, the clipped blocks clipped to their bounds."""
        out: Vector = (raw / self.scales()).astype(np.float32, copy=False)
        for block in self._blocks.values():
            if block.clipped:
                part = out[..., block.slice]
                np.clip(part, block.low, block.high, out=part)
        return out

    def table(self) -> str:
        """The layout as a Markdown table (offset, size, name, range, scale, meaning)."""
        rows = [
            "| offset | size | block | range | scale | meaning |",
            "|---:|---:|---|---|---|---|",
        ]
        for b in self._blocks.values():
            scale = b.scale_doc or "1"
            if b.clipped:
                scale += ", clipped"
            rows.append(
                f"| {b.start} | {b.size} | `{b.name}` | {b.range_text} | {scale} | {b.doc} |"
            )
        return "\n".join(rows)


Mask = NDArray[np.bool_]


class Encoding(ABC):
    """Action indices and observation vectors of one game with its options fixed."""

    def __init__(self, game: Game, layout: Layout) -> None:
        self.game = game
        self.layout = layout

    @property
    @abstractmethod
    def num_actions(self) -> int:
        """How many action indices there are (the length of a mask)."""

    @abstractmethod
    def legal_mask(self, state: State) -> Mask:
        """One flag per index: may the seat to act choose it now (all false at a chance node
        or at the end)."""

    @abstractmethod
    def action_of(self, state: State, index: int) -> Action:
        """The game action that ``index`` stands for in ``state``.

        Raises :class:`MalformedActionError` for an index out of range and
        :class:`IllegalActionError` for an index whose flag in :meth:`legal_mask` is false.
        """

    @abstractmethod
    def index_of(self, state: State, action: Action) -> int:
        """The index of ``action`` in ``state`` (:class:`MalformedActionError` when none)."""

    @abstractmethod
    def observation(self, state: State, seat: int) -> Vector:
        """What ``seat`` sees of ``state`` as a vector, built from ``state.view(seat)``."""

    @property
    def observation_shape(self) -> tuple[int]:
        """The shape of every observation vector."""
        return (self.layout.size,)

    def legal_indices(self, state: State) -> list[int]:
        """The indices whose mask flag is true, ascending."""
        return [int(i) for i in np.flatnonzero(self.legal_mask(state))]

    def check_index(self, index: object) -> int:
        """``index`` as an int when it is one of the encoding's indices."""
        if isinstance(index, bool) or not isinstance(index, int | np.integer):
            raise MalformedActionError(index, message("an action index is an integer"))
        if not 0 <= int(index) < self.num_actions:
            raise MalformedActionError(
                index,
                message(
                    "no action index {index} (indices run from 0 to {last})",
                    index=int(index),
                    last=self.num_actions - 1,
                ),
            )
        return int(index)

    def refuse(self, state: State, index: int, reason: Message) -> IllegalActionError:
        """The error for an index that is not legal in ``state``."""
        return IllegalActionError(
            message("index {index}", index=index).render(), state.describe(), reason
        )
