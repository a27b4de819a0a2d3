"""A position of Splash & Bash and the turn sequence that moves it on (B05-B11, B18-B20, B30-B32).

A team turn runs through a fixed program of steps; a step that needs a decision or a
chance outcome sets :attr:`BashState.awaiting` and the state waits for the matching action.
Movements are run by a :class:`~splash.games.bash.resolver.Resolver`; when one needs a
team's answer midway (a lifebuoy, a B14 discard) the state keeps the board as it was before
the movement and runs it again with the answers given so far.

The state is the record its documents act on: :mod:`.serial` (the whole state) and
:mod:`.view` (what a team sees) import it, never the other way round; its protocol methods
reach them through its game's :class:`BashDocuments`
(:attr:`BashGame.documents <splash.games.bash.game.BashGame.documents>`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

from splash.core.actions import Action, Json
from splash.core.protocol import CHANCE, TERMINAL, ChanceEvent, State
from splash.games.bash import cards as card_rules
from splash.games.bash.board import TEAM_LETTERS, Board
from splash.games.bash.config import HAND_DECK, LANES
from splash.games.bash.geometry import HELMSMAN, OUTER
from splash.games.bash.mechanics import Mechanics
from splash.games.bash.records import (
    AwaitDraw,
    Awaited,
    AwaitRoll,
    AwaitSteal,
    ChangeLane,
    DiscardChoice,
    EffectRef,
    KeepChoice,
    LaneChoice,
    ObstacleChoice,
    PendingMove,
    PlayWindow,
    StartLane,
    TargetChoice,
    VictimChoice,
    Walk,
    Window,
)
from splash.games.bash.resolver import PASS
from splash.games.bash.variants import furthest_behind, start_square, turn_team

if TYPE_CHECKING:
    from splash.games.bash.game import BashGame

Step = Literal[
    "begin",
    "enter",
    "draw",
    "before_roll",
    "roll",
    "after_roll",
    "lane",
    "after_lane",
    "walk",
    "after_walk",
    "helmsman_draw",
    "end",
]
PROGRAM: tuple[Step, ...] = (
    "begin",
    "enter",
    "draw",
    "before_roll",
    "roll",
    "after_roll",
    "lane",
    "after_lane",
    "walk",
    "after_walk",
    "helmsman_draw",
    "end",
)
CHANCE_KINDS = frozenset({"draw", "roll", "steal"})
"""The kinds of :data:`~splash.games.bash.records.Chance` records, as the views name them."""


@dataclass(frozen=True, slots=True)
class BashDocuments:
    """The documents of a :class:`BashState`, handed to it by its game: each function lives
    in a module that imports the state (the state imports none of them)."""

    view: Callable[[BashState, int], dict[str, Json]]
    """What a team may know (:func:`splash.games.bash.view.view_json`)."""
    document: Callable[[BashState], dict[str, Json]]
    """The whole state (:func:`~splash.games.bash.serial.state_to_json`)."""
    read: Callable[[type[BashState], BashGame, Mapping[str, Any]], BashState]
    """The state a document describes (:func:`~splash.games.bash.serial.state_from_json`)."""


def _by_id(action: Action) -> int:
    return action.id


class BashState(Mechanics, State):
    """One position of a Splash & Bash game (seats are teams)."""

    def __init__(self, game: BashGame) -> None:
        super().__init__(game)
        self._bash = game
        cfg = game.settings
        self.board = Board.empty(
            cfg.options.teams,
            {deck: {c: s.count for c, s in spec.cards.items()} for deck, spec in cfg.decks.items()},
        )
        self.team = 0
        self.active = 0
        self.step = 0
        self.turns = 0
        self.next_pawn = [0] * cfg.options.teams
        self.setup_placed = 0
        self.over = False
        self.awaiting: Awaited | None = StartLane(0, "setup")
        self.pending: PendingMove | None = None
        self.effects: list[EffectRef] = []
        self._reset_turn()

    def _reset_turn(self) -> None:
        self.dice: list[int] = []
        self.rerolled: list[int] = []
        self.extra_dice = 0
        self.modifiers: list[list[int]] = []
        self.free_lane = False
        self.skip_move = False
        self.lane_cost = 0
        self.movement_over = False

    # ----- protocol ---------------------------------------------------------------------

    def to_act(self) -> int:
        """The team to act, ``CHANCE`` or ``TERMINAL``."""
        if self.over:
            return TERMINAL
        if self.pending is not None:
            return self.pending.question.team
        match self.awaiting:
            case AwaitDraw() | AwaitRoll() | AwaitSteal():
                return CHANCE
            case None:
                raise RuntimeError("a state between its steps awaits nothing")
            case decision:
                return decision.team

    def legal_actions(self) -> list[Action]:
        """Legal decisions (or possible chance outcomes), sorted by id."""
        if self.over:
            return []
        index = self._bash.actions
        if self.pending is not None:
            question = self.pending.question
            if question.kind == "discard":
                found = [index.discard[card] for card in question.options]
            else:
                found = [
                    index.pass_ if option == PASS else index.play[option]
                    for option in question.options
                ]
        else:
            found = self._choices()
        return sorted(found, key=_by_id)

    def hidden_pass(self) -> Action | None:
        """The pass of a play window or of a lifebuoy question: which cards the team may
        play there is its own secret (:meth:`splash.core.protocol.State.hidden_pass`)."""
        pass_: Action = self._bash.actions.pass_
        if self.over:
            return None
        if self.pending is not None:
            return pass_ if PASS in self.pending.question.options else None
        return pass_ if isinstance(self.awaiting, PlayWindow) else None

    def _choices(self) -> list[Action]:
        index = self._bash.actions
        match self.awaiting:
            case StartLane():
                return list(index.start_lane.values())
            case DiscardChoice(team=holder, new=new):
                hand = list(self.board.hands[holder])
                if new is not None:
                    hand.remove(new)
                return [index.discard[c] for c in set(hand)]
            case ObstacleChoice():
                return [index.obstacle[LANES[lane], sq] for lane, sq in self.free_squares()]
            case PlayWindow(window=window):
                return [index.pass_, *(index.play[c] for c in self.playable_cards(window))]
            case LaneChoice():
                return [index.stay] + [
                    index.change_lane[LANES[lane]] for lane, _ in self.lane_options()
                ]
            case TargetChoice(effect=effect):
                return [index.target[p.team, p.index] for p in self._target_candidates(effect)]
            case VictimChoice():
                return [
                    index.victim[t] for t in card_rules.victim_candidates(self.board, self.team)
                ]
            case KeepChoice():
                return [index.keep["first"], index.keep["second"]]
            case _:
                return [a for a, _ in self.chance_weights()]

    def chance_event(self) -> ChanceEvent | None:
        """The pending chance event, if any."""
        if self.over or self.pending is not None:
            return None
        match self.awaiting:
            case AwaitDraw(deck=deck):
                return ChanceEvent("draw", {"deck": deck})
            case AwaitRoll():
                return ChanceEvent("roll", {"faces": self._bash.settings.options.die_faces})
            case AwaitSteal(victim=victim):
                return ChanceEvent("steal", {"team": victim})
            case _:
                return None

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """Each possible outcome with its exact probability."""
        weights = self.chance_weights()
        total = sum(w for _, w in weights)
        return [(action, Fraction(w, total)) for action, w in weights]

    def chance_weights(self) -> list[tuple[Action, int]]:
        """Each possible outcome with an integer weight proportional to its probability: a
        face of the die 1, a card its count in the deck (or in the victim's hand)."""
        index = self._bash.actions
        match None if self.over or self.pending is not None else self.awaiting:
            case AwaitRoll():
                return [(action, 1) for action in index.roll.values()]
            case AwaitDraw(deck=deck):
                return [
                    (index.draw[deck, c], n) for c, n in self.board.decks[deck].items() if n > 0
                ]
            case AwaitSteal(victim=victim):
                hand = self.board.hands[victim]
                return [(index.steal[c], hand.count(c)) for c in sorted(set(hand))]
            case _:
                return []

    def returns(self) -> list[float]:
        """+1 to the winner, -1/(n-1) to every other team; 0 for all without a winner."""
        n = self._bash.num_seats
        winner = self.board.winner
        if winner is None:
            return [0.0] * n
        return [1.0 if t == winner else -1.0 / (n - 1) for t in range(n)]

    def _apply(self, action: Action) -> None:
        self.board.events = []
        if self.pending is not None:
            self._answer(action)
        else:
            awaited = self.awaiting
            self.awaiting = None
            match awaited:
                case StartLane():
                    self._on_start_lane(awaited, action)
                case AwaitDraw():
                    self._on_draw(action)
                case AwaitRoll():
                    self._on_roll(awaited, action)
                case AwaitSteal():
                    self._on_steal(awaited, action)
                case PlayWindow():
                    self._on_window(action)
                case LaneChoice():
                    self._on_lane(action)
                case DiscardChoice():
                    self._discard_from(awaited.team, str(action.param("card")))
                case ObstacleChoice():
                    self._on_obstacle(awaited, action)
                case TargetChoice():
                    self._hit(awaited.effect, int(action.param("team")), int(action.param("piece")))
                case VictimChoice():
                    self._rob(awaited.effect, int(action.param("team")))
                case KeepChoice():
                    self._on_keep(action)
                case None:
                    raise RuntimeError(f"nothing is awaited in {self.describe()}")
        self._advance()

    # ----- the turn program -------------------------------------------------------------

    def _advance(self) -> None:
        while not self.over and self.awaiting is None and self.pending is None:
            if self.effects:
                self._run_effect(self.effects.pop(0))
                continue
            step = PROGRAM[self.step]
            self.step += 1
            self._run_step(step)

    def _run_step(self, step: Step) -> None:
        match step:
            case "begin":
                self._step_begin()
            case "enter":
                self._step_enter()
            case "draw":
                self._step_draw()
            case "before_roll" | "after_roll" | "after_lane" | "after_walk":
                self._window(step)
            case "roll":
                self._step_roll()
            case "lane":
                self._step_lane()
            case "walk":
                self._step_walk()
            case "helmsman_draw":
                if self.active == HELMSMAN:
                    self._begin_draw(HAND_DECK)
            case "end":
                self._step_end()

    def _step_begin(self) -> None:
        self._reset_turn()
        self.board.played.clear()
        penalty = self._bash.settings.options.first_turn_penalty
        if self.turns == 0 and penalty > 0:
            self.modifiers.append([-penalty, 1])
        pawns = self.board.pieces[self.team][:HELMSMAN]
        if all(p.finished for p in pawns):
            self.active = HELMSMAN
            return
        index = self.next_pawn[self.team]
        while pawns[index].finished:
            index = (index + 1) % HELMSMAN
        self.active = index
        self.next_pawn[self.team] = (index + 1) % HELMSMAN

    def _step_enter(self) -> None:
        piece = self.active_piece
        if piece.helmsman:
            if piece.lane is None:
                self.awaiting = StartLane(self.team, "helmsman")
        elif (
            self._bash.settings.options.catch_up_draw
            and piece.lane is not None
            and furthest_behind(self._bash.course, self.board) == self.team
        ):
            # BV04: the first of the two automatic draws; the draw step makes the second.
            self._begin_draw(self._bash.course.colours[piece.lane])

    def _step_draw(self) -> None:
        piece = self.active_piece
        if piece.helmsman or piece.lane is None:
            return
        self._begin_draw(self._bash.course.colours[piece.lane])

    def _begin_draw(self, deck: str) -> None:
        counts = self.board.decks[deck]
        if not any(counts.values()):
            self.board.decks[deck] = dict(self.board.discards[deck])
            self.board.discards[deck] = dict.fromkeys(counts, 0)
            self.board.events.append({"event": "reshuffle", "deck": deck})
        if not any(self.board.decks[deck].values()):
            self.board.events.append({"event": "no_card", "deck": deck})
            return
        self.awaiting = AwaitDraw(deck)

    def _window(self, window: Window) -> None:
        if self.skip_move and window != "before_roll":
            return
        if not self.board.hands[self.team] or self.team in self.board.played:
            return
        if not any(
            card_rules.fits_window(c, window)
            for c in self._bash.settings.decks[HAND_DECK].cards.values()
        ):
            return
        self.awaiting = PlayWindow(self.team, window)

    def _step_roll(self) -> None:
        if self.skip_move or not self.active_piece.on_course:
            return
        self.awaiting = AwaitRoll(1 + self.extra_dice, "roll")

    def _step_lane(self) -> None:
        if self.skip_move or not self.active_piece.on_course or not self.lane_options():
            return
        self.awaiting = LaneChoice(self.team)

    def _step_walk(self) -> None:
        piece = self.active_piece
        if self.skip_move or self.movement_over or not piece.on_course or not self.dice:
            return
        points = self.roll_value() - self.lane_cost
        if points > 0 and piece.lane == OUTER:
            points += self._bash.settings.options.tail_wind
        if points > 0:
            self._run_op(Walk(self.team, self.active, points))

    def _step_end(self) -> None:
        options = self._bash.settings.options
        teams = self._bash.num_seats
        self.turns += 1
        self.team = turn_team(options.turn_order, teams, self.turns)
        self.step = 0
        if self.turns % teams == 0 and self.turns >= options.turn_cap:
            self.over = True
            self.board.events.append({"event": "turn_cap", "turns": self.turns})

    # ----- handlers of decisions and outcomes -------------------------------------------

    def _on_start_lane(self, awaited: StartLane, action: Action) -> None:
        name = str(action.param("lane"))
        lane = LANES.index(name)
        if awaited.purpose == "helmsman":
            piece = self.active_piece
            piece.lane, piece.s = lane, 0
            self.board.events.append({"event": "enter", "piece": piece.name, "lane": name})
            return
        piece = self.board.pieces[self.team][self.setup_placed]
        piece.lane, piece.s = lane, start_square(self._bash.course, self.board, self.team, lane)
        self.setup_placed += 1
        if self.setup_placed < HELMSMAN:
            self.awaiting = StartLane(self.team, "setup")
            return
        self.setup_placed = 0
        self.team = (self.team + 1) % self._bash.num_seats
        if self.team != 0:
            self.awaiting = StartLane(self.team, "setup")
        elif self._bash.settings.options.opening_cards > 0:
            self._opening_draw(1)

    def _opening_draw(self, team: int) -> None:
        """BV05: the opening draw of ``team`` or of the next team that can draw; then seat 0
        plays the first turn.  The state is at step 0 of turn 0 throughout."""
        while team < self._bash.num_seats:
            self.team = team
            self._begin_draw(HAND_DECK)
            if self.awaiting is not None:
                return
            team += 1
        self.team = 0

    def _on_draw(self, action: Action) -> None:
        deck, card = str(action.param("deck")), str(action.param("card"))
        self.board.decks[deck][card] -= 1
        self.board.events.append({"event": "draw", "team": self.team, "deck": deck, "card": card})
        spec = self._card(deck, card)
        if spec.timing == "on_draw":
            self.board.discard(deck, card)
            self.effects += [EffectRef(deck, card, i) for i in range(len(spec.effects))]
            return
        self._take_card(self.team, card)
        if self.step == 0:
            self._opening_draw(self.team + 1)

    def _take_card(self, team: int, card: str) -> None:
        self.board.add_card(team, card)
        if len(self.board.hands[team]) > self._bash.settings.options.hand_limit:
            self.awaiting = DiscardChoice(team, card)

    def _on_window(self, action: Action) -> None:
        if action.kind == "pass":
            return
        card = str(action.param("card"))
        self.board.remove_card(self.team, card)
        self.board.discard(HAND_DECK, card)
        self.board.played.add(self.team)
        self.board.events.append({"event": "play", "team": self.team, "card": card})
        spec = self._card(HAND_DECK, card)
        self.effects += [EffectRef(HAND_DECK, card, i) for i in range(len(spec.effects))]

    def _on_roll(self, awaited: AwaitRoll, action: Action) -> None:
        face = int(action.param("face"))
        target = self.rerolled if awaited.purpose == "reroll" else self.dice
        target.append(face)
        self.board.events.append({"event": "roll", "face": face})
        left = awaited.dice - 1
        if left > 0:
            self.awaiting = AwaitRoll(left, awaited.purpose)
        elif awaited.purpose == "reroll":
            self.awaiting = KeepChoice(self.team)

    def _on_keep(self, action: Action) -> None:
        if action.param("roll") == "second":
            self.dice = list(self.rerolled)
        self.rerolled = []

    def _on_lane(self, action: Action) -> None:
        if action.kind == "stay":
            return
        lane = LANES.index(str(action.param("lane")))
        self.lane_cost = dict(self.lane_options())[lane]
        self._run_op(ChangeLane(self.team, self.active, lane))

    def _on_obstacle(self, awaited: ObstacleChoice, action: Action) -> None:
        lane, square = str(action.param("lane")), int(action.param("square"))
        self.board.obstacles.add((LANES.index(lane), square))
        self.board.events.append({"event": "obstacle", "lane": lane, "square": square})
        if awaited.left > 1:
            self._ask_obstacle(awaited.left - 1)

    def _on_steal(self, awaited: AwaitSteal, action: Action) -> None:
        victim, card = awaited.victim, str(action.param("card"))
        self.board.remove_card(victim, card)
        self.board.events.append(
            {"event": "steal", "team": self.team, "from": victim, "card": card}
        )
        self._take_card(self.team, card)

    def view(self, seat: int) -> dict[str, Json]:
        """What team ``seat`` may know, and nothing more (BD12)."""
        return self._bash.documents.view(self, seat)

    def to_json(self) -> dict[str, Json]:
        """The whole state (every hand included), format ``splash/bash/1``."""
        return self._bash.documents.document(self)

    @classmethod
    def from_json(cls, game: BashGame, doc: Mapping[str, Any]) -> BashState:
        """The state a :meth:`to_json` document describes (for this game's configuration)."""
        return game.documents.read(cls, game, doc)

    def describe(self) -> str:
        """A public one-line description: turn, team, what is awaited."""
        if self.over:
            winner = self.board.winner
            return "game over: " + (
                f"team {TEAM_LETTERS[winner]} won" if winner is not None else "turn cap"
            )
        if self.pending is not None:
            question = self.pending.question
            return f"turn {self.turns + 1}, team {TEAM_LETTERS[question.team]} to decide: {question.kind}"
        match self.awaiting:
            case AwaitDraw() | AwaitRoll() | AwaitSteal() | None as chance:
                what = str(chance and chance.kind)
                who = "chance"
            case decision:
                what = decision.kind
                who = f"team {TEAM_LETTERS[decision.team]}"
        return f"turn {self.turns + 1} (team {TEAM_LETTERS[self.team]}), {who} to act: {what}"
