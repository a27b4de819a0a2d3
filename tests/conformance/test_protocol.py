"""One conformance suite over every game: random playouts checked against the protocol."""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from splash.core import (
    CHANCE,
    Action,
    ActionError,
    Game,
    GameRecord,
    IllegalActionError,
    MalformedActionError,
    RandomOutcomes,
    State,
)
from splash.core.outcomes import OutcomeProvider, RoutedOutcomes
from splash.games import GAMES as DECLARATIONS
from splash.games.registry import Assignments, GameDeclaration
from splash.games.tower import TowerGame, TowerState, referee
from tests.third.game import DECLARATION as THIRD


def _variant(declaration: GameDeclaration, settings: Assignments) -> Callable[[], Game]:
    return lambda: declaration.from_settings(settings)


GAMES: dict[str, Callable[[], Game]] = {
    f"{declaration.id}-{variant.name}": _variant(declaration, variant.settings)
    for declaration in (*DECLARATIONS.values(), THIRD)
    for variant in declaration.checked_variants()
}
"""Every variant of every game's declaration, by ``<game>-<variant>``: the games of the
registry and Third, the game declared outside ``splash`` (:mod:`tests.third.game`)."""


class RandomReports:
    """Placement outcomes as people might report them, drawn from a seeded generator."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def outcome(self, state: State) -> Action:
        assert isinstance(state, TowerState) and state.gift is not None
        draw = self.rng.random()
        if draw < 0.75 or not state.tower.pieces:
            return referee.stood(state, room_left=bool(self.rng.random() < 0.2))
        pieces = [*state.tower.ids(), state.gift]
        if draw < 0.95:
            keep = int(self.rng.integers(1, len(pieces)))
            return referee.fell(state, [pieces[:keep]], pieces[keep:])
        if draw < 0.98:
            return referee.spontaneous(state)
        knocker = int(self.rng.integers(state.players))
        if len(state.tower) == 1:  # a knocked tower of one piece lies on the table
            return referee.knocked(state, knocker, [], pieces[:1])
        return referee.knocked(state, knocker, [pieces[:1]], pieces[1:-1])


def provider(game: Game, seed: int) -> OutcomeProvider:
    """Seeded outcomes for every chance event of ``game``."""
    if isinstance(game, TowerGame):
        return RoutedOutcomes({"placement": RandomReports(seed)}, RandomOutcomes(seed))
    return RandomOutcomes(seed)


def playout(
    game: Game, seed: int, check: Callable[[State, np.random.Generator], None] | None = None
) -> State:
    """A random game: seeded outcomes, uniformly random decisions."""
    rng = np.random.default_rng(seed)
    outcomes = provider(game, seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.to_act() == CHANCE:
            action = outcomes.outcome(state)
        else:
            legal = state.legal_actions()
            action = legal[int(rng.integers(len(legal)))]
        state.apply(action)
        if check is not None:
            check(state, rng)
    return state


def _protocol_checks(state: State, rng: np.random.Generator) -> None:
    legal = state.legal_actions()
    assert [a.id for a in legal] == sorted(a.id for a in legal)
    mask = state.legal_action_mask()
    assert [i for i, flag in enumerate(mask) if flag] == [a.id for a in legal]
    if state.is_chance() and state.chance_outcomes():
        total = sum((p for _, p in state.chance_outcomes()), Fraction(0))
        assert total == 1
        assert [a for a, _ in state.chance_outcomes()] == legal
    if rng.random() < 0.03:
        doc = json.loads(json.dumps(state.to_json()))
        again = state.game.state_from_json(doc)
        assert again == state
        assert again.legal_actions() == legal
        twin = state.clone()
        assert twin == state
        assert twin.game is state.game
        if legal:
            twin.apply(legal[0])
            assert twin != state or state.is_terminal()
    if rng.random() < 0.03 and not state.is_terminal():
        before = state.to_json()
        illegal = [i for i, flag in enumerate(mask) if not flag]
        action_id = illegal[int(rng.integers(len(illegal)))]
        with pytest.raises(IllegalActionError) as error:
            state.apply(action_id)
        assert state.game.action_space[action_id].kind in str(error.value) or str(error.value)
        with pytest.raises(MalformedActionError):
            state.apply({"kind": "teleport"})
        with pytest.raises(ActionError):
            state.apply(state.game.action_space.size + 5)
        assert state.to_json() == before


@pytest.mark.parametrize("name", sorted(GAMES))
@settings(deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
@example(seed=182)  # tower-6-teams: a candidate base kept into the reserve during T12
def test_random_playouts_keep_the_protocol(name: str, seed: int) -> None:
    game = GAMES[name]()
    state = playout(game, seed, _protocol_checks)
    returns = state.returns()
    assert len(returns) == game.num_seats
    assert abs(sum(returns)) < 1e-9


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_same_seed_and_actions_give_the_same_game(name: str) -> None:
    first = playout(GAMES[name](), 1234)
    second = playout(GAMES[name](), 1234)
    assert first.history == second.history
    assert first.to_json() == second.to_json()
    other = playout(GAMES[name](), 1235)
    assert other.history != first.history


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_action_log_rebuilds_the_state_exactly(name: str) -> None:
    game = GAMES[name]()
    state = playout(game, 77)
    record = GameRecord.from_json(json.loads(json.dumps(GameRecord.of(state).to_json())))
    assert record.replay(game) == state
    middle = record.replay(game, upto=len(record.actions) // 2)
    assert len(middle.history) == len(record.actions) // 2
