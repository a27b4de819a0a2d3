"""What each screen of a Splash & Bash room may see beyond a team's own view (BD12): who
sees a high tide card whole, what a spectator or a referee sees, which chance outcomes a
referee screen may list, and the end summary."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from splash.core.actions import Action, Json
from splash.core.protocol import CHANCE, ChanceEvent, State
from splash.games.bash.config import HAND_DECK
from splash.games.bash.game import BashGame
from splash.games.bash.records import AwaitSteal
from splash.games.bash.render import public_view as public_part
from splash.games.bash.state import BashState
from splash.games.bash.summary import bash_summary

CARD = "card"
"""The parameter of an action that names a card of a hand."""


def _state(state: State) -> BashState:
    if not isinstance(state, BashState):
        raise TypeError(f"not a Splash & Bash state: {type(state).__name__}")
    return state


def audience(state: State, action: Action) -> frozenset[int] | None:
    """The teams that see ``action`` whole, applied to ``state`` (``None``: everyone): a card
    drawn from the high tide deck is seen by the team that draws it; a card stolen, by the
    thief and the victim (BD12)."""
    bash = _state(state)
    if bash.to_act() != CHANCE:
        return None
    if action.kind == "draw" and action.param("deck") == HAND_DECK:
        return frozenset({bash.team})
    if isinstance(bash.awaiting, AwaitSteal):
        return frozenset({bash.team, bash.awaiting.victim})
    return None


def conceal(action: Action) -> dict[str, Json]:
    """``action`` as a team outside its audience sees it: without its card (BD12)."""
    return {k: v for k, v in action.to_json().items() if k != CARD}


def public_view(state: State, revealed: Sequence[int] = ()) -> dict[str, Json]:
    """What a spectator or a referee screen may see, with the hands ``revealed`` by their
    teams: the legal actions of the team to act when they show no card (for a referee who
    enters that team's decision), all of them when the team has revealed its hand."""
    bash = _state(state)
    to_act = bash.to_act()
    view = public_part(bash.view(0))
    legal = [a.to_json() for a in bash.legal_actions()] if to_act >= 0 else []
    if to_act not in revealed:
        legal = [a for a in legal if CARD not in a]
    view["legal_actions"] = cast(Json, legal)
    view["revealed_hands"] = {str(s): list(bash.board.hands[s]) for s in sorted(revealed)}
    return cast(dict[str, Json], view)


def listed(event: ChanceEvent) -> bool:
    """Whether a referee screen lists the outcomes of ``event``: not for a high tide draw or a
    steal, which would reveal a hand (BD12)."""
    private = event.kind == "steal" or (
        event.kind == "draw" and event.params.get("deck") == HAND_DECK
    )
    return not private


def summary(state: State) -> dict[str, Json]:
    """The end summary of ``state``'s game (places, each team's counts), from its history."""
    game = state.game
    if not isinstance(game, BashGame):
        raise TypeError(f"not a Splash & Bash game: {type(game).__name__}")
    return cast(dict[str, Json], bash_summary(game, state.history))
