"""The reference engine replays what the compiled core played, and says where they differ.

At every action of a fast game's log the reference state's legal actions (or chance
outcomes) must be exactly the fast core's, and the final states must be equal
(:func:`splash.fast.convert.comparable`).  A difference is a typed record: the seed, the
step (the index of the action in the log; ``-1`` for the end of the game) and what differed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from splash.core.actions import Action
from splash.core.protocol import State
from splash.fast.batch import Games
from splash.fast.convert import comparable, to_arrays
from splash.fast.tables import Tables
from splash.games.bash import BashState


@dataclass(frozen=True)
class Difference:
    """Where a fast game and its reference replay part."""

    seed: int
    step: int
    """Index of the action in the game's log; ``-1`` at the end of the game."""
    what: str
    """``legal actions``, ``final state`` or ``column <name>``."""
    fast: str
    reference: str


Observer = Callable[[State, Action], None]


def replay(
    tables: Tables, games: Games, g: int, on_action: Observer | None = None
) -> tuple[BashState, list[Difference]]:
    """Replay game ``g`` of ``games`` (played with ``verify=True``) through the reference
    engine; the final reference state and the differences found (none when they agree)."""
    game = tables.game
    seed = int(games.seeds[g])
    state = game.new_initial_state()
    space = game.action_space
    log = games.actions_of(g)
    first = int(games.action_offsets[g])
    for step, action_id in enumerate(log):
        at = first + step
        fast = games.legal[games.legal_offsets[at] : games.legal_offsets[at + 1]].tolist()
        reference = [a.id for a in state.legal_actions()]
        if fast != reference:
            return state, [Difference(seed, step, "legal actions", str(fast), str(reference))]
        state.apply_legal(space[int(action_id)])
        if on_action is not None:
            on_action(state, space[int(action_id)])
    differences = []
    mine = comparable(tables, games.finals[g])
    theirs = comparable(tables, to_arrays(tables, state))
    if not state.over or mine.shape != theirs.shape or not np.array_equal(mine, theirs):
        where: list[int] = (
            np.flatnonzero(mine != theirs).tolist() if mine.shape == theirs.shape else []
        )
        differences.append(
            Difference(seed, -1, "final state", f"differs at {where[:8]}", state.describe())
        )
    return state, differences
