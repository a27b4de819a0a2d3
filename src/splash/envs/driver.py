"""One game played for an environment: the state, its chance outcomes, the episode seeds.

A :class:`Table` holds the game, its encoding and the state of the current episode; every
chance event is answered at once by the episode's outcome provider, so the state a caller
sees is always a decision or the end.  Seeds: ``reset(seed)`` starts a
:class:`numpy.random.SeedSequence` from ``seed``; each episode spawns one child of it, from
which the outcome provider and any bots are seeded, so the same seed gives the same games.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import numpy as np

from splash.core.actions import Action
from splash.core.encoding import Encoding
from splash.core.errors import OptionError
from splash.core.i18n import message
from splash.core.outcomes import OutcomeProvider, RandomOutcomes, RoutedOutcomes
from splash.core.protocol import Game, State
from splash.core.settings import parse_assignment
from splash.envs.encoding import encoding_for
from splash.games import GAMES
from splash.games.registry import declaration_of

Settings = Iterable[tuple[str, Any] | str] | Mapping[str, Any]
"""``--set`` style settings: ``("options.teams", 3)`` pairs, ``"options.teams=3"`` texts or
a mapping of keys to values."""
OutcomesFactory = Callable[[np.random.SeedSequence], OutcomeProvider]


def assignments(settings: Settings | None) -> list[tuple[str, Any]]:
    """``settings`` as ``(key, value)`` pairs (texts are read as ``KEY=VALUE``)."""
    if settings is None:
        return []
    if isinstance(settings, Mapping):
        return [(str(k), v) for k, v in settings.items()]
    pairs: list[tuple[str, Any]] = []
    for item in settings:
        if isinstance(item, str):
            pairs.append(parse_assignment(item))
        elif isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str):
            pairs.append((item[0], item[1]))
        else:
            raise OptionError(
                "settings", item, message("a setting is KEY=VALUE or a (key, value) pair")
            )
    return pairs


class Table:
    """A game, its encoding, and the episode being played (module docs)."""

    def __init__(self, game: Game, outcomes: OutcomesFactory) -> None:
        self.game = game
        self.encoding: Encoding = encoding_for(game)
        self._outcomes = outcomes
        self._root: np.random.SeedSequence | None = None
        self.provider: OutcomeProvider | None = None
        self.state: State = game.new_initial_state()
        self.episode_seed = np.random.SeedSequence(0)

    def reset(self, seed: int | None = None) -> np.random.SeedSequence:
        """A new episode; returns its seed sequence (spawn from it to seed bots)."""
        if seed is not None:
            self._root = np.random.SeedSequence(seed)
        elif self._root is None:
            self._root = np.random.SeedSequence()
        self.episode_seed = self._root.spawn(1)[0]
        chance, players = self.episode_seed.spawn(2)
        self.provider = self._outcomes(chance)
        self.state = self.game.new_initial_state()
        self.resolve_chance()
        return players

    def resolve_chance(self) -> None:
        """Apply chance outcomes until a seat is to decide or the game is over."""
        if self.provider is None:
            raise RuntimeError("reset() the table before playing")
        while self.state.is_chance():
            self.state.apply(self.provider.outcome(self.state))

    def apply(self, action: Action) -> None:
        """Apply a seat's ``action``, then every chance outcome that follows."""
        self.state.apply(action)
        self.resolve_chance()


def game_table(game_id: str, settings: Settings | None = None) -> Table:
    """A table of ``game_id`` as the physics layer plays it
    (:data:`splash.physics.games.PHYSICAL_GAMES`): the chance events the physics rules by
    its providers, every other one from a seeded generator (a game the physics has no entry
    for: its rules engine, every chance outcome from the generator).  An episode's seed is split in
    the generator's seed first, then one per kind the physics rules."""
    from splash.physics.games import PHYSICAL_GAMES

    pairs = assignments(settings)
    physical = PHYSICAL_GAMES.get(game_id)
    if physical is None:
        game = declaration_of(GAMES, game_id).from_settings(pairs)
        return Table(game, RandomOutcomes)
    game = physical.build(pairs)
    kinds = list(physical.outcomes)

    def outcomes(seed: np.random.SeedSequence) -> OutcomeProvider:
        if not kinds:
            return RandomOutcomes(seed)
        other, *ruled = seed.spawn(1 + len(kinds))
        providers = {
            kind: physical.outcomes[kind](pairs, child)
            for kind, child in zip(kinds, ruled, strict=True)
        }
        return RoutedOutcomes(providers, RandomOutcomes(other))

    return Table(game, outcomes)


def bash_table(settings: Settings | None = None) -> Table:
    """A Splash & Bash table: die rolls and card draws from a seeded generator."""
    return game_table("bash", settings)


def tower_table(settings: Settings | None = None, *, ruling: str | None = None) -> Table:
    """A Splash! table: deals from a seeded generator, placements ruled by the physics with
    the placer's tremor (TD14).  ``ruling`` sets ``physics.ruling`` (``simulation``, or
    ``statics`` where the physics offers it)."""
    pairs = assignments(settings)
    if ruling is not None:
        pairs.append(("physics.ruling", ruling))
    return game_table("tower", pairs)
