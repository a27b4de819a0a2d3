"""The fixed enumeration of Splash & Bash actions for one configuration.

Decisions: ``start_lane`` (set-up, a helmsman's entry), ``change_lane`` / ``stay``,
``pass``, ``play``, ``discard``, ``obstacle``, ``target``, ``victim``, ``keep``.
Chance outcomes: ``roll``, ``draw``, ``steal``.
"""

from __future__ import annotations

from splash.core.actions import Action, ActionSpace, JsonScalar, make_action
from splash.core.i18n import Message, message
from splash.games.bash.board import piece_name
from splash.games.bash.config import LANES, BashConfig


def build_action_space(config: BashConfig) -> ActionSpace:
    """Every action of a game with ``config``, in a fixed order."""
    specs: list[tuple[str, dict[str, JsonScalar]]] = []
    specs += [("start_lane", {"lane": lane}) for lane in LANES]
    specs += [("change_lane", {"lane": lane}) for lane in LANES]
    specs += [("stay", {}), ("pass", {})]
    hand_cards = list(config.decks["high_tide"].cards)
    specs += [("play", {"card": card}) for card in hand_cards]
    specs += [("discard", {"card": card}) for card in hand_cards]
    lengths = (config.board.lanes.outer, config.board.lanes.centre, config.board.lanes.high_tide)
    for lane, length in zip(LANES, lengths, strict=True):
        specs += [("obstacle", {"lane": lane, "square": square}) for square in range(1, length)]
    teams = config.options.teams
    specs += [("target", {"team": t, "piece": i}) for t in range(teams) for i in range(4)]
    specs += [("victim", {"team": t}) for t in range(teams)]
    specs += [("keep", {"roll": "first"}), ("keep", {"roll": "second"})]
    specs += [("roll", {"face": face}) for face in range(1, config.options.die_faces + 1)]
    for deck, spec in config.decks.items():
        specs += [("draw", {"deck": deck, "card": card}) for card in spec.cards]
    specs += [("steal", {"card": card}) for card in hand_cards]
    return ActionSpace([make_action(i, kind, **params) for i, (kind, params) in enumerate(specs)])


def action_text(action: Action) -> Message:
    """A readable form of a Splash & Bash action."""
    p = dict(action.params)
    kind = action.kind
    if kind == "start_lane":
        return message("start in lane {lane}", lane=p["lane"])
    if kind == "change_lane":
        return message("change to lane {lane}", lane=p["lane"])
    if kind == "stay":
        return message("stay in this lane")
    if kind == "pass":
        return message("pass")
    if kind == "play":
        return message("play {card}", card=p["card"])
    if kind == "discard":
        return message("discard {card}", card=p["card"])
    if kind == "obstacle":
        return message("obstacle on {lane} {square}", lane=p["lane"], square=p["square"])
    if kind == "target":
        return message("choose {piece}", piece=piece_name(int(p["team"]), int(p["piece"])))
    if kind == "victim":
        return message("choose team {team}", team="ABCD"[int(p["team"])])
    if kind == "keep":
        return message("keep the {which} roll", which=p["roll"])
    if kind == "roll":
        return message("roll {face}", face=p["face"])
    if kind == "draw":
        return message("draw {card} from {deck}", card=p["card"], deck=p["deck"])
    if kind == "steal":
        return message("take {card}", card=p["card"])
    return message("{action}", action=str(action))


class ActionIndex:
    """The actions of one enumeration looked up directly by what they name (the rules'
    hot path: ``index.roll[6]``, ``index.draw["high_tide", "shove"]``), without building a
    JSON form or a sorted key for each lookup."""

    def __init__(self, space: ActionSpace) -> None:
        self.start_lane: dict[str, Action] = {}
        self.change_lane: dict[str, Action] = {}
        self.play: dict[str, Action] = {}
        self.discard: dict[str, Action] = {}
        self.obstacle: dict[tuple[str, int], Action] = {}
        self.target: dict[tuple[int, int], Action] = {}
        self.victim: dict[int, Action] = {}
        self.keep: dict[str, Action] = {}
        self.roll: dict[int, Action] = {}
        self.draw: dict[tuple[str, str], Action] = {}
        self.steal: dict[str, Action] = {}
        for action in space:
            p = dict(action.params)
            match action.kind:
                case "start_lane":
                    self.start_lane[str(p["lane"])] = action
                case "change_lane":
                    self.change_lane[str(p["lane"])] = action
                case "stay":
                    self.stay = action
                case "pass":
                    self.pass_ = action
                case "play":
                    self.play[str(p["card"])] = action
                case "discard":
                    self.discard[str(p["card"])] = action
                case "obstacle":
                    self.obstacle[str(p["lane"]), int(p["square"])] = action
                case "target":
                    self.target[int(p["team"]), int(p["piece"])] = action
                case "victim":
                    self.victim[int(p["team"])] = action
                case "keep":
                    self.keep[str(p["roll"])] = action
                case "roll":
                    self.roll[int(p["face"])] = action
                case "draw":
                    self.draw[str(p["deck"]), str(p["card"])] = action
                case "steal":
                    self.steal[str(p["card"])] = action
