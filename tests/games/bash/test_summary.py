"""The summary of a Splash & Bash game (``splash.games.bash.summary``): a scripted game whose
counts are read off its moves, and a whole random game won by a team."""

from __future__ import annotations

import numpy as np

from splash.core.outcomes import RandomOutcomes
from splash.games.bash import BashGame
from splash.games.bash.scenario import play_moves, where
from splash.games.bash.summary import bash_summary

SMALL = [
    ("board.laps", 1),
    ("board.lanes.outer", 16),
    ("board.lanes.centre", 14),
    ("board.lanes.high_tide", 12),
]

SCRIPT = (
    # Set-up: A1 and B1 start in the high tide lane, the others outside.
    "start high_tide", "start outer", "start outer",
    "start high_tide", "start outer", "start outer",
    # Turn 1, A1: keeps an undertow, rolls 2 and walks to h2.
    "draw undertow", "pass", "roll 2", "pass", "stay", "pass", "pass",
    # Turn 2, B1: a slide, a roll of 1, then the slide: B1 bumps A1 forward (bump 1).
    "draw slide", "pass", "roll 1", "pass", "play slide",
    # Turn 3, A2: A plays its undertow at once: B1, in the high tide lane, falls.
    "draw calm_water", "play undertow", "roll 3", "stay",
    # Turn 4, B2: 3 and the tail wind: B2 lands on A2 at o4 and bumps it (bump 2); the cap.
    "draw calm_water", "roll 3", "stay",
)  # fmt: skip


def test_a_scripted_game_counts_bumps_falls_cards_and_turns() -> None:
    game = BashGame.from_settings([*SMALL, ("options.turn_cap", 4)])
    state = play_moves(game.new_initial_state(), *SCRIPT)
    assert state.is_terminal() and state.board.winner is None
    assert [where(state, p) for p in ("A1", "A2", "B1", "B2")] == ["h4", "o6", "c4", "o4"]
    summary = bash_summary(game, state.history)
    # No winner: A has run 4/12 + 6/16 of its four pieces' race, B 4/14 + 4/16: A leads.
    assert summary == {
        "turns": 4,
        "teams": [
            {"team": 0, "place": 1, "bumps_made": 0, "bumps_suffered": 2, "falls": 0,
             "cards_played": 1},
            {"team": 1, "place": 2, "bumps_made": 2, "bumps_suffered": 0, "falls": 1,
             "cards_played": 1},
        ],
    }  # fmt: skip


LIFEBUOY = (
    *SCRIPT[:13],
    # Turn 2, B1: keeps a lifebuoy, rolls 1 and walks to h1.
    "draw lifebuoy", "pass", "roll 1", "pass", "pass", "pass",
    # Turn 3, A2: A's undertow would drop B1 in the pool; B plays its lifebuoy: saved.
    "draw calm_water", "play undertow", "play lifebuoy", "roll 3", "stay",
    # Turn 4, B2 bumps A2 as before; the cap.
    *SCRIPT[-3:],
)  # fmt: skip


def test_a_fall_saved_by_a_lifebuoy_is_no_fall_and_each_card_counts_once() -> None:
    game = BashGame.from_settings([*SMALL, ("options.turn_cap", 4)])
    state = game.new_initial_state()
    play_moves(state, *LIFEBUOY[:21])
    assert state.pending is not None  # the undertow waits for B's answer
    play_moves(state, *LIFEBUOY[21:])
    assert state.is_terminal()
    assert [where(state, p) for p in ("A1", "A2", "B1", "B2")] == ["h2", "o6", "h1", "o4"]
    assert bash_summary(game, state.history)["teams"] == [
        {"team": 0, "place": 1, "bumps_made": 0, "bumps_suffered": 1, "falls": 0,
         "cards_played": 1},
        {"team": 1, "place": 2, "bumps_made": 1, "bumps_suffered": 0, "falls": 0,
         "cards_played": 1},
    ]  # fmt: skip


def test_the_winner_is_first_and_the_turn_it_won_in_is_counted() -> None:
    game = BashGame.from_settings([*SMALL, ("options.teams", 3)])
    state = game.new_initial_state()
    chance = RandomOutcomes(np.random.SeedSequence(7))
    rng = np.random.default_rng(7)
    turn_before_last = 0
    while not state.is_terminal():
        turn_before_last = state.turns + 1
        if state.is_chance():
            state.apply(chance.outcome(state))
        else:
            legal = state.legal_actions()
            state.apply(legal[int(rng.integers(len(legal)))])
    winner = state.board.winner
    assert winner is not None
    summary = bash_summary(game, state.history)
    assert summary["turns"] == turn_before_last
    assert [t["place"] for t in summary["teams"]][winner] == 1
    assert sorted(t["place"] for t in summary["teams"]) in ([1, 2, 3], [1, 2, 2])
    made = sum(t["bumps_made"] for t in summary["teams"])
    assert made == sum(t["bumps_suffered"] for t in summary["teams"])
