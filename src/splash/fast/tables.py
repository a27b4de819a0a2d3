"""The tables of one Splash & Bash configuration as the compiled core reads them.

:func:`build_tables` turns a :class:`~splash.games.bash.game.BashGame` into one integer array
(options, lane lengths, checkpoints, cards and their effects, the id of every action and the
decoding of every id).  A configuration the core cannot express is refused with a
:class:`FastConfigError` that names the setting: the core never plays other rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import numpy.typing as npt

from splash.core.errors import OptionError
from splash.core.i18n import Message, message
from splash.fast import kernel as k
from splash.games.bash import BashGame
from splash.games.bash.config import (
    DECKS,
    HAND_DECK,
    LANES,
    CancelFall,
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

IntArray = npt.NDArray[np.int64]

TIMINGS = {
    "on_draw": k.TM_ON_DRAW,
    "before_roll": k.TM_BEFORE_ROLL,
    "after_roll": k.TM_AFTER_ROLL,
    "after_lane": k.TM_AFTER_LANE,
    "after_walk": k.TM_AFTER_WALK,
    "any": k.TM_ANY,
    "on_fall": k.TM_ON_FALL,
}
ACTION_KINDS = {
    "start_lane": k.AK_START,
    "change_lane": k.AK_CHANGE,
    "stay": k.AK_STAY,
    "pass": k.AK_PASS,
    "play": k.AK_PLAY,
    "discard": k.AK_DISCARD,
    "obstacle": k.AK_OBST,
    "target": k.AK_TARGET,
    "victim": k.AK_VICTIM,
    "keep": k.AK_KEEP,
    "roll": k.AK_ROLL,
    "draw": k.AK_DRAW,
    "steal": k.AK_STEAL,
}
TEAM_MODES = {"any": 0, "own": 1, "other": 2}
TURN_ORDER_CODES = {"seat": k.ORDER_SEAT, "rotate": k.ORDER_ROTATE, "snake": k.ORDER_SNAKE}


class FastConfigError(OptionError):
    """A setting the compiled core cannot express (the reference engine plays it)."""


def _refuse(key: str, value: object, problem: Message) -> FastConfigError:
    return FastConfigError(key, value, problem)


def _at_most(key: str, value: object, most: int, problem: str) -> FastConfigError:
    texts = {
        "faces": message("the fast core plays a die of at most {most} faces", most=most),
        "checkpoints": message("the fast core plays at most {most} checkpoints", most=most),
        "cards": message("the fast core plays at most {most} kinds of card a deck", most=most),
        "effects": message("the fast core plays at most {most} effects a card", most=most),
        "dice": message("the fast core plays at most {most} dice a turn", most=most),
    }
    return _refuse(key, value, texts[problem])


def _encode_effect(key: str, effect: Effect) -> list[int]:
    """The primitive code and its fields, or a refusal naming ``key``."""
    match effect:
        case RollModifier():
            return [k.PR_ROLL_MODIFIER, effect.amount, effect.minimum]
        case ExtraDie():
            return [k.PR_EXTRA_DIE, effect.dice]
        case Reroll():
            return [k.PR_REROLL]
        case FreeLaneChange():
            return [k.PR_FREE_LANE]
        case SkipMove():
            return [k.PR_SKIP_MOVE]
        case PlaceObstacle():
            return [k.PR_PLACE_OBSTACLE, effect.count]
        case Move():
            return [k.PR_MOVE, effect.squares, int(effect.tail_wind)]
        case Push() | Fall():
            target = effect.target
            fields = [
                k.PR_PUSH if isinstance(effect, Push) else k.PR_FALL,
                TEAM_MODES[target.team],
                -1 if target.lane is None else LANES.index(target.lane),
                -1 if target.within is None else target.within,
                int(target.next_to),
                int(isinstance(effect, Push) and effect.direction == "pool"),
            ]
            return fields
        case CancelFall():
            return [k.PR_CANCEL_FALL]
        case DiscardCard():
            return [k.PR_DISCARD_CARD]
        case StealCard():
            return [k.PR_STEAL_CARD]
    primitive = getattr(effect, "primitive", type(effect).__name__)
    raise _refuse(
        key, primitive, message("the fast core has no primitive {primitive!r}", primitive=primitive)
    )


def refusal(game: BashGame) -> FastConfigError | None:
    """Why the core cannot play ``game``'s configuration, or ``None`` when it can."""
    try:
        build_tables(game)
    except FastConfigError as error:
        return error
    return None


@dataclass(frozen=True)
class Tables:
    """The tables of one game (``T``) and its initial state (``G0``)."""

    game: BashGame
    T: IntArray
    actions: int

    @property
    def lmax(self) -> int:
        """The longest lane."""
        return int(self.T[k.T_LMAX])

    @cached_property
    def initial(self) -> IntArray:
        """The initial state as the core's array."""
        from splash.fast.convert import to_arrays

        return to_arrays(self, self.game.new_initial_state())


