"""What the server asks of the games: building them, chance draws, bots, and who may see what.

Every chance draw and every bot decision takes a generator derived from (the room's seed,
the index of the action in the log), never a generator that lives on: a server restarted
from the stored log draws exactly what the original process would have drawn.

:data:`GAME_RULES` is the server's table of games: who may see a chance outcome, what a
public screen shows, which chance events keep their outcomes to themselves.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, cast

import numpy as np

from splash.bots import is_light, make_bot
from splash.core.actions import Action, Json
from splash.core.errors import ConfigError, OptionError, OutcomeError
from splash.core.i18n import message
from splash.core.outcomes import RandomOutcomes
from splash.core.protocol import CHANCE, ChanceEvent, Game, State
from splash.core.settings import parse_assignment
from splash.games import GAMES
from splash.games.bash import BashGame, BashState
from splash.games.bash.config import HAND_DECK
from splash.games.bash.records import AwaitSteal
from splash.games.bash.render import public_view as bash_public_view
from splash.games.bash.summary import bash_summary
from splash.games.registry import declaration_of
from splash.games.tower import TowerGame, TowerState, referee
from splash.games.tower.summary import tower_summary

MODES: tuple[str, ...] = ("play", "referee")
HAND_KINDS = frozenset({"window", "discard", "reaction"})
"""Splash & Bash decisions whose choices name the cards of a hand."""

CHANCE_STREAM, PHYSICS_STREAM, BOT_STREAM = 0, 1, 2


def parse_settings(settings: Sequence[str]) -> list[tuple[str, Any]]:
    """``[("board.lanes.outer", 36)]`` from ``["board.lanes.outer=36"]``."""
    return [parse_assignment(text) for text in settings]


@lru_cache(maxsize=64)
def _build(game_id: str, settings_json: str, mode: str) -> Game:
    declaration = declaration_of(GAMES, game_id)
    assignments = parse_settings(json.loads(settings_json))
    if mode == "referee":
        return declaration.from_settings(assignments)
    from splash.physics.games import PHYSICAL_GAMES

    return PHYSICAL_GAMES[game_id].build(assignments)


def uses_physics(game_id: str, mode: str) -> bool:
    """Whether the physics rules some chance events of a ``game_id`` room in ``mode``."""
    if mode != "play":
        return False
    from splash.physics.games import PHYSICAL_GAMES

    return bool(PHYSICAL_GAMES[game_id].outcomes)


def build_game(game_id: str, settings: Sequence[str], mode: str) -> Game:
    """The game of a room; :class:`OptionError` (naming the key) for a bad setting.

    In play mode the physics rules what it rules (Splash! placements:
    :data:`splash.physics.games.PHYSICAL_GAMES`); referee rooms take the outcomes people
    report.
    """
    if mode not in MODES:
        raise OptionError(
            "mode", mode, message("unknown mode (known: {modes})", modes="play, referee")
        )
    return _build(game_id, json.dumps(list(settings)), mode)


def check_bot(game_id: str, spec: str) -> str:
    """``spec`` if it names a bot that plays ``game_id`` with valid parameters."""
    make_bot(spec, 0, game=game_id)
    return spec


def runs_inline(step: tuple[str, str | None], *, physics: bool) -> bool:
    """Whether the server plays ``step`` (``("chance", None)``, ``("bot", spec)``, ...) on its
    event loop: anything but a bot, in a room without the physics, and a bot the registry
    declares light (:attr:`splash.bots.BotSpec.light`).  A bot that may think long and a
    physics ruling run in a worker thread."""
    if physics:
        return False
    kind, spec = step
    return kind != "bot" or (spec is not None and is_light(spec))


def _seed(seed: int, index: int, stream: int, *extra: int) -> np.random.SeedSequence:
    return np.random.SeedSequence([seed, index, stream, *extra])


def chance_action(state: State, *, seed: int, index: int, settings: Sequence[str] = ()) -> Action:
    """The outcome of the pending chance event, drawn for action ``index`` of the log: by
    the physics for the kinds it rules (:data:`splash.physics.games.PHYSICAL_GAMES`, as the
    room's ``settings`` say: ``physics.ruling=statics`` or the simulation), at random
    otherwise."""
    event = state.chance_event()
    if event is None:
        raise OutcomeError(message("no chance event is pending in {state}", state=state.describe()))
    from splash.physics.games import PHYSICAL_GAMES

    ruled = PHYSICAL_GAMES[state.game.id].outcomes.get(event.kind)
    if ruled is not None:
        provider = ruled(parse_settings(settings), _seed(seed, index, PHYSICS_STREAM))
        return provider.outcome(state)
    return RandomOutcomes(_seed(seed, index, CHANCE_STREAM)).outcome(state)


def bot_action(spec: str, state: State, *, seed: int, index: int) -> Action:
    """The choice of bot ``spec`` for the seat to act, as action ``index`` of the log."""
    seat = state.to_act()
    return make_bot(spec, _seed(seed, index, BOT_STREAM, seat)).act(state)


def audience(state: State, action: Action) -> frozenset[int] | None:
    """The seats that may see ``action`` whole, applied to ``state`` (``None``: everyone)."""
    return GAME_RULES[state.game.id].audience(state, action)


def _bash_audience(state: State, action: Action) -> frozenset[int] | None:
    """A card drawn from the high tide deck is seen by the team that draws it; a card stolen,
    by the thief and the victim (BD12)."""
    if not isinstance(state, BashState) or state.to_act() != CHANCE:
        return None
    if action.kind == "draw" and action.param("deck") == HAND_DECK:
        return frozenset({state.team})
    if isinstance(state.awaiting, AwaitSteal):
        return frozenset({state.team, state.awaiting.victim})
    return None


def action_for(action: Action, seats: frozenset[int] | None, recipient: int | None) -> Json:
    """The JSON form of ``action`` as ``recipient`` may see it (``None``: a public screen)."""
    doc = action.to_json()
    if seats is None or (recipient is not None and recipient in seats):
        return doc
    return {k: v for k, v in doc.items() if k != "card"}


def seat_view(state: State, seat: int) -> dict[str, Json]:
    """What ``seat`` may know of ``state``."""
    return state.view(seat)


def public_view(state: State, revealed: Sequence[int] = ()) -> dict[str, Json]:
    """What a spectator or a referee screen may see, with the hands ``revealed`` by their teams.

    The legal actions of the seat to act are listed when they show no card (for a referee
    who enters that seat's decision), all of them when the seat has revealed its hand.
    """
    return GAME_RULES[state.game.id].public_view(state, revealed)


def _bash_public_view(state: State, revealed: Sequence[int]) -> dict[str, Json]:
    if not isinstance(state, BashState):
        return _open_view(state, revealed)
    to_act = state.to_act()
    view = bash_public_view(state.view(0))
    legal = [a.to_json() for a in state.legal_actions()] if to_act >= 0 else []
    if to_act not in revealed:
        legal = [a for a in legal if "card" not in a]
    view["legal_actions"] = cast(Json, legal)
    view["revealed_hands"] = {str(s): list(state.board.hands[s]) for s in sorted(revealed)}
    return view


def _open_view(state: State, revealed: Sequence[int]) -> dict[str, Json]:
    """The view of a game that hides nothing: any seat's, with every legal action."""
    to_act = state.to_act()
    view = state.view(max(to_act, 0))
    view["seat"] = None
    view["legal_actions"] = [a.to_json() for a in state.legal_actions()] if to_act >= 0 else []
    return view


def public_chance(state: State) -> dict[str, Json] | None:
    """The pending chance event as a referee screen may see it, with its possible outcomes
    when listing them reveals nothing (:attr:`GameRules.listed`)."""
    event = state.chance_event()
    if event is None:
        return None
    doc: dict[str, Json] = {"event": event.to_json()}
    if GAME_RULES[state.game.id].listed(event):
        doc["outcomes"] = [a.to_json() for a in state.legal_actions()]
    return doc


def _bash_listed(event: ChanceEvent) -> bool:
    """A high tide draw or a steal lists no outcome: that would reveal a hand (BD12)."""
    private = event.kind == "steal" or (
        event.kind == "draw" and event.params.get("deck") == HAND_DECK
    )
    return not private


def _tower_listed(event: ChanceEvent) -> bool:
    """A placement's outcomes are not enumerable: people report what the tower did."""
    return event.kind != "placement"


def _open_audience(state: State, action: Action) -> frozenset[int] | None:
    """Every seat sees every outcome (Splash!, TD03)."""
    return None


def game_summary(state: State) -> dict[str, Json]:
    """The end-of-game summary of ``state``'s game (:attr:`GameRules.summary`): public
    counts only, the same for every seat and every screen."""
    return GAME_RULES[state.game.id].summary(state)


def _bash_summary(state: State) -> dict[str, Json]:
    game = state.game
    assert isinstance(game, BashGame)
    return cast(dict[str, Json], bash_summary(game, state.history))


def _tower_summary(state: State) -> dict[str, Json]:
    game = state.game
    assert isinstance(game, TowerGame)
    return cast(dict[str, Json], tower_summary(game, state.history))


def reported_outcome(state: State, report: Mapping[str, Any]) -> Action:
    """The ``result`` action of a Splash! placement that people report (referee mode).

    ``report`` is ``{"result": "stood", "room_left": bool}``, ``{"result": "fell",
    "standing": [[base, ...], ...], "on_table": [...]}``, ``{"result": "spontaneous"}`` or
    ``{"result": "knocked", "knocker": seat, "standing": ..., "on_table": ...}``.
    """
    if not isinstance(state, TowerState) or state.phase != "result" or state.gift is None:
        raise OutcomeError(message("no placement is waiting for its outcome"))
    try:
        return _reported(state, report)
    except ConfigError as error:
        raise OutcomeError(error.text) from None
    except (KeyError, ValueError, TypeError) as error:
        raise OutcomeError(
            message(
                "this report names something that is not on the table: {problem}",
                problem=str(error),
            )
        ) from None


def _reported(state: TowerState, report: Mapping[str, Any]) -> Action:
    result = report.get("result")
    if result == "stood":
        return referee.stood(state, room_left=bool(report.get("room_left", False)))
    if result == "spontaneous":
        return referee.spontaneous(state)
    standing = report.get("standing", [])
    on_table = report.get("on_table", [])
    if not _stacks(standing) or not _pieces(on_table):
        raise OutcomeError(
            message("'standing' is a list of lists of pieces and 'on_table' a list of pieces")
        )
    if result == "fell":
        return referee.fell(state, standing, on_table)
    knocker = report.get("knocker")
    if result == "knocked" and isinstance(knocker, int) and not isinstance(knocker, bool):
        return referee.knocked(state, knocker, standing, on_table)
    raise OutcomeError(
        message("a report's result is stood, fell, spontaneous or knocked (with a knocker)")
    )


def _pieces(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(p, str) for p in value)


def _stacks(value: object) -> bool:
    return isinstance(value, list) and all(_pieces(s) for s in value)


@dataclass(frozen=True)
class GameRules:
    """What the server asks of one game beyond its rules engine."""

    audience: Callable[[State, Action], frozenset[int] | None]
    """The seats that may see a chance outcome whole (``None``: everyone)."""
    public_view: Callable[[State, Sequence[int]], dict[str, Json]]
    """What a spectator or a referee screen may see, with the hands revealed by their seats."""
    listed: Callable[[ChanceEvent], bool]
    """Whether a referee screen lists the possible outcomes of a chance event."""
    summary: Callable[[State], dict[str, Json]]
    """The summary of a game (places and each seat's counts), replayed from its history;
    public information only."""


GAME_RULES: Mapping[str, GameRules] = {
    "bash": GameRules(
        audience=_bash_audience,
        public_view=_bash_public_view,
        listed=_bash_listed,
        summary=_bash_summary,
    ),
    "tower": GameRules(
        audience=_open_audience,
        public_view=_open_view,
        listed=_tower_listed,
        summary=_tower_summary,
    ),
}
"""Every game of :data:`splash.games.GAMES`, as the server plays it."""
