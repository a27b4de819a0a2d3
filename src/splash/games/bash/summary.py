"""The summary of a Splash & Bash game, for the end of the game: each team's place and what
it did (bumps made and suffered, pool falls, cards played) and the game's length.

Everything it counts is public: a bump, a fall and a card played are seen by every team
(the card's name is not even counted); no hand is read.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypedDict

from splash.core.actions import Action
from splash.core.standings import places
from splash.games.bash.board import TEAM_LETTERS
from splash.games.bash.events import BashEvent
from splash.games.bash.game import BashGame
from splash.games.bash.geometry import HELMSMAN
from splash.games.bash.state import BashState


class TeamSummary(TypedDict):
    """One team at the end of the game."""

    team: int
    place: int
    """1 for the winner; the others by how much of their race they have run (ties share)."""
    bumps_made: int
    """Bumps by the team's pieces, chains included; a chain a lifebuoy undid counts none."""
    bumps_suffered: int
    """Bumps of other pieces onto the team's pieces."""
    falls: int
    """The team's pieces that fell into the pool (a fall a lifebuoy saved is none)."""
    cards_played: int
    """Cards the team played (lifebuoys included; cards discarded are not played)."""


class BashSummary(TypedDict):
    """A whole game: its length and each team, in seat order."""

    turns: int
    """Team turns played: one team's turn is one, the last one included."""
    teams: list[TeamSummary]


def _team_of(piece: str) -> int:
    return TEAM_LETTERS.index(piece[0])


def team_progress(state: BashState) -> list[float]:
    """Each team's share of its whole race already run, in [0, 1] (public information only).

    A pawn counts ``laps`` laps, the helmsman ``helmsman_laps``; a piece on the course has
    run ``s / total`` of its own, a finished one all of it.
    """
    course = state._bash.course
    shares = []
    for team in state.board.pieces:
        run = weight = 0.0
        for piece in team:
            laps = course.helmsman_laps if piece.index == HELMSMAN else course.laps
            weight += laps
            if piece.finished:
                run += laps
            elif piece.lane is not None:
                run += laps * piece.s / course.total(piece.lane, piece.helmsman)
        shares.append(run / weight)
    return shares


def _count(teams: list[TeamSummary], events: Iterable[BashEvent]) -> None:
    for event in events:
        kind = event["event"]
        if kind == "bump":
            teams[_team_of(event["piece"])]["bumps_made"] += 1
            teams[_team_of(event["target"])]["bumps_suffered"] += 1
        elif kind == "fall":
            teams[_team_of(event["piece"])]["falls"] += 1
        elif kind == "play":
            teams[event["team"]]["cards_played"] += 1


def bash_summary(game: BashGame, history: Sequence[Action]) -> BashSummary:
    """The summary of the game ``history`` (every action from the start) played."""
    state = game.new_initial_state()
    teams: list[TeamSummary] = [
        TeamSummary(team=team, place=0, bumps_made=0, bumps_suffered=0, falls=0, cards_played=0)
        for team in range(game.num_seats)
    ]
    for action in history:
        state.apply_legal(action)
        if state.pending is None:  # else the answer to the question tells the move again
            _count(teams, state.board.events)
    winner = state.board.winner
    standings = [(float(team == winner), run) for team, run in enumerate(team_progress(state))]
    for team, place in zip(teams, places(standings), strict=True):
        team["place"] = place
    return BashSummary(turns=state.turns + (winner is not None), teams=teams)
