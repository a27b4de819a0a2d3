"""Named blocks of a flat observation vector: offsets, sizes, bounds and documentation."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

Vector = NDArray[np.float32]


@dataclass(frozen=True, slots=True)
class Block:
    """``size`` consecutive entries of an observation, starting at ``start``."""

    name: str
    start: int
    size: int
    low: float
    high: float
    doc: str

    @property
    def slice(self) -> slice:
        """Where the block lies in the vector."""
        return slice(self.start, self.start + self.size)


class Layout:
    """The blocks of an observation, in order; fixed once built."""

    def __init__(self) -> None:
        self._blocks: dict[str, Block] = {}
        self._size = 0

    def add(self, name: str, size: int, low: float, high: float, doc: str) -> Block:
        """Append a block of ``size`` entries bounded by ``low`` and ``high``."""
        if name in self._blocks:
            raise ValueError(f"block {name!r} already exists")
        block = Block(name, self._size, size, low, high, doc)
        self._blocks[name] = block
        self._size += size
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
        """The lower and upper bound of every entry."""
        low, high = self.zeros(), self.zeros()
        for block in self._blocks.values():
            low[block.slice] = block.low
            high[block.slice] = block.high
        return low, high

    def table(self) -> str:
        """The layout as a Markdown table (offset, size, name, meaning)."""
        rows = ["| offset | size | block | meaning |", "|---:|---:|---|---|"]
        rows += [f"| {b.start} | {b.size} | `{b.name}` | {b.doc} |" for b in self._blocks.values()]
        return "\n".join(rows)
