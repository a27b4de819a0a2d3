"""T01 after every action: each of the 30 pieces exactly once in every document the engine
gives out — every seat's view, the state document, the saved game replayed (to its end and
to a step), the state read back — over seeded games with people's reports (referee mode)."""

from __future__ import annotations

import numpy as np
import pytest

from splash.games.tower import TowerGame, TowerState
from tests.games.tower.playouts import (
    check_documents,
    check_saved,
    check_views,
    play_checked,
    reported_outcomes,
)

COMBINATIONS = [
    pytest.param(players, deal, id=f"{players}-{deal}")
    for players in range(2, 7)
    for deal in ("draft", "random")
]
GAMES = 100
"""Games per combination of player count and deal, every view checked after every action."""
DOCUMENTS_EVERY = 4
"""One game in this many also has its state document checked after every action, and is
saved, replayed and read back at its end (the document holds the whole history: checking it
after every action of every game would take most of the test's time)."""


def _games(players: int, deal: str) -> list[TowerGame]:
    """The combination's game, and the same with the top placement (T05)."""
    base = [("options.players", players), ("options.deal", deal)]
    return [
        TowerGame.from_settings(base),
        TowerGame.from_settings([*base, ("options.placement", "top")]),
    ]


@pytest.mark.rule("T01")
@pytest.mark.parametrize(("players", "deal"), COMBINATIONS)
def test_T01_every_piece_once_after_every_action(players: int, deal: str) -> None:
    games = _games(players, deal)
    ends: set[str] = set()
    for index in range(GAMES):
        seed = players * 100_000 + (deal == "random") * 10_000 + index
        game = games[index % len(games)]
        documents = index % DOCUMENTS_EVERY == 0
        check = check_documents if documents else check_views
        state = play_checked(game, seed, reported_outcomes(seed), check)
        if documents:
            check_saved(state, np.random.default_rng(seed), f"seed {seed}")
        ends.add(_end(state))
    assert ends >= {"pieces", "drops"}  # both ends of the game were reached (T14, T15)


def _end(state: TowerState) -> str:
    win = state.win_event()
    return win["by"] if win is not None else "none"
