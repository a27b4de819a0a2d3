"""The summary of a Splash! game, for the end of the game: each player's place and what they
did (water drops won, falls caused, pieces placed) and the game's length in placements.

Everything in Splash! is open (TD03): the summary reveals nothing a view does not show.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict

from splash.core.actions import Action
from splash.core.standings import places
from splash.games.tower.game import TowerGame
from splash.games.tower.outcome import PlacementOutcome
from splash.games.tower.state import TowerState


class PlayerSummary(TypedDict):
    """One player at the end of the game."""

    seat: int
    place: int
    """1 for the winning player (every player of the winning team); the others by their
    drops, then by the fewest pieces left in their reserve (ties share a place)."""
    drops: int
    """Water drops won: each for a piece given whose placement made the tower fall (T10)."""
    falls_caused: int
    """Towers that fell under the player's placement, or that the player knocked over
    (T18); a tower that fell by itself before the piece touched it (T17) counts for nobody."""
    pieces_placed: int
    """The player's placements that stood."""


class TowerSummary(TypedDict):
    """A whole game: its length and each player, in seat order."""

    placements: int
    """Placements made, a tower that fell by itself before the piece touched it included."""
    players: list[PlayerSummary]
    placement_aid: str
    """What the play page showed the people who placed (``options.placement_aid``:
    ``region``, or ``odds`` too)."""


def _count(players: list[PlayerSummary], before: TowerState, action: Action) -> None:
    if action.kind != "result":
        return
    outcome = PlacementOutcome.parse(action.param("outcome"))
    placer = before.placer
    if outcome.result == "stood":
        players[placer]["pieces_placed"] += 1
    elif outcome.result == "fell":
        players[placer]["falls_caused"] += 1
    elif outcome.result == "knocked" and outcome.knocker is not None:
        players[outcome.knocker]["falls_caused"] += 1


def tower_summary(game: TowerGame, history: Sequence[Action]) -> TowerSummary:
    """The summary of the game ``history`` (every action from the start) played."""
    state = game.new_initial_state()
    players: list[PlayerSummary] = [
        PlayerSummary(seat=seat, place=0, drops=0, falls_caused=0, pieces_placed=0)
        for seat in range(game.num_seats)
    ]
    for action in history:
        _count(players, state, action)
        state.apply_legal(action)
    winners = () if state.winner is None else game.teams[state.winner].seats
    standings = [
        (float(seat in winners), float(state.drops[seat]), -float(len(state.reserves[seat])))
        for seat in range(game.num_seats)
    ]
    for player, place, drops in zip(players, places(standings), state.drops, strict=True):
        player["place"], player["drops"] = place, drops
    return TowerSummary(
        placements=state.placements, players=players, placement_aid=game.options.placement_aid
    )