def build_tables(game: BashGame) -> Tables:
    """The tables of ``game``; :class:`FastConfigError` naming a setting the core cannot express."""
    cfg = game.settings
    opts = cfg.options
    lengths = [cfg.board.lanes.outer, cfg.board.lanes.centre, cfg.board.lanes.high_tide]
    lmax = max(lengths)
    space = game.action_space
    na = len(list(space))
    T = np.zeros(k.T_FIXED + 3 * lmax + 3 * na, np.int64)
    T[k.T_TEAMS] = opts.teams
    if opts.die_faces > 20:
        raise _at_most("options.die_faces", opts.die_faces, 20, "faces")
    T[k.T_FACES] = opts.die_faces
    T[k.T_PERM] = int(opts.obstacles == "permanent")
    T[k.T_HLAPS] = opts.helmsman_laps
    T[k.T_LAPS] = cfg.board.laps
    T[k.T_CAP] = opts.turn_cap
    T[k.T_HANDLIM] = opts.hand_limit
    T[k.T_LCC] = opts.lane_change_cost
    T[k.T_TAIL] = opts.tail_wind
    T[k.T_BUMPD] = opts.bump_distance
    T[k.T_ORDER] = TURN_ORDER_CODES[opts.turn_order]
    T[k.T_PENALTY] = opts.first_turn_penalty
    T[k.T_STAGGER] = opts.start_stagger
    T[k.T_CATCHUP] = int(opts.catch_up_draw)
    T[k.T_OPENING] = opts.opening_cards
    T[k.T_LMAX] = lmax
    for lane in range(3):
        T[k.T_LEN + lane] = lengths[lane]
        T[k.T_COL + lane] = DECKS.index(game.course.colours[lane])
        points = game.course.checkpoints[lane]
        if len(points) > k.MAXCP:
            raise _at_most("board.checkpoints.fractions", len(points), k.MAXCP, "checkpoints")
        T[k.T_NCP + lane] = len(points)
        T[k.T_CP + lane * k.MAXCP : k.T_CP + lane * k.MAXCP + len(points)] = points
    extra = [0, 0]
    for d, deck in enumerate(DECKS):
        cards = list(cfg.decks[deck].cards.items())
        if len(cards) > k.MAXC:
            raise _at_most(f"decks.{deck}", len(cards), k.MAXC, "cards")
        T[k.T_NCARD + d] = len(cards)
        for c, (name, spec) in enumerate(cards):
            key = f"decks.{deck}.{name}.effects"
            if len(spec.effects) > k.MAXE:
                raise _at_most(key, len(spec.effects), k.MAXE, "effects")
            at = d * k.MAXC + c
            T[k.T_CCOUNT + at] = spec.count
            T[k.T_CTIME + at] = TIMINGS[spec.timing]
            T[k.T_CNEFF + at] = len(spec.effects)
            card_extra = 0
            for e, effect in enumerate(spec.effects):
                fields = _encode_effect(key, effect)
                base = k.T_EFF + (at * k.MAXE + e) * k.EFW
                T[base : base + len(fields)] = fields
                if isinstance(effect, ExtraDie):
                    card_extra += effect.dice
            extra[d] = max(extra[d], card_extra)
            if deck == HAND_DECK:
                T[k.T_REACT + c] = int(name in game.reaction_cards)
    # A turn draws one low tide card, two under BV04's catch-up draw, and plays one high tide card.
    dice = 1 + extra[0] + extra[1]
    if dice > k.MAXDICE:
        raise _at_most("decks", dice, k.MAXDICE, "dice")
    if opts.catch_up_draw and dice + extra[0] > k.MAXDICE:
        raise _at_most("options.catch_up_draw", opts.catch_up_draw, k.MAXDICE, "dice")
    T[k.T_ANYREACT] = int(bool(game.reaction_cards))
    hand_cards = list(cfg.decks[HAND_DECK].cards.values())
    for w in (k.TM_BEFORE_ROLL, k.TM_AFTER_ROLL, k.TM_AFTER_LANE, k.TM_AFTER_WALK):
        T[k.T_WINFIT + w] = int(any(TIMINGS[c.timing] in (k.TM_ANY, w) for c in hand_cards))
    _action_tables(game, T, lmax, na)
    return Tables(game, T, na)


def _action_tables(game: BashGame, T: IntArray, lmax: int, na: int) -> None:
    hand = list(game.settings.decks[HAND_DECK].cards)
    deck_cards = [list(game.settings.decks[deck].cards) for deck in DECKS]
    dec = k.T_A_OBST + 3 * lmax
    T[k.T_NA] = na
    for action in game.action_space:
        p = dict(action.params)
        kind = action.kind
        a = b = 0
        match kind:
            case "start_lane" | "change_lane":
                a = LANES.index(str(p["lane"]))
                T[(k.T_A_START if kind == "start_lane" else k.T_A_CHANGE) + a] = action.id
            case "stay":
                T[k.T_A_STAY] = action.id
            case "pass":
                T[k.T_A_PASS] = action.id
            case "play" | "discard" | "steal":
                a = hand.index(str(p["card"]))
                base = {"play": k.T_A_PLAY, "discard": k.T_A_DISCARD, "steal": k.T_A_STEAL}
                T[base[kind] + a] = action.id
            case "obstacle":
                a, b = LANES.index(str(p["lane"])), int(p["square"])
                T[k.T_A_OBST + a * lmax + b] = action.id
            case "target":
                a, b = int(p["team"]), int(p["piece"])
                T[k.T_A_TARGET + a * 4 + b] = action.id
            case "victim":
                a = int(p["team"])
                T[k.T_A_VICTIM + a] = action.id
            case "keep":
                a = 0 if p["roll"] == "first" else 1
                T[k.T_A_KEEP + a] = action.id
            case "roll":
                a = int(p["face"])
                T[k.T_A_ROLL + a - 1] = action.id
            case "draw":
                a = DECKS.index(str(p["deck"]))
                b = deck_cards[a].index(str(p["card"]))
                T[k.T_A_DRAW + a * k.MAXC + b] = action.id
        T[dec + 3 * action.id] = ACTION_KINDS[kind]
        T[dec + 3 * action.id + 1] = a
        T[dec + 3 * action.id + 2] = b
