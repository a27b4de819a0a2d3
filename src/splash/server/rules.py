"""What the server asks of the games: building them, chance draws, bots, and who may see what.

Every chance draw and every bot decision takes a generator derived from (the room's seed,
the index of the action in the log), never a generator that lives on: a server restarted
from the stored log draws exactly what the original process would have drawn.

Everything a game decides (who may see an action, what a public screen shows, which
chance outcomes a referee screen lists, the end summary, the reports people make) the
server asks of the game's declaration (:class:`~splash.games.registry.GameDeclaration`),
looked up by the game's id: the server never names a game.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from splash.bots import check_table, is_light, make_bot
from splash.core.actions import Action, Json
from splash.core.errors import OptionError, OutcomeError
from splash.core.i18n import message
from splash.core.outcomes import RandomOutcomes
from splash.core.protocol import Game, State
from splash.core.settings import parse_assignment
from splash.games import GAMES
from splash.games.registry import (
    Conceal,
    GameDeclaration,
    Request,
    declaration_of,
    unknown_game,
    whole,
)
from splash.server.options import MODES, PLAY, REFEREE

if TYPE_CHECKING:
    from splash.physics.games import PhysicalGame

CHANCE_STREAM, PHYSICS_STREAM, BOT_STREAM = 0, 1, 2


def parse_settings(settings: Sequence[str]) -> list[tuple[str, Any]]:
    """``[("board.lanes.outer", 36)]`` from ``["board.lanes.outer=36"]``."""
    return [parse_assignment(text) for text in settings]


@lru_cache(maxsize=64)
def _build(game_id: str, settings_json: str, mode: str) -> Game:
    declaration = declaration_of(GAMES, game_id)
    assignments = parse_settings(json.loads(settings_json))
    if mode == REFEREE:
        return declaration.from_settings(assignments)
    physical = _physical(game_id)
    if physical is None:
        return declaration.from_settings(assignments)
    return physical.build(assignments)


def _physical(game_id: str) -> PhysicalGame | None:
    """The physics layer's entry of ``game_id``; ``None`` for a game of
    :data:`splash.games.GAMES` that the physics leaves alone (an :class:`OptionError` for
    no game)."""
    from splash.physics.games import PHYSICAL_GAMES

    if game_id not in GAMES:
        raise OptionError("game", game_id, unknown_game(GAMES, game_id))
    return PHYSICAL_GAMES.get(game_id)


def ruled_kinds(game_id: str, mode: str) -> frozenset[str]:
    """The kinds of chance event the physics rules in a ``game_id`` room in ``mode`` (none
    where it rules nothing)."""
    if not uses_physics(game_id, mode):
        return frozenset()
    physical = _physical(game_id)
    return frozenset(physical.outcomes) if physical is not None else frozenset()


def uses_physics(game_id: str, mode: str) -> bool:
    """Whether the physics rules some chance events of a ``game_id`` room in ``mode``."""
    if mode != PLAY:
        return False
    physical = _physical(game_id)
    return physical is not None and bool(physical.outcomes)


def build_game(game_id: str, settings: Sequence[str], mode: str) -> Game:
    """The game of a room; :class:`OptionError` (naming the key) for a bad setting.

    In play mode the physics rules what it rules (Splash! placements:
    :data:`splash.physics.games.PHYSICAL_GAMES`); referee rooms take the outcomes people
    report.
    """
    if mode not in MODES:
        raise OptionError(
            "mode", mode, message("unknown mode (known: {modes})", modes=", ".join(MODES))
        )
    return _build(game_id, json.dumps(list(settings)), mode)


def check_bot(game_id: str, spec: str, game: Game | None = None) -> str:
    """``spec`` if it names a bot that plays ``game_id`` with valid parameters (and, given
    the room's ``game``, that plays its table: a learned agent learned on one)."""
    bot = make_bot(spec, 0, game=game_id)
    if game is not None:
        check_table(bot, game)
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


def draw_seed(seed: int, index: int, stream: int, *extra: int) -> np.random.SeedSequence:
    """The generator seed of action ``index`` of a room whose key is ``seed``, for one
    ``stream`` (:data:`CHANCE_STREAM`, :data:`PHYSICS_STREAM`, :data:`BOT_STREAM` and the
    seat): the same key, index and stream always give the same draws."""
    return np.random.SeedSequence([seed, index, stream, *extra])


def chance_action(state: State, *, seed: int, index: int, settings: Sequence[str] = ()) -> Action:
    """The outcome of the pending chance event, drawn for action ``index`` of the log: by
    the physics for the kinds it rules (:data:`splash.physics.games.PHYSICAL_GAMES`, as the
    room's ``settings`` say: ``physics.ruling=statics`` or the simulation), at random
    otherwise."""
    event = state.chance_event()
    if event is None:
        raise OutcomeError(message("no chance event is pending in {state}", state=state.describe()))
    physical = _physical(state.game.id)
    ruled = physical.outcomes.get(event.kind) if physical is not None else None
    if ruled is not None:
        provider = ruled(parse_settings(settings), draw_seed(seed, index, PHYSICS_STREAM))
        return provider.outcome(state)
    return RandomOutcomes(draw_seed(seed, index, CHANCE_STREAM)).outcome(state)


def bot_action(spec: str, state: State, *, seed: int, index: int) -> Action:
    """The choice of bot ``spec`` for the seat to act, as action ``index`` of the log."""
    seat = state.to_act()
    return make_bot(spec, draw_seed(seed, index, BOT_STREAM, seat)).act(state)


def declaration(state: State) -> GameDeclaration:
    """The declaration of ``state``'s game (:data:`splash.games.GAMES`)."""
    return declaration_of(GAMES, state.game.id)


def audience(state: State, action: Action) -> frozenset[int] | None:
    """The seats that may see ``action`` whole, applied to ``state`` (``None``: everyone):
    the game's :attr:`~splash.games.registry.Screens.audience`."""
    return declaration(state).screens.audience(state, action)


def action_for(
    action: Action, seats: frozenset[int] | None, recipient: int | None, conceal: Conceal = whole
) -> Json:
    """The JSON form of ``action`` as ``recipient`` may see it (``None``: a public screen):
    whole within its audience ``seats``, as the game's ``conceal`` shows it outside."""
    if seats is None or (recipient is not None and recipient in seats):
        return action.to_json()
    return conceal(action)


def concealer(game_id: str) -> Conceal:
    """How a seat outside an action's audience sees the action, in a ``game_id`` room (the
    game's :attr:`~splash.games.registry.Screens.conceal`)."""
    return declaration_of(GAMES, game_id).screens.conceal


def seat_view(state: State, seat: int) -> dict[str, Json]:
    """What ``seat`` may know of ``state`` (the game's
    :attr:`~splash.games.registry.GameDeclaration.view`)."""
    return declaration(state).view(state, seat)


def public_view(state: State, revealed: Sequence[int] = ()) -> dict[str, Json]:
    """What a spectator or a referee screen may see, with the hands ``revealed`` by their
    seats (the game's :attr:`~splash.games.registry.Screens.public_view`)."""
    return declaration(state).screens.public_view(state, revealed)


def public_chance(state: State) -> dict[str, Json] | None:
    """The pending chance event as a referee screen may see it, with its possible outcomes
    when the game lists them (:attr:`~splash.games.registry.RefereeSide.listed`)."""
    event = state.chance_event()
    if event is None:
        return None
    doc: dict[str, Json] = {"event": event.to_json()}
    if declaration(state).referee.listed(event):
        doc["outcomes"] = [a.to_json() for a in state.legal_actions()]
    return doc


def game_summary(state: State) -> dict[str, Json]:
    """The end-of-game summary of ``state``'s game (its declaration's): public counts only,
    the same for every seat and every screen."""
    return declaration(state).summary(state)


def referee_automatic(state: State) -> Action | None:
    """The decision a referee room plays by itself in ``state`` (the game's
    :attr:`~splash.games.registry.RefereeSide.automatic`), or ``None``."""
    return declaration(state).referee.automatic(state)


def requests_of(game_id: str, mode: str = PLAY) -> dict[str, Request]:
    """The extra requests a ``game_id`` room in ``mode`` answers, by kind: the game's
    (:attr:`~splash.games.registry.GameDeclaration.requests`) and, in play rooms, the physics
    layer's for it (:attr:`~splash.physics.games.PhysicalGame.requests`)."""
    requests = dict(declaration_of(GAMES, game_id).requests)
    physical = _physical(game_id) if mode == PLAY else None
    if physical is not None:
        requests |= physical.requests
    return requests


def request_handler(game_id: str, kind: str, mode: str = PLAY) -> Request:
    """The function that answers the extra request ``kind`` in a ``game_id`` room in
    ``mode``: the game's (:attr:`~splash.games.registry.GameDeclaration.requests`) and, in
    play rooms, the physics layer's for it (:attr:`~splash.physics.games.PhysicalGame.requests`);
    an :class:`OptionError` naming ``kind`` and listing the known ones for any other, and
    naming the game for an unknown game."""
    requests = requests_of(game_id, mode)
    found = requests.get(kind)
    if found is None:
        known = ", ".join(sorted(requests)) or "-"
        raise OptionError(
            "kind",
            kind,
            message(
                "unknown {kind} {name!r} (known: {known})", kind="request", name=kind, known=known
            ),
        )
    return found
