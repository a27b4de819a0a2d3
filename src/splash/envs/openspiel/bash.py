"""Splash & Bash as an OpenSpiel game (``python_splash_bash``).

Actions are the game's stable action ids (``BashGame.action_space``), chance outcomes
included: a roll, a card drawn from the cards still in a deck, a card taken from a hand.
The hidden information is the other teams' hands (BD12); a high tide card drawn or taken is
seen by the teams concerned only.  :meth:`BashSpielState.resample_from_infostate` deals the
unseen cards again with the game's own resampler (:func:`splash.games.bash.hidden.resample`)
for OpenSpiel's information-set search.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, cast

import numpy as np
import pyspiel

from splash.core.actions import Action
from splash.envs.openspiel.bash_length import max_game_length
from splash.envs.openspiel.game import SpielGame, game_info, game_type
from splash.envs.openspiel.params import assignments, specification
from splash.envs.openspiel.state import Core, SpielState
from splash.games import GAMES, Information
from splash.games.bash import BashGame, BashState
from splash.games.bash.config import HAND_DECK
from splash.games.bash.encoding import BashEncoding
from splash.games.bash.hidden import resample
from splash.games.bash.records import AwaitSteal

SHORT_NAME = "python_splash_bash"


@cache
def defaults() -> dict[str, Any]:
    """Every parameter with its default: the scalar values of the shipped configuration."""
    return specification(BashGame().config())


@cache
def bash_game_type() -> Any:
    """The ``pyspiel.GameType``: imperfect information (the hands), 2 to 4 teams."""
    declaration = GAMES["bash"]
    return game_type(
        short_name=SHORT_NAME,
        long_name=declaration.name,
        perfect_information=declaration.information is Information.PERFECT,
        min_players=declaration.min_seats,
        max_players=declaration.max_seats,
        parameters=defaults(),
    )


def bash_game_info(game: BashGame) -> Any:
    """The ``pyspiel.GameInfo`` of ``game``: +1 for the winner, -1/(n-1) for the others."""
    size = game.action_space.size
    return game_info(
        num_distinct_actions=size,
        max_chance_outcomes=size,
        num_players=game.num_seats,
        min_utility=-1.0 / (game.num_seats - 1),
        max_game_length=max_game_length(game.settings),
    )


class BashSpielGame(SpielGame):
    """Splash & Bash with the options and data its parameters set."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        given = dict(params or {})
        bash = BashGame.from_settings(assignments(given, defaults()))
        super().__init__(bash_game_type(), bash_game_info(bash), given)
        self.bash = bash
        self.encoding = BashEncoding(bash)

    def new_initial_state(self) -> BashSpielState:
        """Team A places its first pawn."""
        return BashSpielState(self, self.bash.new_initial_state())


class BashSpielState(SpielState):
    """A Splash & Bash position for OpenSpiel."""

    @property
    def bash(self) -> BashState:
        """The wrapped Splash & Bash state."""
        return cast(BashState, self.inner)

    def splash_action(self, action: int) -> Action:
        """The action with id ``action``."""
        return self.inner.game.action_space[action]

    def spiel_action_of(self, action: Action) -> int:
        """The action's id."""
        return action.id

    def spiel_actions(self) -> list[int]:
        """The ids of the legal actions."""
        return self.inner.legal_action_ids()

    def spiel_chance_outcomes(self) -> list[tuple[int, float]]:
        """Each outcome's id with its probability."""
        return [(a.id, float(p)) for a, p in self.inner.chance_outcomes()]

    def private_to(self, action: Action) -> frozenset[int] | None:
        """A high tide card drawn: the drawing team; a card taken: the two teams."""
        state = self.bash
        if action.kind == "draw" and action.param("deck") == HAND_DECK:
            return frozenset({state.team})
        if action.kind == "steal" and isinstance(state.awaiting, AwaitSteal):
            return frozenset({state.team, state.awaiting.victim})
        return None

    def public_text(self, action: Action) -> str:
        """The kind and the deck, never the card."""
        if action.kind == "draw":
            return f"draw from {action.param('deck')}"
        return "take a card"

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> BashSpielState:
        """A state that ``player_id`` cannot tell from this one, the others' hands dealt again.

        ``probability_sampler()`` (OpenSpiel's uniform sampler) seeds the deal.
        """
        seed = int(float(probability_sampler()) * 2**53)
        return self.resample(player_id, np.random.default_rng(seed))

    def resample(self, seat: int, rng: np.random.Generator) -> BashSpielState:
        """A determinization for ``seat``: :func:`~splash.games.bash.hidden.resample`.

        The log keeps what ``seat`` saw; what it did not see is withheld from every seat.
        The new state has no OpenSpiel action history.
        """
        game = cast(BashSpielGame, self.get_game())
        dealt = resample(self.bash, seat, rng)
        core = Core.rebuilt(dealt, [entry.masked_for(seat) for entry in self.seen])
        return BashSpielState(game, core.inner, core.log)


def resampler(seed: int | np.random.SeedSequence) -> Callable[[Any, int], BashSpielState]:
    """A seeded resampler for ``ISMCTSBot.set_resampler``: ``(state, seat) -> state``."""
    rng = np.random.default_rng(seed)

    def sample(state: Any, seat: int) -> BashSpielState:
        return cast(BashSpielState, state).resample(seat, rng)

    return sample


def register() -> None:
    """Register ``python_splash_bash`` with OpenSpiel (again is harmless)."""
    pyspiel.register_game(bash_game_type(), BashSpielGame)
