"""The golden playthroughs: one file of ``tests/golden/`` each.

Every game ends with a winner (not at a turn cap) for its seed.  Splash & Bash with the
default decks and permanent obstacles does not end under uniform play (the course fills
with fish bones: five seeds out of five reached the cap of 1,000 turns), so its permanent
playthroughs have fewer fish bones.  The crowded ones (short lanes, many pawns, fish bones
and shoves) bump, chain and slip on nearly every turn, so that a change to bumping or to
obstacles (BD08, B15, B17) shows in them.  Since a pawn pushed two squares slips on an
obstacle it crosses (BD08), the crowded course with permanent obstacles reaches the turn cap
in 5 of 30 seeds (seeds 5, 7, 14, 19 and 30; none before that change), so it plays seed 8.  Across the Splash! set every report occurs
(stood, fell, spontaneous, knocked), with choices of a new base, pieces taken back and wins
by pieces and by drops.
"""

from __future__ import annotations

from tests.golden.playthrough import Playthrough, Settings
from tests.golden.policy import Reports

SHORT: Settings = (
    ("board.lanes.outer", 16),
    ("board.lanes.centre", 14),
    ("board.lanes.high_tide", 12),
)
FEW_FISH_BONES: Settings = (("decks.low_tide.fish_bone", 1), ("decks.high_tide.fish_bone", 1))
STEADY = Reports(stood=0.9, fell=0.06, spontaneous=0.02, knocked=0.02)

BASH: tuple[Playthrough, ...] = (
    Playthrough("bash_2_teams", "bash", (("options.teams", 2),), seed=1),
    Playthrough("bash_3_teams", "bash", (("options.teams", 3),), seed=2),
    Playthrough("bash_4_teams", "bash", (("options.teams", 4),), seed=3),
    Playthrough(
        "bash_permanent_obstacles",
        "bash",
        (("options.obstacles", "permanent"), *FEW_FISH_BONES),
        seed=4,
    ),
    Playthrough("bash_short_course", "bash", SHORT, seed=5),
    Playthrough(
        "bash_crowded_bumps",
        "bash",
        (
            ("options.teams", 4),
            *SHORT,
            ("decks.low_tide.fish_bone", 10),
            ("decks.high_tide.fish_bone", 8),
            ("decks.high_tide.shove", 8),
        ),
        seed=6,
    ),
    Playthrough(
        "bash_crowded_permanent",
        "bash",
        (
            ("options.teams", 4),
            ("options.obstacles", "permanent"),
            *SHORT,
            *FEW_FISH_BONES,
            ("decks.high_tide.shove", 8),
        ),
        seed=8,
    ),
    Playthrough(
        "bash_high_tide_cards",
        "bash",
        (
            ("options.teams", 3),
            ("options.hand_limit", 3),
            ("board.colours.centre", "high_tide"),
            ("decks.high_tide.lifebuoy", 5),
            ("decks.high_tide.undertow", 5),
            ("decks.high_tide.second_chance", 4),
        ),
        seed=8,
    ),
)

TOWER: tuple[Playthrough, ...] = (
    Playthrough("tower_2_players", "tower", (("options.players", 2),), seed=11),
    Playthrough(
        "tower_2_players_random_deal",
        "tower",
        (("options.players", 2), ("options.deal", "random")),
        seed=12,
    ),
    Playthrough("tower_4_players", "tower", (("options.players", 4),), seed=13),
    Playthrough(
        "tower_4_players_random_deal",
        "tower",
        (("options.players", 4), ("options.deal", "random")),
        seed=14,
    ),
    Playthrough(
        "tower_4_players_top",
        "tower",
        (("options.players", 4), ("options.placement", "top")),
        seed=15,
    ),
    Playthrough("tower_6_players", "tower", (("options.players", 6),), seed=16),
    Playthrough(
        "tower_4_players_2_teams",
        "tower",
        (("options.players", 4), ("options.teams", 2), ("options.deal", "random")),
        seed=17,
    ),
    Playthrough(
        "tower_6_players_3_teams",
        "tower",
        (("options.players", 6), ("options.teams", 3)),
        seed=18,
    ),
    Playthrough(
        "tower_6_players_2_teams_steady",
        "tower",
        (("options.players", 6), ("options.teams", 2), ("options.placement", "top")),
        seed=19,
        reports=STEADY,
    ),
)

PLAYTHROUGHS: tuple[Playthrough, ...] = BASH + TOWER
