"""The mechanics a turn calls on: card effects, movements, and what is possible now.

:class:`Mechanics` is the part of :class:`~splash.games.bash.state.BashState` that runs card
effects and movements; it holds no state of its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from splash.games.bash import cards as card_rules
from splash.games.bash.board import Board, Piece
from splash.games.bash.config import (
    HAND_DECK,
    LANES,
    CardSpec,
    DiscardCard,
    Effect,
    ExtraDie,
    Fall,
    FreeLaneChange,
    Move,
    PlaceObstacle,
    Push,
    Reroll,
    RollModifier,
    SkipMove,
    StealCard,
)
from splash.games.bash.geometry import OUTER
from splash.games.bash.records import (
    Awaited,
    AwaitRoll,
    AwaitSteal,
    CardFall,
    CardPush,
    ChangeLane,
    DiscardChoice,
    EffectRef,
    ObstacleChoice,
    Operation,
    PendingMove,
    TargetChoice,
    VictimChoice,
    Walk,
)
from splash.games.bash.resolver import PASS, GameWon, NeedAnswer, Resolver, Result

if TYPE_CHECKING:
    from splash.core.actions import Action
    from splash.games.bash.game import BashGame


class Mechanics:
    """Card effects, movements and queries over a turn's data."""

    _bash: BashGame
    board: Board
    team: int
    active: int
    over: bool
    awaiting: Awaited | None
    pending: PendingMove | None
    effects: list[EffectRef]
    dice: list[int]
    extra_dice: int
    modifiers: list[list[int]]
    free_lane: bool
    skip_move: bool
    lane_cost: int
    movement_over: bool

    @property
    def active_piece(self) -> Piece:
        """The pawn (or helmsman) whose turn it is."""
        return self.board.pieces[self.team][self.active]

    # ----- card effects -----------------------------------------------------------------

    def _discard_from(self, team: int, card: str) -> None:
        self.board.remove_card(team, card)
        self.board.discard(HAND_DECK, card)
        self.board.events.append({"event": "discard", "team": team, "card": card})

    def _card(self, deck: str, card: str) -> CardSpec:
        return self._bash.settings.decks[deck].cards[card]

    def _effect(self, ref: EffectRef) -> Effect:
        return self._card(ref.deck, ref.card).effects[ref.index]

    def _run_effect(self, ref: EffectRef) -> None:
        effect = self._effect(ref)
        if isinstance(effect, RollModifier):
            self.modifiers.append([effect.amount, effect.minimum])
        elif isinstance(effect, ExtraDie):
            self.extra_dice += effect.dice
        elif isinstance(effect, FreeLaneChange):
            self.free_lane = True
        elif isinstance(effect, SkipMove):
            self.skip_move = True
        elif isinstance(effect, Reroll):
            if self.dice:
                self.awaiting = AwaitRoll(len(self.dice), "reroll")
        elif isinstance(effect, PlaceObstacle):
            self._ask_obstacle(effect.count)
        elif isinstance(effect, Move):
            piece = self.active_piece
            if piece.on_course and not self.skip_move:
                points = effect.squares
                if effect.tail_wind and piece.lane == OUTER:
                    points += self._bash.settings.options.tail_wind
                self._run_op(Walk(self.team, self.active, points))
        elif isinstance(effect, Push | Fall):
            candidates = self._target_candidates(ref)
            if len(candidates) == 1:
                self._hit(ref, candidates[0].team, candidates[0].index)
            elif candidates:
                self.awaiting = TargetChoice(self.team, ref)
        elif isinstance(effect, DiscardCard | StealCard):
            victims = card_rules.victim_candidates(self.board, self.team)
            if len(victims) == 1:
                self._rob(ref, victims[0])
            elif victims:
                self.awaiting = VictimChoice(self.team, ref)

    def _ask_obstacle(self, count: int) -> None:
        if self.free_squares():
            self.awaiting = ObstacleChoice(self.team, count)
        else:
            self.board.events.append({"event": "obstacle_lost"})

    def _target_candidates(self, ref: EffectRef) -> list[Piece]:
        effect = self._effect(ref)
        assert isinstance(effect, Push | Fall)
        return card_rules.pawn_candidates(
            self._bash.course, self.board, self.team, self.active_piece, effect.target
        )

    def _hit(self, ref: EffectRef, team: int, index: int) -> None:
        effect = self._effect(ref)
        if isinstance(effect, Push):
            self._run_op(CardPush(team, index, effect.direction == "pool"))
        else:
            self._run_op(CardFall(team, index))

    def _rob(self, ref: EffectRef, victim: int) -> None:
        effect = self._effect(ref)
        hand = self.board.hands[victim]
        if isinstance(effect, StealCard):
            self.awaiting = AwaitSteal(victim)
        elif len(hand) == 1:
            self._discard_from(victim, hand[0])
        else:
            self.awaiting = DiscardChoice(victim, None)

    # ----- movements --------------------------------------------------------------------

    def _resolver(self, answers: tuple[str, ...]) -> Resolver:
        return Resolver(
            self._bash.course,
            self._bash.settings.options,
            self.board,
            reaction_cards=self._bash.reaction_cards,
            hand_deck=HAND_DECK,
            answers=answers,
        )

    def _run_op(self, op: Operation) -> None:
        self._execute(op, (), self.board.copy())

    def _execute(self, op: Operation, answers: tuple[str, ...], snapshot: Board) -> None:
        resolver = self._resolver(answers)
        piece = self.board.pieces[op.team][op.piece]
        try:
            match op:
                case Walk(points=points):
                    result = resolver.walk(piece, points)
                case ChangeLane(lane=lane):
                    result = resolver.change_lane(piece, lane)
                case CardPush(inward=inward):
                    result = resolver.push(piece, inward)
                case CardFall():
                    result = resolver.fall(piece)
        except NeedAnswer as need:
            # While the team decides, the board stays as it was before the movement; the
            # events so far tell what is about to happen.
            events = self.board.events
            self.board.restore_from(snapshot)
            self.board.events = events
            self.pending = PendingMove(op, answers, snapshot, need.question)
            return
        except GameWon:
            self.pending = None
            self.over = True
            self.effects = []
            return
        self.pending = None
        if isinstance(op, ChangeLane) and result is not Result.MOVED:
            self.movement_over = True

    def _answer(self, action: Action) -> None:
        assert self.pending is not None
        answer = PASS if action.kind == "pass" else str(action.param("card"))
        pending = self.pending
        self.board.restore_from(pending.snapshot)
        self._execute(pending.op, (*pending.answers, answer), pending.snapshot)

    # ----- queries ----------------------------------------------------------------------

    def roll_value(self) -> int:
        """This turn's roll with its modifiers (0 before the roll)."""
        if not self.dice:
            return 0
        value = sum(self.dice)
        for amount, minimum in self.modifiers:
            value = max(minimum, value + amount)
        return value

    def lane_options(self) -> list[tuple[int, int]]:
        """``(lane, cost)`` of each lane change the roll covers now (B09, BD05)."""
        piece = self.active_piece
        if piece.lane is None or not self.dice:
            return []
        roll = self.roll_value()
        unit = 0 if self.free_lane else self._bash.settings.options.lane_change_cost
        options = []
        for lane in range(len(LANES)):
            if lane != piece.lane:
                cost = abs(lane - piece.lane) * unit
                if cost <= roll:
                    options.append((lane, cost))
        return options

    def free_squares(self) -> list[tuple[int, int]]:
        """Physical squares off the start line with neither a piece nor an obstacle (BD11)."""
        course = self._bash.course
        taken = {
            (p.lane, course.physical(p.lane, p.s))
            for p in self.board.on_course()
            if p.lane is not None
        }
        return [
            (lane, square)
            for lane in range(len(LANES))
            for square in range(1, course.length(lane))
            if (lane, square) not in taken and (lane, square) not in self.board.obstacles
        ]

    def playable_cards(self, window: str) -> list[str]:
        """The distinct cards of the acting team's hand that may be played at ``window``."""
        if self.team in self.board.played:
            return []
        playable = []
        for card in sorted(set(self.board.hands[self.team])):
            spec = self._card(HAND_DECK, card)
            if not card_rules.fits_window(spec, window):
                continue
            if all(
                card_rules.effect_possible(
                    e,
                    course=self._bash.course,
                    board=self.board,
                    team=self.team,
                    active=self.active_piece,
                    skip_move=self.skip_move,
                )
                for e in spec.effects
            ):
                playable.append(card)
        return playable
