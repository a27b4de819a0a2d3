"""Fast games replayed by the reference engine: legal actions at every step, final states
and every record column agree (a few hundred games across options)."""

from __future__ import annotations

from pathlib import Path

import pytest

from splash.sim.fast_engine import verify_records
from splash.sim.runner import GameSpec

OPTION_SETS: list[tuple[str, list[str], int]] = [
    ("default", [], 50),
    ("three teams, turn cap", ["options.teams=3", "options.turn_cap=90"], 40),
    (
        "four teams, permanent obstacles",
        ["options.teams=4", "options.obstacles=permanent", "options.turn_cap=160"],
        40,
    ),
    (
        "short lanes, one lap, d8, long bumps",
        [
            "board.lanes.outer=14",
            "board.lanes.centre=11",
            "board.lanes.high_tide=9",
            "board.laps=1",
            "options.die_faces=8",
            "options.bump_distance=3",
        ],
        60,
    ),
    (
        "other decks and hand",
        [
            "decks.high_tide.undertow=6",
            "decks.high_tide.lifebuoy=5",
            "decks.low_tide.fish_bone=8",
            "options.hand_limit=1",
            "options.helmsman_laps=2",
            "options.turn_cap=200",
        ],
        40,
    ),
]


@pytest.mark.slow
@pytest.mark.rule("B15", "BD08", "BD11", "BD14", "BD16")
@pytest.mark.parametrize(
    ("name", "settings", "games"), OPTION_SETS, ids=[o[0] for o in OPTION_SETS]
)
def test_fast_games_replay_identically_in_the_reference(
    name: str, settings: list[str], games: int
) -> None:
    spec = GameSpec.of("bash", settings)
    checked, differences = verify_records(spec, range(1000, 1000 + games))
    assert checked == games
    assert differences == []


@pytest.mark.slow
def test_every_primitive_from_a_data_folder_replays_identically(primitives_dir: Path) -> None:
    spec = GameSpec.of(
        "bash",
        ["options.teams=3", "options.hand_limit=1", "options.turn_cap=120"],
        data_dir=primitives_dir,
    )
    checked, differences = verify_records(spec, range(40))
    assert checked == 40
    assert differences == []


@pytest.mark.slow
@pytest.mark.rule("B15", "BD08", "BD11")
@pytest.mark.parametrize(
    ("settings", "games"),
    [([], 200), (["options.teams=3", "options.turn_cap=90"], 100)],
    ids=["two teams", "three teams"],
)
def test_greedy_games_replay_identically_in_the_reference(settings: list[str], games: int) -> None:
    """Greedy bots look ahead on copies that write their events where the game keeps its
    own: a lifebuoy's answer must count the cards played before its question (seeds 1039
    and 1098 counted a card for the wrong team until the look-ahead kept them)."""
    spec = GameSpec.of("bash", settings, ["greedy"])
    checked, differences = verify_records(spec, [1039, 1098, *range(2000, 2000 + games - 2)])
    assert checked == games
    assert differences == []
