"""Splash! as an OpenSpiel game (``python_splash_tower``).

Decisions are the indices of the game's encoding (:class:`~splash.games.tower.encoding.
TowerEncoding`, as :func:`splash.envs.tower_grid.tower_encoding` checks its grid): the game's
discrete actions by id, then the cells of the placement grid.
Chance nodes:

- a random deal (``options.deal=random``): outcome ``i`` gives the ``i``-th piece of the
  catalogue, one of those left in the pile, each equally likely;
- a placement's outcome: outcome ``k`` (``0 .. samples - 1``, each ``1 / samples``) is the
  ruling of the placement with the ``k``-th tremor sample.  Sample ``k`` is drawn by the
  physics outcome provider seeded with ``SeedSequence([seed, k, *digest])``, where
  ``digest`` is a hash of the state's history, so that one history always offers the same
  ``samples`` outcomes.  ``ruling`` chooses the provider: ``simulation`` (MuJoCo, the game's
  own) or ``statics`` (the static check, much cheaper, for search).

Nothing in Splash! is hidden (TD03: open reserves; the deal and the tremor are public chance
events), so the game is one of perfect information.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Mapping
from functools import cache
from typing import Any, cast

import numpy as np
import pyspiel

from splash.core.actions import Action
from splash.core.errors import MalformedActionError, OptionError
from splash.core.i18n import message
from splash.envs.openspiel.game import SpielGame, game_info, game_type
from splash.envs.openspiel.params import assignments, specification
from splash.envs.openspiel.state import SpielState, compact
from splash.envs.tower_grid import tower_encoding
from splash.games import GAMES, Information
from splash.games.tower import TowerGame, TowerState
from splash.physics.batch import ModelPool, shared_pool
from splash.physics.games import placement_outcomes
from splash.physics.provider import PhysicsOutcomes, physics_game, placement_outcomes_at_once
from splash.physics.settings import RULINGS

SHORT_NAME = "python_splash_tower"
OWN_PARAMETERS: dict[str, Any] = {"samples": 8, "seed": 0, "ruling": "simulation"}
"""The adapter's parameters: tremor samples per placement, their seed, the ruling."""
CACHED_OUTCOMES = 4096
"""Placement outcomes a game keeps, so that a search ruling one twice pays once."""


@cache
def defaults() -> dict[str, Any]:
    """Every parameter with its default: the options' and the catalogue's numbers, and
    :data:`OWN_PARAMETERS`."""
    tree = TowerGame().config()
    numbers = {
        key: value
        for key, value in specification(tree).items()
        if key.startswith("options.") or not isinstance(value, str)
    }
    return {**numbers, **OWN_PARAMETERS}


@cache
def tower_game_type() -> Any:
    """The ``pyspiel.GameType``: perfect information, 2 to 6 players."""
    declaration = GAMES["tower"]
    return game_type(
        short_name=SHORT_NAME,
        long_name=declaration.name,
        perfect_information=declaration.information is Information.PERFECT,
        min_players=declaration.min_seats,
        max_players=declaration.max_seats,
        parameters=defaults(),
    )


def max_game_length(game: TowerGame) -> int:
    """A bound on the nodes of a history, chance included: one take or deal per piece, then
    at most ``turn_cap`` placements, each a gift, a pose, its outcome, a new base and
    ``take_back`` pieces taken back."""
    options = game.options
    return len(game.catalogue.piece_ids) + options.turn_cap * (4 + options.take_back)


