"""The greedy bot of Splash & Bash: a short look-ahead and a hand-written heuristic.

**What it may know.**  Every decision starts from ``state.view(seat)`` (the legal actions,
the team's own hand, the sizes of the other hands) and from :func:`determinize`: a copy of
the state in which every other team's hand is redrawn at random from the cards the team
cannot see (the high tide deck plus the other hands, each hand keeping its size).  The bot
never uses which hidden card is where, so two states that differ only there get the same
decision.  With ``samples`` > 1 the scores are averaged over that many redraws.

**Look-ahead.**  Each legal action is applied to the redrawn copy; then forced steps (a
single legal action) are applied, and other teams' reactions are answered by a fixed rule
(a lifebuoy is always played, the least valuable card is discarded).  When the team itself
decides again before any chance event (play a card, then choose its target; choose a lane,
then walk and reach the next card window), the best of those follow-up decisions counts, up
to ``depth`` decisions.  The position reached is scored; chance events are not expanded.
An obstacle square is scored directly by the obstacle term below, without a copy.

**The heuristic** (higher is better for the bot's team *T*) is
``rival * mean(cost(R) for the other teams R) - cost(T)``, plus ±10**6 for a won or lost
game.  ``cost`` is an estimate of the team turns a team still needs, minus its cards:

* *Progress.*  A pawn in lane *L* needs ``(squares to its finish, laps included) / speed(L)``
  turns, where ``speed`` is the die's mean, plus the tail wind in the Outer lane.  A pawn
  not yet placed counts as on the start line of the fastest lane; a finished pawn costs 0.
  The helmsman (once all pawns are home; before that, his entry into the fastest lane)
  costs ``max(0, squares left - reach) / speed + exact``, where ``reach`` is the die's
  largest face (plus the tail wind): the weight ``exact`` is the turns expected to roll the
  exact number once in reach (B31).  Bumps need no term of their own: a rival pushed back
  or into the pool costs its team more turns, an own pawn bumped costs the bot's.
* *Lane risk.*  A piece in the high tide lane would lose ``fall`` turns if it fell (the
  Centre restart minus its position, both as progress).  It costs
  ``fall * (tide + threat * n)``, where ``n`` counts other teams' pieces within
  :data:`THREAT_RANGE` squares of it (projected on the high tide lane): those that could
  bump it sideways, shove it or pull it with an undertow.
* *Obstacles.*  For every obstacle ahead of a piece in its lane, within its reach ``r`` at
  distance ``d``: ``obstacle * p * loss`` with ``p = min(1, (r + 1 - d) / faces)`` and
  ``loss`` its ``fall`` in the high tide lane, else the weight ``slip``.  An obstacle in
  front of rivals thus raises their cost; in front of the bot's own pawns, its own.
* *Cards.*  Every card in the team's own hand is worth ``hold_lifebuoy`` (a lifebuoy) or
  ``hold_card`` turns; another team's hand is worth ``hold_card`` per card (its size is all
  the bot may know).  A card is therefore played only when what it does is worth more than
  keeping it: an undertow or a shove that sends a rival into the pool, a slide, a fish bone
  in front of a rival; a lifebuoy saves a fall that costs more than ``hold_lifebuoy``;
  passing is the rest.  A discard keeps the more valuable cards (the lifebuoy).
* *Dice to come.*  Extra dice awaited for the active piece (a rogue wave) are worth their
  expected gain in progress over the plain roll (for a helmsman, the exact-finish rule makes
  a rogue wave worth little, or less than nothing).  A second chance's reroll awaited is
  worth the whole expected walk of the better of the two rolls, since the first roll is not
  walked yet: the card is played when that, less the card's ``hold_card``, beats walking
  the first roll.

Ties are broken by the bot's own seeded :class:`numpy.random.Generator`, so a bot is
deterministic for a seed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from splash.bots.bash_clone import quick_clone
from splash.core.actions import Action
from splash.core.errors import ActionError, OptionError
from splash.core.i18n import message
from splash.core.protocol import CHANCE, TERMINAL, State
from splash.games.bash.board import Piece
from splash.games.bash.config import LANES
from splash.games.bash.geometry import CENTRE, HIGH_TIDE, OUTER
from splash.games.bash.greedy_weights import GREEDY_WEIGHTS
from splash.games.bash.hidden import resample
from splash.games.bash.records import AwaitRoll, ObstacleChoice
from splash.games.bash.resolver import Question
from splash.games.bash.state import BashState

THREAT_RANGE = 6
"""Squares (of the high tide lane) within which another team's piece threatens a pawn."""

