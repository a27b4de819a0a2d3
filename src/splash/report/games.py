"""The report's table of games: :data:`REPORTED_GAMES`, keyed by game id.

For each game of :data:`splash.games.GAMES`: how the report speaks of its players and of the
unit of its ``turns`` column, how its state evaluation is defined, who moves first, and the
sections it adds to the page.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from splash.core.i18n import Message, message
from splash.games.bash.board import TEAM_LETTERS
from splash.report.bash_sections import bash_sections, card_tests
from splash.report.html import Page
from splash.report.results import Results
from splash.report.tower_sections import tower_sections
from splash.report.verdicts import Quantity


@dataclass(frozen=True)
class ReportedGame:
    """One game in the designer's report."""

    player: Message
    """Who a player of the metrics is (``team``, ``seat``)."""
    players: Message
    """The same in the plural (``teams``, ``seats``)."""
    player_name: Callable[[int], Message]
    """The name of one player (``team A``, ``seat 0``)."""
    turns: Message
    """What the ``turns`` column counts (``team turns``, ``placements``)."""
    turn: Message
    """What one turn is (``team's turn``, ``player's turn, with one placement``)."""
    evaluation: Message
    """The definition of the state evaluation ``v_p`` behind the trace metrics."""
    first_player: Callable[[Results], int]
    """The seat that moves first in the games of some results."""
    sections: Callable[[Page, Results], None]
    """The sections of the game's own, after the common ones."""
    tested: Callable[[Results], list[Quantity]] = lambda results: []
    """The quantities of the game's own sections that the summary concludes on."""


BASH_EVALUATION = message(
    "The state evaluation of team t: v_t = 2·d_t - 1, where d_t is the mean over the "
    "team's four runners (three pawns and the helmsman) of s/(laps·N_lane), with the "
    "runner's own lane length and laps; a finished runner counts 1, a helmsman not yet "
    "entered 0. A finished game is worth the utilities u. A move is an action chosen "
    "by a team (never a die roll or a card draw); the placement of the pawns is "
    "set-up; s_0 is the first state after it; s_i is the state before move i + 1."
)
TOWER_EVALUATION = message(
    "The state evaluation of seat p: v_p = 2·f_p - 1 with f_p = clip(max(1 - R_p/R_0, "
    "drops_p/D), 0, 1), R_p the pieces in p's reserve, R_0 its reserve at s_0 (after the "
    "draft or the deal), D the drops that win (3 by default). A finished or stopped game "
    "is worth the utilities u. A move is an action chosen by a seat (never a placement's "
    "physical outcome nor a dealt piece); the draft is set-up; s_0 is the first state "
    "after it; s_i is the state before move i + 1."
)


def _tower_first(results: Results) -> int:
    """``options.first_player`` of the first run."""
    return results.tower_game(results.runs[0].options).options.first_player


REPORTED_GAMES: Mapping[str, ReportedGame] = {
    "bash": ReportedGame(
        player=message("team"),
        players=message("teams"),
        player_name=lambda t: message("team {team}", team=TEAM_LETTERS[t]),
        turns=message("team turns"),
        turn=message("team's turn, the winning one included"),
        evaluation=BASH_EVALUATION,
        first_player=lambda results: 0,
        sections=bash_sections,
        tested=card_tests,
    ),
    "tower": ReportedGame(
        player=message("seat"),
        players=message("seats"),
        player_name=lambda s: message("seat {seat}", seat=s),
        turns=message("placements"),
        turn=message("player's turn, with one placement"),
        evaluation=TOWER_EVALUATION,
        first_player=_tower_first,
        sections=tower_sections,
    ),
}
"""The games the report speaks of in their own way, keyed by game id; every other game of
:data:`splash.games.GAMES` is reported as :func:`reported` says."""

GENERIC = ReportedGame(
    player=message("seat"),
    players=message("seats"),
    player_name=lambda s: message("seat {seat}", seat=s),
    turns=message("decisions"),
    turn=message("decision of a seat"),
    evaluation=message(
        "The state evaluation of every seat is 0 until the end of the game, which is worth "
        "the utilities u. A move is an action chosen by a seat (never a chance outcome)."
    ),
    first_player=lambda results: 0,
    sections=lambda page, results: None,
)
"""A game without an entry of :data:`REPORTED_GAMES`: seats, decisions, and no section of
its own."""


def reported(game: str) -> ReportedGame:
    """How the report speaks of ``game``: its entry of :data:`REPORTED_GAMES`, else
    :data:`GENERIC`."""
    return REPORTED_GAMES.get(game, GENERIC)