class TowerSpielGame(SpielGame):
    """Splash! with the options, catalogue and ruling its parameters set."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        given = {**OWN_PARAMETERS, **dict(params or {})}
        samples, ruling = int(given["samples"]), str(given["ruling"])
        if samples < 1:
            raise OptionError("samples", samples, message("must be a whole number, 1 or more"))
        if ruling not in RULINGS:
            raise OptionError(
                "ruling", ruling, message("must be one of {choices}", choices=", ".join(RULINGS))
            )
        settings = {k: v for k, v in defaults().items() if k not in OWN_PARAMETERS}
        tower = physics_game(assignments(given, settings))
        encoding = tower_encoding(tower)
        teams = len(tower.teams)
        info = game_info(
            num_distinct_actions=encoding.num_actions,
            max_chance_outcomes=max(len(tower.catalogue.piece_ids), samples),
            num_players=tower.num_seats,
            min_utility=-1.0 / (teams - 1),
            max_game_length=max_game_length(tower),
        )
        super().__init__(tower_game_type(), info, given)
        self.tower = tower
        self.encoding = encoding
        self.samples = samples
        self.seed = int(given["seed"])
        self.ruling = ruling
        self.first_deal = tower.action_space.find("deal", piece=tower.catalogue.piece_ids[0]).id
        self._outcomes: OrderedDict[tuple[str, int], Action] = OrderedDict()

    def new_initial_state(self) -> TowerSpielState:
        """Before the draft (or the deal)."""
        return TowerSpielState(self, self.tower.new_initial_state())

    def placement_outcome(self, state: TowerState, k: int) -> Action:
        """The ``result`` action of sample ``k`` of the placement ``state`` waits for.

        Where this process may use more than one core, the first sample asked of a
        placement rules all its samples in one batch (:mod:`splash.physics.batch`); the
        outcomes are the same either way."""
        if self.pool.threads > 1:
            return self.placement_outcomes(state)[k]
        digest = self._digest(state)
        found = self._cached((digest, k))
        if found is None:
            (found,) = placement_outcomes_at_once(state, [self._provider(digest, k)])
            self._keep((digest, k), found)
        return found

    def placement_outcomes(self, state: TowerState) -> list[Action]:
        """The ``result`` actions of every sample of the placement ``state`` waits for,
        those not known yet ruled in one batch."""
        digest = self._digest(state)
        found = [self._cached((digest, k)) for k in range(self.samples)]
        missing = [k for k, action in enumerate(found) if action is None]
        if missing:
            providers = [self._provider(digest, k) for k in missing]
            ruled = placement_outcomes_at_once(state, providers, self.pool)
            for k, action in zip(missing, ruled, strict=True):
                self._keep((digest, k), action)
                found[k] = action
        return [action for action in found if action is not None]

    @property
    def pool(self) -> ModelPool:
        """The threads and models the batches of rulings run on."""
        return shared_pool(self.tower.catalogue)

    @staticmethod
    def _digest(state: TowerState) -> str:
        return hashlib.sha256(compact([a.to_json() for a in state.history]).encode()).hexdigest()

    def _provider(self, digest: str, k: int) -> PhysicsOutcomes:
        words = [int(digest[i : i + 8], 16) for i in range(0, 64, 8)]
        seed = np.random.SeedSequence([self.seed, k, *words])
        return placement_outcomes([("physics.ruling", self.ruling)], seed)

    def _cached(self, key: tuple[str, int]) -> Action | None:
        found = self._outcomes.get(key)
        if found is not None:
            self._outcomes.move_to_end(key)
        return found

    def _keep(self, key: tuple[str, int], action: Action) -> None:
        self._outcomes[key] = action
        if len(self._outcomes) > CACHED_OUTCOMES:
            self._outcomes.popitem(last=False)


class TowerSpielState(SpielState):
    """A Splash! position for OpenSpiel."""

    @property
    def tower(self) -> TowerState:
        """The wrapped Splash! state."""
        return cast(TowerState, self.inner)

    @property
    def spiel_game(self) -> TowerSpielGame:
        """The OpenSpiel game."""
        return cast(TowerSpielGame, self.get_game())

    def splash_action(self, action: int) -> Action:
        """A decision's action from its index; a chance outcome from its number."""
        game = self.spiel_game
        state = self.tower
        if state.phase == "deal":
            return game.tower.action_space[game.first_deal + action]
        if state.phase == "result":
            if not 0 <= action < game.samples:
                raise MalformedActionError(
                    action, message("no such sample of the placement's outcome")
                )
            return game.placement_outcome(state, action)
        return game.encoding.action_of(state, action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == int(pyspiel.PlayerId.CHANCE) and self.tower.phase == "result":
            # Named without ruling it: a ruling costs a simulation.
            return f"chance: tremor sample {action}"
        return super()._action_to_string(player, action)

    def spiel_action_of(self, action: Action) -> int:
        """The encoding's index of a decision."""
        return self.spiel_game.encoding.index_of(self.inner, action)

    def spiel_actions(self) -> list[int]:
        """The legal indices of the encoding."""
        return self.spiel_game.encoding.legal_indices(self.inner)

    def spiel_chance_outcomes(self) -> list[tuple[int, float]]:
        """A deal's pieces, or the ``samples`` outcomes of a placement."""
        game = self.spiel_game
        if self.tower.phase == "result":
            return [(k, 1.0 / game.samples) for k in range(game.samples)]
        return [(a.id - game.first_deal, float(p)) for a, p in self.inner.chance_outcomes()]


def register() -> None:
    """Register ``python_splash_tower`` with OpenSpiel (again is harmless)."""
    pyspiel.register_game(tower_game_type(), TowerSpielGame)
