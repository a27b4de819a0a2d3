"""Splash & Bash declared for the registry of games (:data:`splash.games.GAMES`)."""

from __future__ import annotations

from splash.core.actions import Json
from splash.core.protocol import State
from splash.games.bash.game import BashGame
from splash.games.bash.serial import STATE_KIND
from splash.games.bash.state import BashState
from splash.games.registry import GameDeclaration, Information, SeatKind


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
)
"""Splash & Bash: 2 to 4 teams, each a seat; the hands of the high tide deck are hidden
(imperfect information); chance draws a card, rolls the die or takes a card from a hand."""
