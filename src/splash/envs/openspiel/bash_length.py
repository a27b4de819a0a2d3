"""An upper bound on the length of a Splash & Bash game, for OpenSpiel's ``max_game_length``.

The bound counts every node of a history, decisions and chance nodes alike, so it bounds
OpenSpiel's count of decisions and of chance nodes at once.  :func:`max_game_length` gives
it, :func:`turn_bound` its part for one team turn; the proof is in their docstrings.
"""

from __future__ import annotations

from collections.abc import Iterable

from splash.games.bash.config import (
    BashConfig,
    CardSpec,
    DiscardCard,
    ExtraDie,
    Fall,
    Move,
    PlaceObstacle,
    Push,
    Reroll,
    StealCard,
)

PIECES_PER_TEAM = 4
PAWNS_PER_TEAM = 3
LANE_COUNT = 3
WINDOWS = 4
"""The four moments a high tide card may be played (BD18): after the draw, the roll, the
lane change and the walk."""


def movement_questions(settings: BashConfig) -> int:
    """The most questions (a lifebuoy, a B14 discard) one movement asks.

    A movement is one operation of the resolver: a walk, a lane change, a card's push or
    fall.  Its questions are asked in order and each is answered by one decision.

    *One-shot obstacles* (BD11, the default): 2.  No piece ever stands on an obstacle: an
    obstacle is put only on a free square, and a piece that enters an obstacle's square
    slips off it or removes it (the slip, a saving lifebuoy), a restart avoids obstacles,
    and an undone chain restores a board where this held (a slip removes its obstacle
    before the slipping piece enters the next lane).  Hence:

    - a *chain* is linear: a bump displaces one piece, whose displacement bumps at most one
      more; the bumping piece then stands where the bumped one stood, on no obstacle, so it
      does not slip.  A fall ends the chain (the piece restarts without a bump, or a
      lifebuoy undoes the chain): at most one lifebuoy question a chain.  An outward
      displacement goes one lane outward at each bump, so it reaches the outer edge (B14)
      at most once; what follows goes backward (the piece put behind) or inward (a slip):
      at most one discard question a chain.  So a chain asks at most 2.
    - the *mover* of a walk or a lane change enters squares until an entry does not simply
      move it; from there it only slips inward, lane by lane, until it bumps (a chain,
      after which it stands on no obstacle), stops, or falls (one lifebuoy question, no
      chain after it).  So the movement holds one chain or one fall of the mover: at most 2.
    - a card's push starts one chain; a card's fall asks at most one lifebuoy question.

    *Permanent obstacles*: a piece may stand on an obstacle (a chain undone after a slip
    puts the slipping piece back on it), a bumping piece may slip after its bump, and a
    chain branches.  Within one chain each piece moves at most once (BD08), so it falls at
    most once, and at most one discard is asked (as above); the mover starts at most one
    chain in each lane it slips into (``LANE_COUNT``), and falls at most once.  So a
    movement asks at most ``LANE_COUNT * P + 1`` questions, ``P = 4n`` pieces.
    """
    if settings.options.obstacles == "one-shot":
        return 2
    return LANE_COUNT * PIECES_PER_TEAM * settings.options.teams + 1


def _extra_dice(card: CardSpec) -> int:
    return sum(e.dice for e in card.effects if isinstance(e, ExtraDie))


def _card_cost(card: CardSpec, dice: int, questions: int) -> int:
    """The most nodes a card's effects add: the choices, rolls and questions they need."""
    cost = 0
    for effect in card.effects:
        if isinstance(effect, Reroll):
            cost += dice + 1  # every die again, then the roll to keep
        elif isinstance(effect, PlaceObstacle):
            cost += effect.count
        elif isinstance(effect, Move):
            cost += questions
        elif isinstance(effect, Push):
            cost += 1 + questions  # the target, then its chain
        elif isinstance(effect, Fall):
            cost += 2  # the target, then its lifebuoy question
        elif isinstance(effect, DiscardCard):
            cost += 2  # the victim, then the card it discards
        elif isinstance(effect, StealCard):
            cost += 3  # the victim, the card taken, a discard over the hand limit
    return cost


def _most(values: Iterable[int]) -> int:
    return max(values, default=0)


def turn_bound(settings: BashConfig) -> int:
    """The most nodes one team turn holds, a helmsman's entry aside.

    With ``q`` = :func:`movement_questions`, a turn (B05-B11, B18-B20, B32) holds:

    - *one draw*: a pawn's turn draws when it starts, a helmsman's when it ends (BD13), never
      both: 1 chance node.  A kept card may go over the hand limit: 1 discard (B20); a card
      applied at once (``on_draw``) runs its effects instead: ``max(1, c_draw)``, ``c_draw``
      the most costly ``on_draw`` card.
    - *play windows*: at most ``WINDOWS`` (4) decisions, one at each moment of BD18; once the
      team has played, no window opens again (B19).  So the team plays at most one card,
      whose effects cost at most ``c_play``, the most costly card that a window offers.
    - *the roll*: one die and the extra dice of the effects run before it, those of the
      drawn card and those of the played card: ``D = 1 + x_draw + x_play`` chance nodes.
    - *the lane change*: 1 choice and its movement, ``q`` questions; *the walk*: ``q``.

    An effect costs: a reroll ``D + 1`` (the dice again, the roll kept); ``k`` obstacles to
    place ``k`` choices; a move ``q``; a push ``1 + q`` (a target, its chain); a fall 2
    (a target, one lifebuoy question); a discard 2 (a victim, its choice); a steal 3 (a
    victim, the card taken, a discard over the limit); the others nothing (their dice are
    counted in ``D``).  Questions answered during the turn, by any team, are those of its
    movements (lane change, walk, the cards' moves and pushes and falls).

    Total: ``1 + max(1, c_draw) + WINDOWS + D + 1 + 2q + c_play``; 16 with the shipped
    decks (``c_draw = 1``: a fish bone; ``D = 2``: a rogue wave; ``c_play = 3``: a shove or
    a second chance; ``q = 2``).
    """
    cards = [card for deck in settings.decks.values() for card in deck.cards.values()]
    drawn = [card for card in cards if card.timing == "on_draw"]
    played = [card for card in cards if card.timing not in ("on_draw", "on_fall")]
    questions = movement_questions(settings)
    dice = 1 + _most(_extra_dice(c) for c in drawn) + _most(_extra_dice(c) for c in played)
    draw = 1 + max(1, _most(_card_cost(c, dice, questions) for c in drawn))
    play = _most(_card_cost(c, dice, questions) for c in played)
    return draw + WINDOWS + dice + 1 + 2 * questions + play


def max_game_length(settings: BashConfig) -> int:
    """The most nodes a whole game holds, chance nodes included.

    With ``n`` teams and ``C`` the turn cap (BD14):

    - set-up: each team puts its 3 pawns on the start line, one decision each: ``3n``;
    - a helmsman's entry (BD13) happens once a team: it leaves the course only by
      finishing, which ends the game (a fall restarts it on the course): ``n``;
    - team turns: the cap is checked when a turn ends and team A is next, so the game ends
      after the first complete round that reaches ``C`` turns: at most ``T = C + n - 1``;
      each holds at most :func:`turn_bound` nodes.

    Total: ``4n + T * turn_bound``: 8 + 1001 x 16 = 16,024 with the shipped data and 2 teams,
    within ``25 (C + n)`` = 25,050.
    """
    n = settings.options.teams
    turns = settings.options.turn_cap + n - 1
    return (PAWNS_PER_TEAM + 1) * n + turns * turn_bound(settings)
