"""The mechanics a turn calls on: card effects, movements, and what is possible now.

:class:`Mechanics` is the part of :class:`~splash.games.bash.state.BashState` that runs card
effects and movements; it holds no state of its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from splash.core.actions import Json
from splash.games.bash import cards as card_rules
from splash.games.bash.board import Board, Piece
from splash.games.bash.config import (
    LANES,
    CardSpec,
    DiscardCard,
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
from splash.games.bash.resolver import PASS, GameWon, NeedAnswer, Resolver, Result

if TYPE_CHECKING:
    from splash.core.actions import Action
    from splash.games.bash.game import BashGame

HAND_DECK = "high_tide"


class Mechanics:
    """Card effects, movements and queries over a turn's data."""

    _bash: BashGame
    board: Board
    team: int
    active: int
    over: bool
    awaiting: dict[str, Json] | None
    pending: dict[str, Any] | None
    effects: list[list[Json]]
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

    def _run_effect(self, ref: list[Json]) -> None:
        deck, card, index = str(ref[0]), str(ref[1]), int(cast(int, ref[2]))
        effect = self._card(deck, card).effects[index]
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
                self.awaiting = {"kind": "roll", "dice": len(self.dice), "purpose": "reroll"}
        elif isinstance(effect, PlaceObstacle):
            self._ask_obstacle(effect.count)
        elif isinstance(effect, Move):
            piece = self.active_piece
            if piece.on_course and not self.skip_move:
                points = effect.squares
                if effect.tail_wind and piece.lane == OUTER:
                    points += self._bash.settings.options.tail_wind
                self._run_op(
                    {"op": "walk", "team": self.team, "piece": self.active, "points": points}
                )
        elif isinstance(effect, Push | Fall):
            candidates = self._target_candidates(ref)
            if len(candidates) == 1:
                self._hit(ref, candidates[0].team, candidates[0].index)
            elif candidates:
                self.awaiting = {"kind": "target", "team": self.team, "effect": ref}
        elif isinstance(effect, DiscardCard | StealCard):
            victims = card_rules.victim_candidates(self.board, self.team)
            if len(victims) == 1:
                self._rob(ref, victims[0])
            elif victims:
                self.awaiting = {"kind": "victim", "team": self.team, "effect": ref}

    def _ask_obstacle(self, count: int) -> None:
        if self.free_squares():
            self.awaiting = {"kind": "obstacle", "team": self.team, "left": count}
        else:
            self.board.events.append({"event": "obstacle_lost"})

    def _target_candidates(self, ref: list[Json]) -> list[Piece]:
        effect = self._card(str(ref[0]), str(ref[1])).effects[int(cast(int, ref[2]))]
        assert isinstance(effect, Push | Fall)
        return card_rules.pawn_candidates(
            self._bash.course, self.board, self.team, self.active_piece, effect.target
        )

    def _hit(self, ref: list[Json], team: int, index: int) -> None:
        effect = self._card(str(ref[0]), str(ref[1])).effects[int(cast(int, ref[2]))]
        if isinstance(effect, Push):
            op: dict[str, Json] = {
                "op": "push",
                "team": team,
                "piece": index,
                "inward": effect.direction == "pool",
            }
        else:
            op = {"op": "fall", "team": team, "piece": index}
        self._run_op(op)

    def _rob(self, ref: list[Json], victim: int) -> None:
        effect = self._card(str(ref[0]), str(ref[1])).effects[int(cast(int, ref[2]))]
        hand = self.board.hands[victim]
        if isinstance(effect, StealCard):
            self.awaiting = {"kind": "steal", "victim": victim}
        elif len(hand) == 1:
            self._discard_from(victim, hand[0])
        else:
            self.awaiting = {"kind": "discard", "team": victim, "new": None}

    # ----- movements --------------------------------------------------------------------

    def _resolver(self, answers: list[str]) -> Resolver:
        return Resolver(
            self._bash.course,
            self._bash.settings.options,
            self.board,
            reaction_cards=self._bash.reaction_cards,
            hand_deck=HAND_DECK,
            answers=answers,
        )

    def _run_op(self, op: dict[str, Json]) -> None:
        self._execute(op, [], self.board.copy())

    def _execute(self, op: dict[str, Json], answers: list[str], snapshot: Board) -> None:
        resolver = self._resolver(answers)
        piece = self.board.pieces[int(cast(int, op["team"]))][int(cast(int, op["piece"]))]
        try:
            if op["op"] == "walk":
                result = resolver.walk(piece, int(cast(int, op["points"])))
            elif op["op"] == "lane":
                result = resolver.change_lane(piece, int(cast(int, op["lane"])))
            elif op["op"] == "push":
                result = resolver.push(piece, bool(op["inward"]))
            else:
                result = resolver.fall(piece)
        except NeedAnswer as need:
            # While the team decides, the board stays as it was before the movement; the
            # events so far tell what is about to happen.
            events = self.board.events
            self.board.restore_from(snapshot)
            self.board.events = events
            self.pending = {
                "op": op,
                "answers": answers,
                "snapshot": snapshot,
                "question": need.question,
            }
            return
        except GameWon:
            self.pending = None
            self.over = True
            self.effects = []
            return
        self.pending = None
        if op["op"] == "lane" and result is not Result.MOVED:
            self.movement_over = True

    def _answer(self, action: Action) -> None:
        assert self.pending is not None
        answer = PASS if action.kind == "pass" else str(action.param("card"))
        answers = [*self.pending["answers"], answer]
        snapshot: Board = self.pending["snapshot"]
        self.board.restore_from(snapshot)
        self._execute(self.pending["op"], answers, snapshot)

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
