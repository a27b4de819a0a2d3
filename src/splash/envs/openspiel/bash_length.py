"""An upper bound on the length of a Splash & Bash game, for OpenSpiel's ``max_game_length``.

The bound counts every node of a history, chance nodes included, so it bounds the decisions
too.  With ``n`` teams, ``P = 4n`` pieces and ``C`` the turn cap (BD14):

- set-up: ``3n`` pawn placements;
- team turns: the cap is checked when a turn ends and team A is next, so at most
  ``T = C + n - 1`` turns are played;
- card effects in one turn: a team plays at most one card of its hand (B18) and draws at most
  one card (the lane's deck, or the high tide deck for a helmsman), whose ``on_draw``
  effects run at once; with ``e`` the most effects on any card, ``E = 2e`` effects run;
- dice: one roll, plus at most 4 extra dice per ``extra_die`` effect: ``D = 1 + 4E`` dice;
- questions in a movement (a lifebuoy when a piece falls, the discard of B14 when a piece is
  pushed off the outer lane): a walk or a lane change stops at its first bump or slip, and
  the chain a bump starts moves each piece at most once (or is undone), so a movement asks
  at most two questions a piece, ``2P``; the bound takes ``R = 2P(n + 1)``, a margin of
  ``n + 1``;
- one turn: ``1`` helmsman entry, ``4`` card windows, ``1`` lane choice, ``2`` for the draw
  and a discard over the hand limit, ``D`` rolls, ``2R`` for the lane change and the walk,
  and ``E`` effects of cost at most ``c = max(k, 1 + R, 3, D + 1)`` (``k`` obstacles to
  place; a target and its movement; a victim, a stolen card and a discard; the dice of a
  reroll and the choice of the roll to keep).

Total: ``3n + T (8 + D + 2R + E c)``.
"""

from __future__ import annotations

from splash.games.bash.config import BashConfig, PlaceObstacle

PIECES_PER_TEAM = 4
PAWNS_PER_TEAM = 3
WINDOWS = 4


def max_game_length(settings: BashConfig) -> int:
    """The bound of the module docstring for ``settings``."""
    n = settings.options.teams
    pieces = PIECES_PER_TEAM * n
    cards = [card for deck in settings.decks.values() for card in deck.cards.values()]
    most_effects = max((len(card.effects) for card in cards), default=0)
    effects = 2 * most_effects
    obstacles = max(
        (e.count for card in cards for e in card.effects if isinstance(e, PlaceObstacle)),
        default=0,
    )
    dice = 1 + 4 * effects
    questions = 2 * pieces * (n + 1)
    cost = max(obstacles, 1 + questions, 3, dice + 1)
    per_turn = 1 + WINDOWS + 1 + 2 + dice + 2 * questions + effects * cost
    turns = settings.options.turn_cap + n - 1
    return PAWNS_PER_TEAM * n + turns * per_turn
