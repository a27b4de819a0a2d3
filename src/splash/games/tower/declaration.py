"""Splash! declared for the registry of games (:data:`splash.games.GAMES`)."""

from __future__ import annotations

from splash.core.actions import Json
from splash.core.protocol import State
from splash.games.registry import GameDeclaration, Information, SeatKind
from splash.games.tower.game import TowerGame
from splash.games.tower.state import TowerState
from splash.games.tower.view import STATE_KIND


def view(state: State, seat: int) -> dict[str, Json]:
    """What player ``seat`` may know of ``state``: everything (TD03: open reserves, public
    deals and outcomes), with the seat's legal actions."""
    if not isinstance(state, TowerState):
        raise TypeError(f"not a Splash! state: {type(state).__name__}")
    return state.view(seat)


DECLARATION = GameDeclaration(
    id=TowerGame.id,
    name="Splash!",
    from_settings=TowerGame.from_settings,
    from_config=TowerGame.from_config,
    seat=SeatKind.PLAYER,
    seats_key="options.players",
    min_seats=2,
    max_seats=6,
    information=Information.PERFECT,
    chance_kinds=frozenset({"deal", "placement"}),
    view=view,
    state_format=STATE_KIND,
)
"""Splash!: 2 to 6 players, each a seat, alone or in teams (T16); nothing is hidden (TD03:
perfect information); chance deals a piece (``options.deal=random``) and rules a
placement's outcome (the physics, or people at a real table)."""
