"""The fixed-size encoding of Splash & Bash: action indices are the game's action ids, and an
observation is a team's view (:meth:`BashState.view`) as a float32 vector.

The layout (see :meth:`BashEncoding.layout` and docs/envs.md) depends on the options and data
(teams, die faces, lane lengths, checkpoints, cards), never on the position.  Every entry lies
in ``[0, 1]``: counts are divided by their maxima from the configuration (positions by the
longest race, cards by the decks' counts); only the dice and the roll, whose maxima depend on
how many cards a turn sees, are clipped.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

import numpy as np

from splash.core.actions import Action
from splash.core.encoding import Encoding, Layout, Mask, Vector
from splash.core.errors import MalformedActionError
from splash.core.i18n import message
from splash.core.protocol import State
from splash.games.bash.board import PIECE_LABELS
from splash.games.bash.config import LANES, BashConfig, ExtraDie, RollModifier
from splash.games.bash.game import BashGame
from splash.games.bash.geometry import HELMSMAN

PIECES_PER_TEAM = 4
"""Three pawns and the helmsman (index 3)."""
WINDOWS = ("before_roll", "after_roll", "after_lane", "after_walk")
AWAITED = (
    "start_lane",
    *(f"window:{w}" for w in WINDOWS),
    "lane",
    "target",
    "victim",
    "keep",
    "discard",
    "obstacle",
    "draw",
    "roll",
    "steal",
    "reaction:lifebuoy",
    "reaction:discard",
)
"""What the state waits for, one entry each in the ``awaiting`` block."""
PIECE_FEATURES = (
    "on_course",
    "finished",
    *(f"lane:{lane}" for lane in LANES),
    "s",
    "lap",
    "square",
    "progress",
)
"""The features of one piece before its checkpoint one-hot."""


def card_dice(settings: BashConfig) -> tuple[int, int]:
    """The most dice one card adds to a roll, and the largest bonus one card adds to it."""
    effects = [
        effect
        for spec in settings.decks.values()
        for card in spec.cards.values()
        for effect in card.effects
    ]
    extra = max((e.dice for e in effects if isinstance(e, ExtraDie)), default=0)
    bonus = max((max(e.amount, 0) for e in effects if isinstance(e, RollModifier)), default=0)
    return extra, bonus


def awaited_of(view: Mapping[str, Any]) -> str | None:
    """The entry of :data:`AWAITED` that a view's ``awaiting`` names (``None``: nothing)."""
    awaiting = view.get("awaiting")
    if not isinstance(awaiting, Mapping):
        return None
    kind = str(awaiting.get("kind"))
    if kind == "window":
        return f"window:{awaiting.get('window')}"
    if kind == "reaction":
        return f"reaction:{awaiting.get('question')}"
    return kind


