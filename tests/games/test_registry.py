"""The registry of games: one declaration per game, checked against what its engine does."""

from __future__ import annotations

import json

import numpy as np
import pytest

from splash.core import CHANCE, ConfigError, OptionError, State
from splash.games import GAMES, GameDeclaration, Information, SeatKind
from splash.games.registry import declaration_of, registry
from tests.conformance.test_protocol import provider

SEAT_KEYS = ("seat", "to_act", "legal_actions")
"""The keys of a view that name or serve the seat it is for."""

DECLARED = [pytest.param(declaration, id=game_id) for game_id, declaration in GAMES.items()]


def test_the_registry_holds_both_games_under_their_ids() -> None:
    assert list(GAMES) == ["bash", "tower"]
    assert [d.name for d in GAMES.values()] == ["Splash & Bash", "Splash!"]
    for game_id, declaration in GAMES.items():
        assert declaration.id == game_id
        assert declaration.from_settings(()).id == game_id


@pytest.mark.rule("BD12")
@pytest.mark.rule("TD03")
def test_the_information_and_the_seats_are_those_of_the_rules() -> None:
    bash, tower = GAMES["bash"], GAMES["tower"]
    assert (bash.information, bash.seat) == (Information.IMPERFECT, SeatKind.TEAM)
    assert (tower.information, tower.seat) == (Information.PERFECT, SeatKind.PLAYER)
    assert bash.chance_kinds == {"draw", "roll", "steal"}
    assert tower.chance_kinds == {"deal", "placement"}


@pytest.mark.parametrize("declaration", DECLARED)
def test_the_seats_run_from_min_to_max_and_no_further(declaration: GameDeclaration) -> None:
    key = declaration.seats_key
    for seats in (declaration.min_seats, declaration.max_seats):
        assert declaration.from_settings([(key, seats)]).num_seats == seats
    for seats in (declaration.min_seats - 1, declaration.max_seats + 1):
        with pytest.raises(ConfigError):
            declaration.from_settings([(key, seats)])


@pytest.mark.parametrize("declaration", DECLARED)
def test_a_config_tree_builds_the_same_game(declaration: GameDeclaration) -> None:
    game = declaration.from_settings([(declaration.seats_key, declaration.max_seats)])
    again = declaration.from_config(json.loads(json.dumps(game.config())))
    assert again.config() == game.config()
    assert again.num_seats == declaration.max_seats


def _views_apart(state: State, seats: int) -> bool:
    """Whether two seats see something different besides their own seat-specific keys."""
    views = [
        {k: v for k, v in state.view(seat).items() if k not in SEAT_KEYS} for seat in range(seats)
    ]
    return any(view != views[0] for view in views[1:])


@pytest.mark.parametrize("declaration", DECLARED)
def test_a_random_game_keeps_to_the_declaration(declaration: GameDeclaration) -> None:
    """Every chance event is of a declared kind, the declared view is the state's, the state
    document has the declared format, and only an imperfect-information game shows its seats
    different things."""
    settings: list[tuple[str, object]] = [(declaration.seats_key, declaration.max_seats)]
    if declaration.id == "tower":
        settings.append(("options.deal", "random"))
    kinds: set[str] = set()
    apart = False
    for seed in range(3):
        game = declaration.from_settings(settings)
        outcomes = provider(game, seed)
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.to_act() == CHANCE:
                event = state.chance_event()
                assert event is not None
                kinds.add(event.kind)
                state.apply(outcomes.outcome(state))
            else:
                legal = state.legal_actions()
                state.apply(legal[int(rng.integers(len(legal)))])
            seat = int(rng.integers(game.num_seats))
            assert declaration.view(state, seat) == state.view(seat)
            apart = apart or _views_apart(state, game.num_seats)
        assert state.to_json()["format"] == f"splash/{declaration.state_format}/1"
    assert kinds <= declaration.chance_kinds
    assert kinds & declaration.chance_kinds
    assert apart == (declaration.information is Information.IMPERFECT)


def test_a_view_refuses_the_state_of_another_game() -> None:
    tower_state = GAMES["tower"].from_settings(()).new_initial_state()
    with pytest.raises(TypeError):
        GAMES["bash"].view(tower_state, 0)


def test_an_unknown_game_is_refused_with_the_known_ones() -> None:
    with pytest.raises(OptionError) as error:
        declaration_of(GAMES, "chess", "GAME")
    assert (error.value.key, error.value.value) == ("GAME", "chess")
    assert "bash, tower" in str(error.value)
    assert declaration_of(GAMES, "tower") is GAMES["tower"]


def test_a_game_is_declared_once() -> None:
    with pytest.raises(OptionError, match="declared twice") as error:
        registry(GAMES["bash"], GAMES["bash"])
    assert (error.value.key, error.value.value) == ("game", "bash")
