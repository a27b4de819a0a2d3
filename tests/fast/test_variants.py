"""The variants (BV01-BV05) played by the compiled core and replayed by the reference engine:
legal actions at every step, final states and every record column agree, for each option
value, with ``random`` and with ``greedy`` bots.

The draft's value of each option (``seat``, ``0``, ``false``, ``0``) is the one every game of
``test_verified_games.py`` plays.  ``pytest -m deep tests/fast/test_variants.py`` plays
2,000 games of each case instead of 200.
"""

from __future__ import annotations

import pytest

from splash.fast import kernel as k
from splash.fast.tables import build_tables
from splash.games.bash import BashGame
from splash.sim.fast_engine import verify_records
from splash.sim.runner import GameSpec

VARIANTS: list[tuple[str, str, list[str]]] = [
    ("BV01", "rotate", ["options.turn_order=rotate", "options.teams=3", "options.turn_cap=90"]),
    ("BV01", "snake", ["options.turn_order=snake", "options.teams=3", "options.turn_cap=100"]),
    ("BV02", "penalty", ["options.first_turn_penalty=3"]),
    ("BV03", "stagger", ["options.start_stagger=3", "options.teams=3", "options.turn_cap=120"]),
    ("BV04", "catch-up", ["options.catch_up_draw=true", "options.hand_limit=1"]),
    ("BV05", "opening", ["options.opening_cards=1", "options.teams=3", "options.turn_cap=120"]),
]
BOTS = {"random": [], "greedy": ["greedy"]}
CASES = [
    pytest.param(settings, bots, marks=pytest.mark.rule(rule), id=f"{rule}-{name}-{bot}")
    for rule, name, settings in VARIANTS
    for bot, bots in BOTS.items()
]
GAMES = 200
VARIANT_SLOTS = (k.T_ORDER, k.T_PENALTY, k.T_STAGGER, k.T_CATCHUP, k.T_OPENING)
DEEP_GAMES = 2000


def _check(settings: list[str], bots: list[str], seeds: range) -> None:
    spec = GameSpec.of("bash", settings, bots)
    checked, differences = verify_records(spec, seeds)
    assert checked == len(seeds)
    assert differences == []


@pytest.mark.slow
@pytest.mark.parametrize(("settings", "bots"), CASES)
def test_BV_variant_games_replay_identically_in_the_reference(
    settings: list[str], bots: list[str]
) -> None:
    _check(settings, bots, range(5000, 5000 + GAMES))


@pytest.mark.deep
@pytest.mark.timeout(3600)
@pytest.mark.parametrize(("settings", "bots"), CASES)
def test_BV_variant_games_replay_identically_in_the_reference_deep(
    settings: list[str], bots: list[str]
) -> None:
    _check(settings, bots, range(50_000, 50_000 + DEEP_GAMES))


@pytest.mark.rule("BV01", "BV02", "BV03", "BV04", "BV05")
def test_BV_the_tables_carry_every_variant() -> None:
    """Each variant reaches the core's tables: none is refused, none is left at the draft."""
    game = BashGame.from_settings(
        [
            ("options.turn_order", "snake"),
            ("options.first_turn_penalty", 2),
            ("options.start_stagger", 1),
            ("options.catch_up_draw", True),
            ("options.opening_cards", 1),
        ]
    )
    T = build_tables(game).T
    assert [int(T[i]) for i in VARIANT_SLOTS] == [
        k.ORDER_SNAKE,
        2,
        1,
        1,
        1,
    ]
    draft = build_tables(BashGame()).T
    assert [int(draft[i]) for i in VARIANT_SLOTS] == [
        0,
        0,
        0,
        0,
        0,
    ]