class BashEncoding(Encoding):
    """Splash & Bash for the AI interfaces: indices = action ids, views as vectors."""

    def __init__(self, game: BashGame) -> None:
        self.bash = game
        cfg = game.settings
        self.teams = cfg.options.teams
        self.faces = cfg.options.die_faces
        self.course = game.course
        self.decks = {deck: tuple(spec.cards) for deck, spec in cfg.decks.items()}
        self.hand_cards = self.decks["high_tide"]
        self.checkpoints = len(cfg.board.checkpoints.fractions)
        longest = max(
            self.course.total(lane, helmsman=h) for lane in range(len(LANES)) for h in (False, True)
        )
        laps = max(self.course.laps, self.course.helmsman_laps)
        widest = max(self.course.lengths)
        copies = {
            deck: tuple(max(spec.cards[card].count, 1) for card in self.decks[deck])
            for deck, spec in cfg.decks.items()
        }
        deck_totals = tuple(
            max(sum(c.count for c in spec.cards.values()), 1) for spec in cfg.decks.values()
        )
        hand_total = max(sum(c.count for c in cfg.decks["high_tide"].cards.values()), 1)
        extra, bonus = card_dice(cfg)
        t, f = self.teams, self.faces
        turns = cfg.options.turn_cap + t - 1
        self.max_dice = 1 + (t + 1) * extra
        self.max_roll = self.max_dice * f + (t + 1) * bonus
        layout = Layout()
        layout.add("seat", t, 0, 1, "one-hot: the observing team")
        layout.add("to_act", t, 0, 1, "one-hot: the team to decide now (all 0 at chance, end)")
        layout.add("turn_team", t, 0, 1, "one-hot: the team whose turn it is")
        layout.add("active", PIECES_PER_TEAM, 0, 1, "one-hot: the piece moving this turn (1-3, H)")
        layout.add(
            "turn",
            1,
            0,
            1,
            "team turns played",
            scale=turns,
            scale_doc=f"{turns} (turn cap + teams - 1: the game ends once a round reaches the cap)",
        )
        self.piece_size = len(PIECE_FEATURES) + self.checkpoints
        piece_scales = [1.0] * self.piece_size
        piece_scales[5:8] = (longest, laps, widest)
        layout.add(
            "pieces",
            t * PIECES_PER_TEAM * self.piece_size,
            0,
            1,
            "per team, per piece (1, 2, 3, H): on_course, finished, lane one-hot (outer, centre, "
            "high tide), s (squares from the start, laps included), lap (from 0), square of the "
            f"lap, progress (s over the finish, 1 when finished), then a one-hot over the "
            f"{self.checkpoints} checkpoint lines: the one at or behind the piece",
            scale=piece_scales * (t * PIECES_PER_TEAM),
            scale_doc=f"s ÷ {longest} (the longest race: s stays below its lane's finish), "
            f"lap ÷ {laps} (the most laps), square ÷ {widest} (the longest lap); the rest 1",
        )
        layout.add(
            "obstacles",
            sum(self.course.lengths),
            0,
            1,
            "1 on each square with an obstacle: outer squares, then centre, then high tide",
        )
        dice_doc = (
            f"{self.max_dice} (1 + (teams + 1) x {extra}, the most dice a card adds: the drawn card "
            "and one card a team)"
        )
        layout.add(
            "dice",
            f,
            0,
            1,
            "how many dice show each face this turn (1 .. faces)",
            scale=self.max_dice,
            scale_doc=dice_doc,
            clipped=True,
        )
        layout.add(
            "rerolled",
            f,
            0,
            1,
            "how many rerolled dice show each face",
            scale=self.max_dice,
            scale_doc=dice_doc,
            clipped=True,
        )
        layout.add(
            "roll",
            1,
            0,
            1,
            "the roll's value with its modifiers",
            scale=self.max_roll,
            scale_doc=f"{self.max_roll} (the dice's maximum x faces + (teams + 1) x {bonus}, the "
            "largest bonus of a card)",
            clipped=True,
        )
        layout.add("free_lane", 1, 0, 1, "the lane change is free this turn")
        layout.add("skip_move", 1, 0, 1, "the active pawn does not move this turn")
        layout.add("awaiting", len(AWAITED), 0, 1, "one-hot: " + ", ".join(AWAITED))
        layout.add(
            "hand",
            len(self.hand_cards),
            0,
            1,
            "own hand: copies of each high tide card",
            scale=copies["high_tide"],
            scale_doc="the card's copies in its deck",
        )
        layout.add(
            "hand_sizes",
            t,
            0,
            1,
            "cards in each team's hand",
            scale=hand_total,
            scale_doc=f"{hand_total} (the high tide deck's cards)",
        )
        layout.add(
            "deck_sizes",
            len(self.decks),
            0,
            1,
            "cards left in each deck",
            scale=deck_totals,
            scale_doc="the deck's cards (" + ", ".join(map(str, deck_totals)) + ")",
        )
        layout.add(
            "discards",
            sum(len(cards) for cards in self.decks.values()),
            0,
            1,
            "copies of each card on each deck's discard pile (" + ", ".join(self.decks) + ")",
            scale=[n for deck in self.decks for n in copies[deck]],
            scale_doc="the card's copies in its deck",
        )
        layout.add("played", t, 0, 1, "teams that played a card this turn")
        layout.add("winner", t, 0, 1, "one-hot: the winning team")
        layout.add("terminal", 1, 0, 1, "the game is over")
        super().__init__(game, layout)

    # ----- actions ----------------------------------------------------------------------

    @property
    def num_actions(self) -> int:
        """The size of the game's action enumeration (chance outcomes included)."""
        return self.bash.action_space.size

    def legal_mask(self, state: State) -> Mask:
        """True at the id of every legal decision of the team to act."""
        mask = np.zeros(self.num_actions, dtype=np.bool_)
        if state.to_act() >= 0:
            mask[state.legal_action_ids()] = True
        return mask

    def action_of(self, state: State, index: int) -> Action:
        """The action with id ``index``, when the team to act may choose it."""
        index = self.check_index(index)
        if state.to_act() < 0:
            raise self.refuse(state, index, message("no team is to decide now"))
        action = self.bash.action_space[index]
        reason = state.why_illegal(action)
        if reason is not None:
            raise self.refuse(state, index, reason)
        return action

    def index_of(self, state: State, action: Action) -> int:
        """The action's id (checked against the enumeration)."""
        if not 0 <= action.id < self.num_actions or self.bash.action_space[action.id] != action:
            raise MalformedActionError(action.to_json(), message("the id does not match"))
        return action.id

    # ----- observations -----------------------------------------------------------------

    def observation(self, state: State, seat: int) -> Vector:
        """Team ``seat``'s view as a vector (layout: :attr:`layout`)."""
        return self.encode_view(state.view(seat))

    def encode_view(self, view: Mapping[str, Any]) -> Vector:
        """A view document (:meth:`BashState.view`) as a vector."""
        out = self.layout.zeros()
        block = self.layout.__getitem__

        def put(name: str, offset: int, value: float = 1.0) -> None:
            out[block(name).start + offset] = value

        seat = int(view["seat"])
        put("seat", seat)
        to_act = int(view["to_act"])
        if to_act >= 0:
            put("to_act", to_act)
        put("turn_team", int(view["team"]))
        put("active", PIECE_LABELS.index(str(view["active"])[1]))
        put("turn", 0, float(int(view["turn"]) - 1))
        for team, pieces in enumerate(cast(list[list[dict[str, Any]]], view["pieces"])):
            for index, piece in enumerate(pieces):
                start = (team * PIECES_PER_TEAM + index) * self.piece_size
                out[block("pieces").start + start :][: self.piece_size] = self._piece(
                    piece, index == HELMSMAN
                )
        starts = np.cumsum((0, *self.course.lengths))
        for lane, square in cast(list[list[int]], view["obstacles"]):
            put("obstacles", int(starts[lane]) + int(square))
        for name in ("dice", "rerolled"):
            for face in cast(list[int], view[name]):
                out[block(name).start + int(face) - 1] += 1
        put("roll", 0, float(view["roll"]))
        put("free_lane", 0, float(bool(view["free_lane"])))
        put("skip_move", 0, float(bool(view["skip_move"])))
        awaited = awaited_of(view)
        if awaited in AWAITED:
            put("awaiting", AWAITED.index(awaited))
        for card in cast(list[str], view["hand"]):
            out[block("hand").start + self.hand_cards.index(card)] += 1
        for team, size in enumerate(cast(list[int], view["hand_sizes"])):
            put("hand_sizes", team, float(size))
        sizes = cast(dict[str, int], view["deck_sizes"])
        discards = cast(dict[str, dict[str, int]], view["discards"])
        offset = 0
        for index, (deck, cards) in enumerate(self.decks.items()):
            put("deck_sizes", index, float(sizes.get(deck, 0)))
            for position, card in enumerate(cards):
                put("discards", offset + position, float(discards.get(deck, {}).get(card, 0)))
            offset += len(cards)
        for team in cast(list[int], view["played"]):
            put("played", int(team))
        if view.get("winner") is not None:
            put("winner", int(view["winner"]))
        put("terminal", 0, float(bool(view["terminal"])))
        return self.layout.normalise(out)

    def _piece(self, piece: Mapping[str, Any], helmsman: bool) -> Vector:
        features = np.zeros(self.piece_size, dtype=np.float32)
        if piece["finished"]:
            features[1] = 1.0
            features[8] = 1.0
            return features
        lane = piece["lane"]
        if lane is None:
            return features
        lane, s = int(lane), int(piece["s"])
        length = self.course.length(lane)
        square = s % length
        features[0] = 1.0
        features[2 + lane] = 1.0
        features[5:9] = (s, s // length, square, s / self.course.total(lane, helmsman))
        lines = self.course.checkpoints[lane]
        line = max(i for i, checkpoint in enumerate(lines) if checkpoint <= square)
        features[len(PIECE_FEATURES) + line] = 1.0
        return features
