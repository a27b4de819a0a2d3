"""Splash! declared for the registry of games (:data:`splash.games.GAMES`)."""

from __future__ import annotations

from splash.core.actions import Json
from splash.core.i18n import N_
from splash.core.protocol import State
from splash.games.registry import (
    Choice,
    GameDeclaration,
    Information,
    Level,
    Lobby,
    RefereeSide,
    SeatKind,
    SeatNaming,
    Variant,
)
from splash.games.tower import referee_side
from splash.games.tower.assets import assets
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
    summary=referee_side.summary,
    seat_naming=SeatNaming(
        N_("Player {seat}"), "seat", tuple(str(n) for n in range(1, 7)), N_("Players")
    ),
    lobby=Lobby(
        page="tower.html",
        replay="replay-tower.js",
        default_seats=3,
        choices=(
            Choice(
                "options.placement",
                N_("Placement"),
                ("highest-matching", "top"),
                (N_("on the highest matching piece"), N_("on the top of the tower")),
            ),
            Choice("options.deal", N_("Deal"), ("draft", "random"), (N_("draft"), N_("random"))),
            Choice(
                "options.placement_aid",
                N_("Placement aid"),
                ("region", "odds"),
                (N_("where the piece may go"), N_("where it may go, and its odds")),
            ),
        ),
        levels=(
            Level(N_("Beginner"), "random", 0),
            Level(N_("Club"), "planner:samples=1,candidates=3,ruling=statics", 1),
            Level(N_("Expert"), "planner:samples=4", 2),
            Level(N_("Master"), "planner:samples=8", 3),
        ),
    ),
    assets=assets,
    referee=RefereeSide(
        digital=frozenset({"deal"}),
        listed=referee_side.listed,
        report=referee_side.reported_outcome,
        automatic=referee_side.automatic,
    ),
    variants=(
        Variant("4"),
        Variant(
            "3-top-random-deal",
            (("options.players", 3), ("options.placement", "top"), ("options.deal", "random")),
        ),
        Variant("6-teams", (("options.players", 6), ("options.teams", 3))),
    ),
)
"""Splash!: 2 to 6 players, each a seat numbered from 1, alone or in teams (T16); nothing is
hidden (TD03: perfect information, every screen sees everything); chance deals a piece
(``options.deal=random``, which a referee room may have the server draw) and rules a
placement's outcome (the physics, or people at a real table, who report it)."""
