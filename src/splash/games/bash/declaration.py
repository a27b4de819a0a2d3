"""Splash & Bash declared for the registry of games (:data:`splash.games.GAMES`)."""

from __future__ import annotations

from splash.core.actions import Json
from splash.core.i18n import N_
from splash.core.protocol import State
from splash.games.bash import screens
from splash.games.bash.assets import assets
from splash.games.bash.board import TEAM_LETTERS
from splash.games.bash.game import BashGame
from splash.games.bash.serial import STATE_KIND
from splash.games.bash.state import BashState
from splash.games.registry import (
    Choice,
    GameDeclaration,
    Information,
    Level,
    Lobby,
    RefereeSide,
    Screens,
    SeatKind,
    SeatNaming,
    Variant,
)

STRONG_SEARCH = "ismcts:engine=fast,iterations=5000,rollout=greedy,evaluation=greedy,max_depth=24"
"""The strongest Splash & Bash bot measured (README: it beats ``expectimax``)."""


def view(state: State, seat: int) -> dict[str, Json]:
    """What team ``seat`` may know of ``state`` (BD12): the board, the decks' sizes, the size
    of every hand and its own hand's cards; another team's high tide draws and steals lose
    their card."""
    if not isinstance(state, BashState):
        raise TypeError(f"not a Splash & Bash state: {type(state).__name__}")
    return state.view(seat)


DECLARATION = GameDeclaration(
    id=BashGame.id,
    name="Splash & Bash",
    from_settings=BashGame.from_settings,
    from_config=BashGame.from_config,
    seat=SeatKind.TEAM,
    seats_key="options.teams",
    min_seats=2,
    max_seats=4,
    information=Information.IMPERFECT,
    chance_kinds=frozenset({"draw", "roll", "steal"}),
    view=view,
    state_format=STATE_KIND,
    summary=screens.summary,
    seat_naming=SeatNaming(N_("Team {team}"), "team", tuple(TEAM_LETTERS), N_("Teams")),
    lobby=Lobby(
        page="bash.html",
        replay="replay-bash.js",
        default_seats=2,
        choices=(
            Choice(
                "options.obstacles",
                N_("Obstacles"),
                ("one-shot", "permanent"),
                (N_("removed once used"), N_("stay for good")),
            ),
            Choice("board.laps", N_("Laps"), ("2", "1", "3")),
            Choice(
                "options.turn_order",
                N_("Turn order (BV01)"),
                ("seat", "rotate", "snake"),
                (
                    N_("seat order every round"),
                    N_("each round opened by the next team"),
                    N_("snake: A B, then B A"),
                ),
                variant=True,
            ),
            Choice(
                "options.first_turn_penalty",
                N_("First team's first roll reduced by (BV02)"),
                ("0", "1", "2", "3"),
                variant=True,
            ),
            Choice(
                "options.start_stagger",
                N_("Later teams start ahead by, squares a team (BV03)"),
                ("0", "1", "2", "3"),
                variant=True,
            ),
            Choice(
                "options.catch_up_draw",
                N_("The team furthest behind draws twice (BV04)"),
                ("false", "true"),
                (N_("no"), N_("yes")),
                variant=True,
            ),
            Choice(
                "options.opening_cards",
                N_("Opening high tide card for every later team (BV05)"),
                ("0", "1"),
                (N_("no"), N_("yes")),
                variant=True,
            ),
        ),
        # Ranked by measured strength (README, docs/envs.md): each level beats the one
        # before it, but Master and Self-taught have not met (both beat Expert).
        levels=(
            Level(N_("Beginner"), "random", 0),
            Level(N_("Club"), "greedy", 1),
            Level(N_("Expert"), "expectimax", 2),
            Level(N_("Self-taught"), "td:ply=2", 3),
            Level(N_("Master"), STRONG_SEARCH, 4),
        ),
    ),
    assets=assets,
    screens=Screens(
        public_view=screens.public_view, audience=screens.audience, conceal=screens.conceal
    ),
    referee=RefereeSide(digital=frozenset({"roll", "draw", "steal"}), listed=screens.listed),
    variants=(
        Variant("2"),
        Variant("3", (("options.teams", 3),)),
        # Permanent fish bones fill the course, and random games of four teams often run to
        # the turn cap: a lower cap keeps them short and its end in the checks.
        Variant(
            "4-permanent",
            (("options.teams", 4), ("options.obstacles", "permanent"), ("options.turn_cap", 300)),
        ),
    ),
)
"""Splash & Bash: 2 to 4 teams, each a seat, named by a letter; the hands of the high tide
deck are hidden (imperfect information: BD12); chance draws a card, rolls the die or takes a
card from a hand, and a referee room may have the server draw any of them."""