WIN = 1e6
"""The score of a won game (a lost one scores ``-WIN``)."""

_TIE = 1e-9
LANE_IDS = range(len(LANES))


def determinize(state: BashState, seat: int, rng: np.random.Generator) -> BashState:
    """A copy of ``state`` in which every other team's hand is redrawn from the cards
    ``seat`` cannot see (:func:`splash.games.bash.hidden.resample`)."""
    return resample(state, seat, rng)


class GreedyBashBot:
    """Scores each legal action by the heuristic of the module's documentation.

    ``seed`` seeds the bot's own generator (redraws of hidden hands, ties); ``samples`` is the
    number of redraws averaged per decision, ``depth`` the most decisions of its own it looks
    through; ``weights`` override
    :data:`~splash.games.bash.greedy_weights.GREEDY_WEIGHTS` (numbers, or their text).
    """

    name = "greedy"

    def __init__(
        self,
        seed: int | np.random.SeedSequence,
        *,
        samples: int = 1,
        depth: int = 3,
        **weights: float | str,
    ) -> None:
        self.seed = seed
        self._rng = np.random.default_rng(seed)
        self.samples = max(1, int(samples))
        self.depth = max(1, int(depth))
        self.weights = dict(GREEDY_WEIGHTS)
        for key, value in weights.items():
            if key not in GREEDY_WEIGHTS:
                known = ", ".join(sorted(GREEDY_WEIGHTS))
                raise OptionError(
                    "bot",
                    key,
                    message("unknown key {part!r} (known here: {known})", part=key, known=known),
                )
            try:
                number = float(value)
            except ValueError:
                number = math.nan
            if not math.isfinite(number) or number < 0:
                raise OptionError(key, value, message("must be a finite number >= 0"))
            self.weights[key] = number

    def act(self, state: State) -> Action:
        """The legal action of ``state.to_act()`` that scores best (ties: at random)."""
        if not isinstance(state, BashState):
            raise ActionError(message("the greedy bot plays Splash & Bash only"))
        seat = state.to_act()
        legal = seen_legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        totals = np.zeros(len(legal))
        for _ in range(self.samples):
            world = determinize(state, seat, self._rng)
            totals += self.scores(world, legal, seat)
        best = float(totals.max())
        ties = [i for i, value in enumerate(totals) if value >= best - _TIE * self.samples]
        return legal[ties[int(self._rng.integers(len(ties)))]]

    def scores(
        self, world: BashState, actions: list[Action], seat: int, depth: int | None = None
    ) -> list[float]:
        """The score of each of ``actions`` in ``world`` (a state ``seat`` may fully know),
        looking through ``depth`` decisions of its own (default: the bot's ``depth``)."""
        if isinstance(world.awaiting, ObstacleChoice):
            base = self.evaluate(world, seat)
            return [base + self._obstacle_gain(world, seat, a) for a in actions]
        return [self._after(world, a, seat, depth or self.depth) for a in actions]

    # ----- look-ahead -------------------------------------------------------------------

    def _after(self, world: BashState, action: Action, seat: int, depth: int) -> float:
        child = quick_clone(world)
        child.apply(action)
        self._settle(child, seat)
        if child.to_act() != seat or depth <= 1:
            return self.evaluate(child, seat)
        return max(self.scores(child, child.legal_actions(), seat, depth - 1))

    def _settle(self, world: BashState, seat: int) -> None:
        """Apply forced steps and other teams' reactions until a real decision or chance."""
        while True:
            team = world.to_act()
            if team in (CHANCE, TERMINAL):
                return
            legal = world.legal_actions()
            if len(legal) == 1:
                world.apply(legal[0])
            elif team != seat and world.pending is not None:
                world.apply(self._reaction(world.pending.question, legal))
            else:
                return

    def _reaction(self, question: Question, legal: list[Action]) -> Action:
        if question.kind == "lifebuoy":
            plays = [a for a in legal if a.kind == "play"]
            return plays[0] if plays else legal[0]
        return min(legal, key=lambda a: (self._hold(str(a.param("card"))), a.id))

    # ----- the heuristic ----------------------------------------------------------------

    def evaluate(self, world: BashState, seat: int) -> float:
        """The heuristic's score of ``world`` for team ``seat`` (higher is better)."""
        winner = world.board.winner
        if winner is not None:
            return WIN if winner == seat else -WIN
        teams = range(len(world.board.pieces))
        rivals = [self._cost(world, t) - self._card_value(world, t, seat) for t in teams]
        own = rivals.pop(seat)
        if world.team == seat:
            own -= self._dice_to_come(world)
        return self.weights["rival"] * (sum(rivals) / max(1, len(rivals))) - own

    def _speed(self, world: BashState, lane: int) -> float:
        opts = world._bash.settings.options
        return (opts.die_faces + 1) / 2 + (opts.tail_wind if lane == OUTER else 0)

    def _reach(self, world: BashState, lane: int) -> int:
        opts = world._bash.settings.options
        return opts.die_faces + (opts.tail_wind if lane == OUTER else 0)

    def _progress(self, world: BashState, lane: int, s: int, helmsman: bool) -> float:
        left = max(0, world._bash.course.total(lane, helmsman) - s)
        if not helmsman:
            return left / self._speed(world, lane)
        if left == 0:
            return 0.0
        far = max(0, left - self._reach(world, lane))
        return far / self._speed(world, lane) + self.weights["exact"]

    def _fall_loss(self, world: BashState, piece: Piece) -> float:
        if piece.lane != HIGH_TIDE:
            return 0.0
        course = world._bash.course
        restart = course.restart(HIGH_TIDE, piece.s)
        after = self._progress(world, CENTRE, restart, piece.helmsman)
        return max(0.0, after - self._progress(world, HIGH_TIDE, piece.s, piece.helmsman))

    def _cost(self, world: BashState, team: int) -> float:
        """Progress, lane risk and obstacles of one team, in turns."""
        total = 0.0
        for piece in world.board.pieces[team]:
            if piece.finished:
                continue
            if piece.lane is None:  # a pawn before the set-up, a helmsman before his entry
                total += min(self._progress(world, lane, 0, piece.helmsman) for lane in LANE_IDS)
                continue
            total += self._progress(world, piece.lane, piece.s, piece.helmsman)
            total += self._risk(world, piece) + self._exposure(world, piece)
        return total

    def _risk(self, world: BashState, piece: Piece) -> float:
        course = world._bash.course
        if piece.lane != HIGH_TIDE or course.on_line(HIGH_TIDE, piece.s):
            return 0.0
        square = course.physical(HIGH_TIDE, piece.s)
        threats = 0
        for other in world.board.on_course():
            if other.team == piece.team or other.lane is None:
                continue
            if course.on_line(other.lane, other.s):
                continue
            seen = course.physical(HIGH_TIDE, course.alongside(other.lane, other.s, HIGH_TIDE))
            if course.ring_distance(HIGH_TIDE, square, seen) <= THREAT_RANGE:
                threats += 1
        w = self.weights
        return self._fall_loss(world, piece) * (w["tide"] + w["threat"] * threats)

    def _exposure(self, world: BashState, piece: Piece) -> float:
        """The expected cost of the obstacles ahead of ``piece`` in its lane."""
        return sum(
            self._obstacle_threat(world, piece, lane, square)
            for lane, square in world.board.obstacles
        )

    def _obstacle_threat(self, world: BashState, piece: Piece, lane: int, square: int) -> float:
        if piece.lane != lane or not piece.on_course:
            return 0.0
        course = world._bash.course
        distance = (square - course.physical(lane, piece.s)) % course.length(lane)
        reach = self._reach(world, lane)
        if not 1 <= distance <= reach:
            return 0.0
        chance = min(1.0, (reach + 1 - distance) / world._bash.settings.options.die_faces)
        loss = self._fall_loss(world, piece) if lane == HIGH_TIDE else self.weights["slip"]
        return self.weights["obstacle"] * chance * loss

    def _obstacle_gain(self, world: BashState, seat: int, action: Action) -> float:
        """How much an obstacle on ``action``'s square adds to the score of ``seat``."""
        lane, square = LANES.index(str(action.param("lane"))), int(action.param("square"))
        teams = len(world.board.pieces)
        gain = 0.0
        for piece in world.board.on_course():
            threat = self._obstacle_threat(world, piece, lane, square)
            if piece.team == seat:
                gain -= threat
            else:
                gain += self.weights["rival"] * threat / max(1, teams - 1)
        return gain

    def _hold(self, card: str) -> float:
        return self.weights["hold_lifebuoy" if card == "lifebuoy" else "hold_card"]

    def _card_value(self, world: BashState, team: int, seat: int) -> float:
        hand = world.board.hands[team]
        if team == seat:
            return sum(self._hold(card) for card in hand)
        return len(hand) * self.weights["hold_card"]

    def _dice_to_come(self, world: BashState) -> float:
        """The expected gain of extra dice (or of a reroll) awaited for the active piece."""
        awaiting = world.awaiting
        piece = world.active_piece
        if not isinstance(awaiting, AwaitRoll) or piece.lane is None:
            return 0.0
        lane = piece.lane
        faces = world._bash.settings.options.die_faces
        left = awaiting.dice
        if awaiting.purpose == "reroll":
            # The first roll is not walked yet: the whole walk of the better roll is to come.
            now = self._gain(world, piece, lane, sum(world.dice))
            spread = _sums(faces, left)
            return sum(p * max(now, self._gain(world, piece, lane, v)) for v, p in spread.items())
        dice = len(world.dice) + left
        if dice <= 1:
            return 0.0
        plain = sum(p * self._gain(world, piece, lane, v) for v, p in _sums(faces, 1).items())
        more = sum(
            p * self._gain(world, piece, lane, v + sum(world.dice))
            for v, p in _sums(faces, left).items()
        )
        return more - plain

    def _gain(self, world: BashState, piece: Piece, lane: int, roll: int) -> float:
        """Turns saved by walking ``roll`` (with modifiers and tail wind) straight ahead."""
        for amount, minimum in world.modifiers:
            roll = max(minimum, roll + amount)
        if lane == OUTER and roll > 0:
            roll += world._bash.settings.options.tail_wind
        total = world._bash.course.total(lane, piece.helmsman)
        s = piece.s + roll
        if s > total and piece.helmsman:
            s = max(0, 2 * total - s)
        before = self._progress(world, lane, piece.s, piece.helmsman)
        return before - self._progress(world, lane, min(s, total), piece.helmsman)


def _sums(faces: int, dice: int) -> Mapping[int, float]:
    """The distribution of the sum of ``dice`` fair dice with ``faces`` faces."""
    spread: dict[int, float] = {0: 1.0}
    for _ in range(dice):
        step: dict[int, float] = {}
        for value, p in spread.items():
            for face in range(1, faces + 1):
                step[value + face] = step.get(value + face, 0.0) + p / faces
        spread = step
    return spread


__all__ = ["GreedyBashBot", "determinize"]


def seen_legal_actions(state: BashState) -> list[Action]:
    """The legal actions of the seat to act, read from what that seat sees (its view);
    :class:`ActionError` when there is none."""
    seat = state.to_act()
    raw = state.view(seat)["legal_actions"] if seat not in (CHANCE, TERMINAL) else []
    legal = [state.game.parse_action(a) for a in (raw if isinstance(raw, list) else [])]
    if not legal:
        raise ActionError(message("no legal action to choose in {state}", state=state.describe()))
    return legal
